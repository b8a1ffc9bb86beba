// The pieces the bf16 -> bfp16ebs8 conversion of mlir-aie's ml/block_datatypes/bfp_conversion kernel
// (3ca0193: kernel.cc l.36-66) and its vector_passthrough kernel (l.20-23) take from the AIE-API host
// layer: aie::detail::transpose<T, N>::run (the implementation struct behind aie::transpose), the
// native block vector v128bfp16ebs8, and the transposed-then-quantized block path. References are
// plain loops: the transpose's index map written out per element, the quantizer from the float's
// fields with an arithmetic shift (floor, the reset rounding mode; helper.h l.77-104).
#include <aie_api/aie.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using npusim::bfloat16;

namespace {

// The transpose of a row-major rows x cols matrix, by destination index: element (c, r) of the
// result (row-major cols x rows) is element (r, c) of the input.
template <typename T>
std::vector<T> conv_ref_transpose(const std::vector<T>& in, unsigned rows, unsigned cols) {
    std::vector<T> out(in.size());
    for (unsigned d = 0; d < in.size(); ++d) {
        const unsigned c = d / rows, r = d % rows;
        out[d] = in[r * cols + c];
    }
    return out;
}

// One block of 8 finite floats quantized with floor: exponent = the largest exponent field; mantissa
// = floor(signed significand / 2^(17 + E - e)), saturated to int8.
std::array<std::uint8_t, 9> conv_ref_block(const float* x) {
    unsigned e_max = 0;
    for (int k = 0; k < 8; ++k) e_max = std::max(e_max, unsigned((std::bit_cast<std::uint32_t>(x[k]) >> 23) & 0xFFu));
    std::array<std::uint8_t, 9> out{};
    out[0] = static_cast<std::uint8_t>(e_max);
    for (int k = 0; k < 8; ++k) {
        const std::uint32_t u = std::bit_cast<std::uint32_t>(x[k]);
        const unsigned e = (u >> 23) & 0xFFu;
        std::int64_t sig = (u & 0x7FFFFFu) | (e ? 0x800000u : 0u);
        if (u >> 31) sig = -sig;
        const int sh = 17 + int(e_max) - int(e);
        std::int64_t q = sh >= 62 ? (sig < 0 ? -1 : 0) : (sig >> sh);
        q = q > 127 ? 127 : (q < -128 ? -128 : q);
        out[1 + k] = static_cast<std::uint8_t>(static_cast<std::int8_t>(q));
    }
    return out;
}

} // namespace

TEST_CASE("aie::detail::transpose<T, N>::run transposes a row-major rows x cols vector",
          "[aie_api][bfp16][transpose]") {
    std::mt19937 rng(40);
    std::uniform_int_distribution<int> d(-30000, 30000);
    // bf16 8x8 (bfp_conversion's use), and the non-square shapes of 64 lanes
    for (const auto& [rows, cols] : std::vector<std::pair<unsigned, unsigned>>{{8, 8}, {4, 16}, {16, 4}, {2, 32}, {64, 1}}) {
        std::vector<bfloat16> in(64);
        for (auto& x : in) x = bfloat16(float(d(rng)) / 8.0f);
        const auto want = conv_ref_transpose(in, rows, cols);
        const auto v = aie::load_v<64>(in.data());
        const aie::vector<bfloat16, 64> got = aie::detail::transpose<bfloat16, 64>::run(v, rows, cols);
        for (unsigned i = 0; i < 64; ++i) {
            INFO(rows << "x" << cols << " lane " << i);
            REQUIRE(std::bit_cast<std::uint16_t>(got[i]) == std::bit_cast<std::uint16_t>(want[i]));
        }
        // the same permutation as aie::transpose
        const auto api = aie::transpose(v, rows, cols);
        for (unsigned i = 0; i < 64; ++i) REQUIRE(std::bit_cast<std::uint16_t>(api[i]) == std::bit_cast<std::uint16_t>(got[i]));
    }
    // other element types and sizes
    std::vector<std::int8_t> b(32);
    for (unsigned i = 0; i < 32; ++i) b[i] = static_cast<std::int8_t>(i * 7 - 100);
    const auto tb = aie::detail::transpose<std::int8_t, 32>::run(aie::load_v<32>(b.data()), 4, 8);
    const auto wb = conv_ref_transpose(b, 4, 8);
    for (unsigned i = 0; i < 32; ++i) REQUIRE(tb[i] == wb[i]);
    CHECK(tb[1] == b[8]); // (0,1) of the 8x4 result is (1,0) of the 4x8 input
}

TEST_CASE("bf16 transposed, multiplied by ones and quantized to bfp16ebs8, as bfp_conversion's kernel does",
          "[aie_api][bfp16][transpose]") {
    // The quantization rounds with the core's mode; the reference is the reset mode (floor), which a
    // test run earlier may have left changed.
    const npusim::aie_api::ScopedCoreModes reset_modes;
    std::mt19937 rng(41);
    std::uniform_real_distribution<float> mant(-4.0f, 4.0f);
    std::uniform_int_distribution<int> ex(-6, 6);
    for (int rep = 0; rep < 20; ++rep) {
        std::vector<bfloat16> in(64);
        for (auto& x : in) x = bfloat16(std::ldexp(mant(rng), ex(rng)));
        std::vector<std::uint8_t> out(72, 0xEE);
        // the kernel's B path (kernel.cc l.51-62)
        const auto vb = aie::load_v<64>(in.data());
        const auto vbt = aie::detail::transpose<bfloat16, 64>::run(vb, 8, 8);
        const aie::accum<accfloat, 64> acc =
            mul_elem_64(vbt, aie::concat(broadcast_one_to_v32bfloat16(), broadcast_one_to_v32bfloat16()));
        aie::block_vector_output_buffer_stream<bfp16ebs8, 64> os(reinterpret_cast<bfp16ebs8*>(out.data()));
        os << acc.to_vector<bfp16ebs8>();
        // reference: transpose the floats, quantize each row of 8
        std::vector<float> f(64);
        for (unsigned i = 0; i < 64; ++i) f[i] = static_cast<float>(in[i]);
        const auto ft = conv_ref_transpose(f, 8, 8);
        for (unsigned blk = 0; blk < 8; ++blk) {
            const auto want = conv_ref_block(ft.data() + 8 * blk);
            for (unsigned k = 0; k < 9; ++k) {
                INFO("rep " << rep << " block " << blk << " byte " << k);
                REQUIRE(out[blk * 9 + k] == want[k]);
            }
        }
    }
}

TEST_CASE("v128bfp16ebs8 is 16 packed blocks a kernel copies whole", "[aie_api][bfp16]") {
    static_assert(sizeof(v128bfp16ebs8) == 144 && sizeof(v64bfp16ebs8) == 72);
    std::vector<std::uint8_t> mem(2 * 144 + 3);
    for (unsigned i = 0; i < mem.size(); ++i) mem[i] = static_cast<std::uint8_t>(i * 37 + 1);
    std::vector<std::uint8_t> out(mem.size(), 0);
    // vector_passthrough's body, on a pointer one byte off any alignment: *out = *in
    auto* in = reinterpret_cast<const v128bfp16ebs8*>(mem.data() + 1);
    auto* o = reinterpret_cast<v128bfp16ebs8*>(out.data() + 1);
    *o = *in;
    for (unsigned i = 0; i < out.size(); ++i) CHECK(out[i] == (i >= 1 && i < 145 ? mem[i] : 0));
    CHECK(in->exponent(15) == mem[1 + 15 * 9]);
    CHECK(in->blocks() == 16);
}

TEST_CASE("a bfp16ebs8 is one 9-byte block: an array of M * K / 8 of them holds M x K values",
          "[aie_api][bfp16]") {
    static_assert(sizeof(bfp16ebs8) == 9 && alignof(bfp16ebs8) == 1);
    // gemm_asymmetric_tile_buffering/config1/mm_bfp_mixed.cc l.56-70: a 32 x 64 bf16 tile converted
    // into a local bfp16ebs8[32 * 64 / 8], one 8x8 block vector at a time
    constexpr unsigned rows = 32, cols = 64;
    struct Guarded {
        bfp16ebs8 blocks[rows * cols / 8];
        std::uint8_t guard[16];
    } g;
    std::memset(g.guard, 0x5A, sizeof g.guard);
    aie::block_vector_output_buffer_stream<bfp16ebs8, 64> os(g.blocks);
    std::vector<float> src(rows * cols);
    for (unsigned i = 0; i < src.size(); ++i) src[i] = float(int(i % 97) - 48);
    for (unsigned v = 0; v < rows * cols / 64; ++v) {
        aie::accum<accfloat, 64> acc;
        for (unsigned i = 0; i < 64; ++i) acc.lane(i) = src[v * 64 + i];
        os << acc.to_vector<bfp16ebs8>();
    }
    for (auto b : g.guard) REQUIRE(b == 0x5A); // nothing written past the array
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(g.blocks);
    for (unsigned blk = 0; blk < rows * cols / 8; ++blk) {
        const auto want = conv_ref_block(src.data() + 8 * blk);
        for (unsigned k = 0; k < 9; ++k) REQUIRE(bytes[blk * 9 + k] == want[k]);
    }
}

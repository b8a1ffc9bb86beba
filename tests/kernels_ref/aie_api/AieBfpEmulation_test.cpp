// AIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16: a bfloat16 aie::mmul on AIE2P runs on the bfp16
// datapath (rows of A and columns of B quantized to bfp16ebs8 blocks with the core rounding mode,
// then the exact block dot products scaled and added to the float lanes). This file is compiled on
// its own (tests/CMakeLists.txt NPUSIM_UNITY_SKIP) because the flag must precede the header.
#define AIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16 1
#include <aie_api/aie.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

using npusim::bfloat16;

namespace {

// Independent quantizer of one block of 8 normal or zero floats: E = the largest exponent field,
// m = round(x * 2^(133 - E)) with floor or ties-to-even, saturated to int8; returns the values.
void emu_ref_block(const float* x, bool nearest_even, long double* out) {
    int e_max = 0;
    for (int k = 0; k < 8; ++k) e_max = std::max(e_max, int((std::bit_cast<std::uint32_t>(x[k]) >> 23) & 0xFFu));
    for (int k = 0; k < 8; ++k) {
        const long double t = std::ldexp(static_cast<long double>(x[k]), 133 - e_max);
        long double m = nearest_even ? std::nearbyint(t) : std::floor(t); // nearbyint: ties to even (default env)
        m = std::min(127.0L, std::max(-128.0L, m));
        out[k] = std::ldexp(m, e_max - 133);
    }
}

// C = A * B (8x8x8, row-major) through bfp16 blocks, each lane rounded once from the exact sum.
std::vector<float> emu_ref_matmul(const std::vector<float>& a, const std::vector<float>& b, bool nearest_even) {
    long double qa[8][8], qb[8][8];
    for (int i = 0; i < 8; ++i) emu_ref_block(&a[i * 8], nearest_even, qa[i]);
    for (int j = 0; j < 8; ++j) {
        float col[8];
        for (int k = 0; k < 8; ++k) col[k] = b[k * 8 + j];
        emu_ref_block(col, nearest_even, qb[j]);
    }
    std::vector<float> c(64);
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
            long double s = 0;
            for (int k = 0; k < 8; ++k) s += qa[i][k] * qb[j][k];
            c[i * 8 + j] = static_cast<float>(s);
        }
    return c;
}

} // namespace

TEST_CASE("AIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16 runs a bf16 8x8x8 mmul through bfp16 blocks", "[aie_api][bfp16]") {
    static_assert(aie::mmul<8, 8, 8, bfloat16, bfloat16, accfloat>::via_bfp16);
    static_assert(!aie::mmul<8, 8, 8, bfloat16, bfloat16, accfloat, false>::via_bfp16);
    static_assert(!aie::mmul<4, 4, 8, int16, int16, acc32>::via_bfp16); // integer shapes are untouched
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    std::uniform_int_distribution<int> ex(-6, 6);
    bool differs_from_native = false;
    for (const bool even : {false, true}) {
        npusim::aie_api::ScopedCoreModes keep;
        aie::set_rounding(even ? aie::rounding_mode::conv_even : aie::rounding_mode::floor);
        for (int rep = 0; rep < 40; ++rep) {
            aie::vector<bfloat16, 64> va, vb;
            std::vector<float> fa(64), fb(64);
            for (unsigned i = 0; i < 64; ++i) {
                va[i] = bfloat16(std::ldexp(dist(rng), ex(rng)));
                vb[i] = bfloat16(std::ldexp(dist(rng), ex(rng)));
                fa[i] = static_cast<float>(va[i]);
                fb[i] = static_cast<float>(vb[i]);
            }
            aie::mmul<8, 8, 8, bfloat16, bfloat16, accfloat> m;
            m.mul(va, vb);
            const auto want = emu_ref_matmul(fa, fb, even);
            const auto got = m.to_accum();
            for (unsigned i = 0; i < 64; ++i) REQUIRE(got.lane(i) == want[i]);
            // mac adds the next product to the lanes (K = 8 is one block: one rounding per mac).
            m.mac(va, vb);
            for (unsigned i = 0; i < 64; ++i) REQUIRE(m.to_accum().lane(i) == want[i] + want[i]);
            aie::mmul<8, 8, 8, bfloat16, bfloat16, accfloat, false> native;
            native.mul(va, vb);
            for (unsigned i = 0; i < 64; ++i) differs_from_native |= native.to_accum().lane(i) != got.lane(i);
        }
    }
    CHECK(differs_from_native); // the flag changes results (bf16's 8 significant bits vs a shared exponent)
}

TEST_CASE("the bfp16 emulation quantizes each row of A and each column of B as one block", "[aie_api][bfp16]") {
    npusim::aie_api::ScopedCoreModes keep; // floor
    aie::vector<bfloat16, 64> va, vb;
    for (unsigned i = 0; i < 64; ++i) {
        va[i] = bfloat16(0.0f);
        vb[i] = bfloat16(0.0f);
    }
    // Row 0 of A: 64 and 1.5 share E = 133 (step 1): 1.5 truncates to 1. Row 1: 1.5 alone stays exact.
    va[0] = bfloat16(64.0f);
    va[1] = bfloat16(1.5f);
    va[9] = bfloat16(1.5f);
    // Column 0 of B (B[k][0] = vb[k * 8]): 1 and 1; column 1: only B[1][1] = 1.
    vb[0] = bfloat16(1.0f);
    vb[8] = bfloat16(1.0f);
    vb[9] = bfloat16(1.0f);
    aie::mmul<8, 8, 8, bfloat16, bfloat16, accfloat> m;
    m.mul(va, vb);
    CHECK(m.to_accum().lane(0) == 65.0f); // 64 * 1 + 1 (1.5 truncated) * 1
    CHECK(m.to_accum().lane(1) == 1.0f); // A[0][1] = 1 after quantization
    CHECK(m.to_accum().lane(9) == 1.5f); // row 1, column 1: 1.5 * 1, exact
    aie::mmul<8, 8, 8, bfloat16, bfloat16, accfloat, false> native;
    native.mul(va, vb);
    CHECK(native.to_accum().lane(0) == 65.5f);
}

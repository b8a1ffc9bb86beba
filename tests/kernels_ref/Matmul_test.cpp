// Tests for matmul_i16_i32 / matmul_i16_i16 in the blocked layout, to_blocked / from_blocked, and
// the matmul cost estimates (kernels_ref/matmul.hpp).
#include <npusim/kernels/matmul.hpp>
#include <npusim/kernels/zero.hpp>

#include <catch2/catch.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

using namespace npusim::kernels;

namespace {

#define REQUIRE_INVALID(expr, text)                                                                                    \
    do {                                                                                                               \
        REQUIRE_THROWS_AS(expr, std::invalid_argument);                                                                \
        REQUIRE_THROWS_WITH(expr, Catch::Matchers::Contains(text));                                                    \
    } while (0)

using MatI64 = Eigen::Matrix<std::int64_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct Dim {
    std::int64_t size, stride;
};

// Reads `src` (row-major) through a 4-level access pattern, outermost first, the way a mem-tile
// dims_to_stream transform emits it: stream[p++] = src[sum i_d * stride_d]. Independent of the
// library's blocked-index formula.
template <typename T>
std::vector<T> stream_through(const std::vector<T>& src, const std::array<Dim, 4>& d) {
    std::vector<T> out;
    out.reserve(src.size());
    for (std::int64_t a = 0; a < d[0].size; ++a)
        for (std::int64_t b = 0; b < d[1].size; ++b)
            for (std::int64_t c = 0; c < d[2].size; ++c)
                for (std::int64_t e = 0; e < d[3].size; ++e)
                    out.push_back(src.at(static_cast<std::size_t>(a * d[0].stride + b * d[1].stride + c * d[2].stride +
                                                                  e * d[3].stride)));
    return out;
}

// single_core.py a_dims / b_dims (row-major source -> blocked stream) and c_dims (blocked -> row-major).
std::array<Dim, 4> a_dims(int m, int k, int r, int s) { return {{{m / r, r * k}, {k / s, s}, {r, k}, {s, 1}}}; }
std::array<Dim, 4> c_dims(int m, int n, int r, int t) { return {{{m / r, r * n}, {r, t}, {n / t, r * t}, {t, 1}}}; }

std::int64_t wrap_signed(std::int64_t v, int bits) {
    const std::int64_t mod = std::int64_t{1} << bits;
    std::int64_t x = v % mod;
    if (x < 0) x += mod;
    if (x >= mod / 2) x -= mod;
    return x;
}

template <typename T>
std::vector<T> random_ints(std::size_t n, std::int64_t lo, std::int64_t hi, std::uint32_t seed, bool edges) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::int64_t> dist(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(dist(rng));
    if (edges) {
        const T e[] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0), static_cast<T>(-1)};
        for (std::size_t i = 0; i < std::size(e); ++i) {
            v[i] = e[i];
            v[n - 1 - i] = e[i];
            v[n / 3 + i] = std::numeric_limits<T>::min(); // force int32 overflow in dot products
        }
    }
    return v;
}

template <typename T>
MatI64 to_eigen(const std::vector<T>& v, int rows, int cols) {
    MatI64 mtx(rows, cols);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            mtx(i, j) = v[static_cast<std::size_t>(i) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(j)];
    return mtx;
}

struct Shape {
    int m, k, n, r, s, t;
};

constexpr Shape kShapes[] = {{32, 32, 32, 4, 4, 4}, {32, 32, 32, 4, 4, 8}, {64, 64, 32, 4, 4, 4}};

} // namespace

TEST_CASE("to_blocked / from_blocked match the designs' dims_to_stream transforms", "[kernels][matmul][layout]") {
    for (const Shape& sh : kShapes) {
        INFO("m=" << sh.m << " k=" << sh.k << " n=" << sh.n << " r,s,t=" << sh.r << "," << sh.s << "," << sh.t);
        const auto A = random_ints<std::int16_t>(static_cast<std::size_t>(sh.m * sh.k), -30000, 30000, 1, false);
        const auto B = random_ints<std::int16_t>(static_cast<std::size_t>(sh.k * sh.n), -30000, 30000, 2, false);
        // A: a_dims over row-major A; B: b_dims = [(k/s, s*n), (n/t, t), (s, n), (t, 1)] is a_dims with (k, n, s, t)
        REQUIRE(to_blocked(A, sh.m, sh.k, sh.r, sh.s) == stream_through(A, a_dims(sh.m, sh.k, sh.r, sh.s)));
        REQUIRE(to_blocked(B, sh.k, sh.n, sh.s, sh.t) == stream_through(B, a_dims(sh.k, sh.n, sh.s, sh.t)));
        // C: c_dims over the blocked C gives row-major C
        const auto Cb = random_ints<std::int32_t>(static_cast<std::size_t>(sh.m * sh.n), -100000, 100000, 3, false);
        REQUIRE(from_blocked(Cb, sh.m, sh.n, sh.r, sh.t) == stream_through(Cb, c_dims(sh.m, sh.n, sh.r, sh.t)));
        // round trips
        REQUIRE(from_blocked(to_blocked(A, sh.m, sh.k, sh.r, sh.s), sh.m, sh.k, sh.r, sh.s) == A);
        REQUIRE(to_blocked(from_blocked(Cb, sh.m, sh.n, sh.r, sh.t), sh.m, sh.n, sh.r, sh.t) == Cb);
    }
    // explicit small example: 4x4 matrix, 2x2 blocks
    const std::vector<int> rm = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    REQUIRE(to_blocked(rm, 4, 4, 2, 2) == std::vector<int>{0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15});
    // raw-pointer form
    std::vector<int> blk(16), back(16);
    to_blocked(rm.data(), blk.data(), 4, 4, 2, 2);
    from_blocked(blk.data(), back.data(), 4, 4, 2, 2);
    REQUIRE(back == rm);
}

TEST_CASE("matmul_i16_i32: C += A*B with int32 wraparound equals an int64 Eigen golden", "[kernels][matmul]") {
    std::uint32_t seed = 10;
    for (const Shape& sh : kShapes) {
        for (bool full_range : {false, true}) {
            INFO("m=" << sh.m << " k=" << sh.k << " n=" << sh.n << " r,s,t=" << sh.r << "," << sh.s << "," << sh.t
                      << " full_range=" << full_range);
            // E6 golden range: integers(min/4, max/4); full range adds INT16_MIN/MAX and overflows int32
            const std::int64_t lo = full_range ? std::numeric_limits<std::int16_t>::min() : -8192;
            const std::int64_t hi = full_range ? std::numeric_limits<std::int16_t>::max() : 8191;
            const auto A = random_ints<std::int16_t>(static_cast<std::size_t>(sh.m * sh.k), lo, hi, seed++, full_range);
            const auto B = random_ints<std::int16_t>(static_cast<std::size_t>(sh.k * sh.n), lo, hi, seed++, full_range);
            const auto C0 = random_ints<std::int32_t>(static_cast<std::size_t>(sh.m * sh.n),
                                                      std::numeric_limits<std::int32_t>::min(),
                                                      std::numeric_limits<std::int32_t>::max(), seed++, full_range);

            auto Cb = to_blocked(C0, sh.m, sh.n, sh.r, sh.t);
            const auto Ab = to_blocked(A, sh.m, sh.k, sh.r, sh.s);
            const auto Bb = to_blocked(B, sh.k, sh.n, sh.s, sh.t);
            matmul_i16_i32(Ab.data(), Bb.data(), Cb.data(), sh.m, sh.k, sh.n, sh.r, sh.s, sh.t);
            const auto C = from_blocked(Cb, sh.m, sh.n, sh.r, sh.t);

            const MatI64 G = to_eigen(C0, sh.m, sh.n) + to_eigen(A, sh.m, sh.k) * to_eigen(B, sh.k, sh.n);
            bool overflowed = false;
            for (int i = 0; i < sh.m; ++i)
                for (int j = 0; j < sh.n; ++j) {
                    const std::int64_t g = G(i, j);
                    overflowed |= g != wrap_signed(g, 32);
                    REQUIRE(C[static_cast<std::size_t>(i * sh.n + j)] == wrap_signed(g, 32));
                }
            if (full_range) REQUIRE(overflowed); // the wraparound path was exercised
        }
    }
}

TEST_CASE("matmul_i16_i16: C += A*B with int16 wraparound", "[kernels][matmul]") {
    std::uint32_t seed = 50;
    for (const Shape& sh : kShapes) {
        INFO("m=" << sh.m << " k=" << sh.k << " n=" << sh.n << " r,s,t=" << sh.r << "," << sh.s << "," << sh.t);
        const auto A = random_ints<std::int16_t>(static_cast<std::size_t>(sh.m * sh.k), -32768, 32767, seed++, true);
        const auto B = random_ints<std::int16_t>(static_cast<std::size_t>(sh.k * sh.n), -32768, 32767, seed++, true);
        const auto C0 = random_ints<std::int16_t>(static_cast<std::size_t>(sh.m * sh.n), -32768, 32767, seed++, true);
        auto Cb = to_blocked(C0, sh.m, sh.n, sh.r, sh.t);
        matmul_i16_i16(to_blocked(A, sh.m, sh.k, sh.r, sh.s).data(), to_blocked(B, sh.k, sh.n, sh.s, sh.t).data(),
                       Cb.data(), sh.m, sh.k, sh.n, sh.r, sh.s, sh.t);
        const auto C = from_blocked(Cb, sh.m, sh.n, sh.r, sh.t);
        const MatI64 G = to_eigen(C0, sh.m, sh.n) + to_eigen(A, sh.m, sh.k) * to_eigen(B, sh.k, sh.n);
        for (int i = 0; i < sh.m; ++i)
            for (int j = 0; j < sh.n; ++j)
                REQUIRE(C[static_cast<std::size_t>(i * sh.n + j)] == wrap_signed(G(i, j), 16));
    }
    // small values (E7 golden style): no wraparound, exact
    const Shape sh{64, 64, 32, 4, 4, 4};
    const auto A = random_ints<std::int16_t>(64 * 64, -4, 4, 77, false);
    const auto B = random_ints<std::int16_t>(64 * 32, -4, 4, 78, false);
    std::vector<std::int16_t> Cb(64 * 32, 0);
    matmul_i16_i16(to_blocked(A, sh.m, sh.k, sh.r, sh.s).data(), to_blocked(B, sh.k, sh.n, sh.s, sh.t).data(),
                   Cb.data(), sh.m, sh.k, sh.n, sh.r, sh.s, sh.t);
    const auto C = from_blocked(Cb, sh.m, sh.n, sh.r, sh.t);
    const MatI64 G = to_eigen(A, 64, 64) * to_eigen(B, 64, 32);
    for (int i = 0; i < 64; ++i)
        for (int j = 0; j < 32; ++j) REQUIRE(C[static_cast<std::size_t>(i * 32 + j)] == G(i, j));
}

TEST_CASE("E6 worker pattern: zero C, then accumulate over K tiles", "[kernels][matmul]") {
    // C (32 x 32) = A (32 x 64) * B (64 x 32), computed as zero_i32 + two 32x32x32 k-steps.
    const int m = 32, K = 64, n = 32, k = 32, r = 4, s = 4, t = 4;
    const auto A = random_ints<std::int16_t>(static_cast<std::size_t>(m * K), -8192, 8191, 91, false);
    const auto B = random_ints<std::int16_t>(static_cast<std::size_t>(K * n), -8192, 8191, 92, false);
    std::vector<std::int32_t> Cb(static_cast<std::size_t>(m * n), 0x7777);
    zero_i32(Cb.data(), m, n);
    for (int step = 0; step < K / k; ++step) {
        std::vector<std::int16_t> At(static_cast<std::size_t>(m * k)), Bt(static_cast<std::size_t>(k * n));
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < k; ++j)
                At[static_cast<std::size_t>(i * k + j)] = A[static_cast<std::size_t>(i * K + step * k + j)];
        for (int i = 0; i < k; ++i)
            for (int j = 0; j < n; ++j)
                Bt[static_cast<std::size_t>(i * n + j)] = B[static_cast<std::size_t>((step * k + i) * n + j)];
        matmul_i16_i32(to_blocked(At, m, k, r, s).data(), to_blocked(Bt, k, n, s, t).data(), Cb.data(), m, k, n, r, s,
                       t);
    }
    const auto C = from_blocked(Cb, m, n, r, t);
    const MatI64 G = to_eigen(A, m, K) * to_eigen(B, K, n);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) REQUIRE(C[static_cast<std::size_t>(i * n + j)] == wrap_signed(G(i, j), 32));
}

TEST_CASE("matmul preconditions throw std::invalid_argument", "[kernels][matmul]") {
    std::vector<std::int16_t> A(64 * 64, 1), B(64 * 64, 1);
    std::vector<std::int32_t> C(64 * 64, 5);
    std::vector<std::int16_t> C16(64 * 64, 5);
    auto mm = [&](int m, int k, int n, int r, int s, int t) {
        matmul_i16_i32(A.data(), B.data(), C.data(), m, k, n, r, s, t);
    };
    REQUIRE_INVALID(mm(30, 32, 32, 4, 4, 4), "m must be a multiple of 4");
    REQUIRE_INVALID(mm(32, 30, 32, 4, 4, 4), "k must be a multiple of 4");
    REQUIRE_INVALID(mm(32, 32, 36, 4, 4, 8), "n must be a multiple of 8");
    REQUIRE_INVALID(mm(12, 32, 32, 4, 4, 4), "m / r must be a multiple of 2"); // 3 block rows
    REQUIRE_INVALID(mm(32, 32, 24, 4, 4, 8), "n / t must be a multiple of 2"); // 3 block columns
    REQUIRE_INVALID(mm(0, 32, 32, 4, 4, 4), "m must be > 0");
    REQUIRE_INVALID(mm(32, -4, 32, 4, 4, 4), "k must be > 0");
    REQUIRE_INVALID(mm(32, 32, 32, 0, 4, 4), "r must be > 0");
    REQUIRE_INVALID(mm(32, 32, 32, 4, -4, 4), "s must be > 0");
    REQUIRE_INVALID(matmul_i16_i32(nullptr, B.data(), C.data(), 32, 32, 32, 4, 4, 4), "'A' is null");
    REQUIRE_INVALID(matmul_i16_i16(A.data(), nullptr, C16.data(), 32, 32, 32, 4, 4, 4), "'B' is null");
    REQUIRE_INVALID(matmul_i16_i16(A.data(), B.data(), nullptr, 32, 32, 32, 4, 4, 4), "'C' is null");
    REQUIRE_INVALID(matmul_i16_i16(A.data(), B.data(), C16.data(), 30, 32, 32, 4, 4, 4), "m must be a multiple of 4");
    for (auto x : C) REQUIRE(x == 5);
    for (auto x : C16) REQUIRE(x == 5);
    REQUIRE_THROWS_WITH(mm(30, 32, 32, 4, 4, 4), Catch::Matchers::StartsWith("matmul_i16_i32: "));

    std::vector<int> src(12), dst(12);
    REQUIRE_INVALID(to_blocked(src.data(), dst.data(), 3, 4, 2, 2), "rows must be a multiple of 2");
    REQUIRE_INVALID(from_blocked(src.data(), dst.data(), 4, 3, 2, 2), "cols must be a multiple of 2");
    REQUIRE_INVALID(to_blocked(src.data(), dst.data(), 4, 3, 0, 1), "block_rows must be > 0");
    REQUIRE_INVALID(to_blocked<int>(nullptr, dst.data(), 2, 2, 1, 1), "'src' is null");
    REQUIRE_INVALID(to_blocked(src, 4, 4, 2, 2), "expected rows * cols = 16");
    REQUIRE_INVALID(from_blocked(src, 2, 2, 1, 1), "expected rows * cols = 4");
}

TEST_CASE("matmul cost: mm.cc's loop nest reproduces the measured bf16 call and never beats the matrix unit",
          "[kernels][matmul][cost]") {
    // [HW] row 8: bf16 64^3 on AIE2 (4x8x4 mmul, 4x4 expansion, bf16 out), 2,535 cycles event0 ->
    // event1 of which 8 are the call overhead the simulator adds: 16 outer iterations x (8 inner x
    // 16 mmuls + 13 fill + 16 C stores + 1 control) = 2,528.
    const MatmulLoop bf16_aie2 = mm_cc_loop(false, MmInput::bf16, 2, 128);
    CHECK(bf16_aie2.row_blocks == 4);
    CHECK(bf16_aie2.col_blocks == 4);
    const auto parts = matmul_cycle_parts(64, 64, 64, bf16_aie2);
    CHECK(parts.steady == 2048); // 262,144 MACs / 128
    CHECK(parts.fill_drain == 16 * (13 + 16 + 1));
    CHECK(matmul_cycles(64, 64, 64, bf16_aie2) + kKernelCallOverheadCycles == 2536);
    // i16 -> i32 on AIE2 (4x4x4, 2x2 expansion): 64 outer x (16 x 4 + 13 + 8 + 1)
    const MatmulLoop i16_aie2 = mm_cc_loop(false, MmInput::i16, 4, 64);
    CHECK(matmul_cycles(64, 64, 64, i16_aie2) == 64 * (16 * 4 + 22));
    // 32^3: the fill and stores weigh more on a smaller call (16 outer x (8 x 4 + 22) = 864, 59 %
    // of peak), which a flat MACs / (peak x efficiency) model misses.
    CHECK(matmul_cycles(32, 32, 32, i16_aie2) == 864);
    // AIE2P i8 (8x8x8, 2x2) into i8: 16 outer x (8 x 4 + 13 + 8 + 1)
    CHECK(matmul_cycles(64, 64, 64, mm_cc_loop(true, MmInput::i8, 1, 512)) == 16 * 54);
    CHECK(matmul_cycles(0, 64, 64, i16_aie2) == 0);
    // never more than peak MACs per cycle, at any size, type and generation; the steady state is
    // exactly MACs / peak
    for (bool p : {false, true})
        for (auto [in, peak] : {std::pair{MmInput::i8, 256.0}, {MmInput::i16, 64.0}, {MmInput::bf16, 128.0}})
            for (int out_bytes : {1, 2, 4})
                for (int sz : {16, 32, 64, 128, 256}) {
                    const auto loop = mm_cc_loop(p, in, out_bytes, p ? 2 * peak : peak);
                    const double macs = double(sz) * sz * sz;
                    CHECK(macs / static_cast<double>(matmul_cycles(sz, sz, sz, loop)) < loop.peak_macs_per_cycle);
                    CHECK(static_cast<double>(matmul_cycle_parts(sz, sz, sz, loop).steady) ==
                          macs / loop.peak_macs_per_cycle);
                }
    REQUIRE_INVALID(matmul_cycles(-1, 64, 64, i16_aie2), ">= 0");
    REQUIRE_INVALID(matmul_cycles(64, 64, 64, MatmulLoop{4, 4, 4, 2, 2, 0, 4}), "the peak must be positive");
    REQUIRE_INVALID(matmul_cycles(64, 64, 64, MatmulLoop{4, 4, 4, 0, 2, 64, 4}), "row_blocks must be > 0");
}

TEST_CASE("matmul_i8_{i8,i16,i32}: C += A*B kept to the low 8 / 16 / 32 bits (no saturation)", "[kernels][matmul]") {
    // AIE2P i8 8x8x8 blocks; m = 16, k = 64, n = 16. Products up to 127 * 127, 64 of them: 1,032,256
    // overflows int8 and int16, so truncation (not saturation) is visible.
    constexpr int m = 16, k = 64, n = 16, r = 8, s = 8, t = 8;
    std::vector<std::int8_t> A(m * k, 127), B(k * n, 127);
    A[3] = -128;
    const auto Ab = to_blocked(A, m, k, r, s), Bb = to_blocked(B, k, n, s, t);
    std::vector<std::int64_t> want(m * n, 0);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            for (int q = 0; q < k; ++q) want[i * n + j] += std::int64_t{A[i * k + q]} * B[q * n + j];
    std::vector<std::int8_t> c8(m * n, 5);
    std::vector<std::int16_t> c16(m * n, 5);
    std::vector<std::int32_t> c32(m * n, 5);
    matmul_i8_i8(Ab.data(), Bb.data(), c8.data(), m, k, n, r, s, t);
    matmul_i8_i16(Ab.data(), Bb.data(), c16.data(), m, k, n, r, s, t);
    matmul_i8_i32(Ab.data(), Bb.data(), c32.data(), m, k, n, r, s, t);
    const auto g8 = from_blocked(c8, m, n, r, t);
    const auto g16 = from_blocked(c16, m, n, r, t);
    const auto g32 = from_blocked(c32, m, n, r, t);
    for (int i = 0; i < m * n; ++i) {
        INFO(i);
        CHECK(g8[i] == static_cast<std::int8_t>(want[i] + 5));
        CHECK(g16[i] == static_cast<std::int16_t>(want[i] + 5));
        CHECK(g32[i] == static_cast<std::int32_t>(want[i] + 5));
    }
    CHECK(g32[0] == 63 * 127 * 127 - 128 * 127 + 5); // row 0 has A[3] = -128
}

TEST_CASE("matmul_bf16_f32 / matmul_bf16_bf16: fp32 accumulation, bf16 rounded to nearest even per call",
          "[kernels][matmul]") {
    // AIE2 bf16 4x8x4 blocks; m = 8, k = 8, n = 8.
    constexpr int m = 8, k = 8, n = 8, r = 4, s = 8, t = 4;
    std::vector<npusim::bfloat16> A(m * k, npusim::bfloat16(1.0f)), B(k * n, npusim::bfloat16(1.0f));
    A[0] = npusim::bfloat16(0.5f);
    const auto Ab = to_blocked(A, m, k, r, s), Bb = to_blocked(B, k, n, s, t);
    std::vector<float> cf(m * n, 256.0f);
    matmul_bf16_f32(Ab.data(), Bb.data(), cf.data(), m, k, n, r, s, t);
    const auto gf = from_blocked(cf, m, n, r, t);
    CHECK(gf[0] == 263.5f); // 256 + 7.5: exact in fp32
    CHECK(gf[1] == 263.5f);
    CHECK(gf[n] == 264.0f);
    // bf16 C (step 2 from 256 up): 256 + 7.5 = 263.5 rounds to 264; 256 + 8 = 264 exactly.
    std::vector<npusim::bfloat16> cb(m * n, npusim::bfloat16(256.0f));
    matmul_bf16_bf16(Ab.data(), Bb.data(), cb.data(), m, k, n, r, s, t);
    auto gb = from_blocked(cb, m, n, r, t);
    CHECK(float(gb[0]) == 264.0f);
    CHECK(float(gb[n]) == 264.0f);
    // a tie: 256 + 1 = 257 lies between 256 and 258; ties to even gives 256
    std::vector<npusim::bfloat16> A1(m * k, npusim::bfloat16(0.0f));
    for (int i = 0; i < m; ++i) A1[i * k] = npusim::bfloat16(1.0f);
    const auto A1b = to_blocked(A1, m, k, r, s);
    std::vector<npusim::bfloat16> ct(m * n, npusim::bfloat16(256.0f));
    matmul_bf16_bf16(A1b.data(), Bb.data(), ct.data(), m, k, n, r, s, t);
    CHECK(float(from_blocked(ct, m, n, r, t)[0]) == 256.0f);
    std::vector<npusim::bfloat16> cu(m * n, npusim::bfloat16(258.0f));
    matmul_bf16_bf16(A1b.data(), Bb.data(), cu.data(), m, k, n, r, s, t);
    CHECK(float(from_blocked(cu, m, n, r, t)[0]) == 260.0f); // 259: tie between 258 and 260, even mantissa 260
}

TEST_CASE("zero_i8 / zero_bf16 / zero_f32", "[kernels][zero]") {
    std::vector<std::int8_t> a(64, 3);
    zero_i8(a.data(), 8, 8);
    CHECK(std::all_of(a.begin(), a.end(), [](auto x) { return x == 0; }));
    std::vector<npusim::bfloat16> b(32, npusim::bfloat16(2.0f));
    zero_bf16(b.data(), 4, 8);
    CHECK(std::all_of(b.begin(), b.end(), [](auto x) { return x.bits == 0; }));
    std::vector<float> f(16, 2.0f);
    zero_f32(f.data(), 4, 4);
    CHECK(std::all_of(f.begin(), f.end(), [](auto x) { return x == 0.0f; }));
    REQUIRE_INVALID(zero_i8(a.data(), 4, 4), "zero_i8");
}

TEST_CASE("matmul_bf16_f32 / matmul_bf16_bf16: each K block of s products is summed from zero, then added to C",
          "[kernels][matmul]") {
    // One mmul mac adds its block sum to the lane (the host layer's order). C = 2^24 and eight
    // products of 1 in one block (s = 8): the block sum 8 is exact and 2^24 + 8 is a float. Adding
    // the products to C one by one in k order would lose each 1 (2^24 + 1 ties to even, 2^24).
    constexpr int m = 8, k = 16, n = 8, r = 4, s = 8, t = 4;
    std::vector<npusim::bfloat16> A(m * k, npusim::bfloat16(1.0f)), B(k * n, npusim::bfloat16(1.0f));
    const auto Ab = to_blocked(A, m, k, r, s), Bb = to_blocked(B, k, n, s, t);
    std::vector<float> cf(m * n, 0x1.0p24f);
    matmul_bf16_f32(Ab.data(), Bb.data(), cf.data(), m, k, n, r, s, t);
    for (float x : cf) CHECK(x == 0x1.0p24f + 16.0f); // two blocks of 8
    // Independent of the grouping inside a block: an arbitrary operand set against a plain loop
    // written with the same rule (per element: C, then one fp32 block sum per s).
    std::mt19937 rng(21);
    std::uniform_int_distribution<int> bits(0, 0xFFFF);
    for (auto* v : {&A, &B})
        for (auto& x : *v) x = npusim::bfloat16::from_bits(static_cast<std::uint16_t>((bits(rng) & 0x807F) | ((118 + bits(rng) % 18) << 7)));
    std::vector<float> c0(m * n);
    for (auto& x : c0) x = float(npusim::bfloat16::from_bits(static_cast<std::uint16_t>((bits(rng) & 0x807F) | (130 << 7))));
    const auto Ab2 = to_blocked(A, m, k, r, s), Bb2 = to_blocked(B, k, n, s, t);
    auto got = to_blocked(c0, m, n, r, t);
    matmul_bf16_f32(Ab2.data(), Bb2.data(), got.data(), m, k, n, r, s, t);
    std::vector<npusim::bfloat16> c0b(c0.begin(), c0.end());
    auto gotb = to_blocked(c0b, m, n, r, t);
    matmul_bf16_bf16(Ab2.data(), Bb2.data(), gotb.data(), m, k, n, r, s, t);
    const auto g = from_blocked(got, m, n, r, t);
    const auto gb = from_blocked(gotb, m, n, r, t);
    int order_matters = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float lane = c0[i * n + j], korder = c0[i * n + j];
            for (int kb = 0; kb < k / s; ++kb) {
                float block = 0.0f;
                for (int q = kb * s; q < (kb + 1) * s; ++q) {
                    const float p = float(A[i * k + q]) * float(B[q * n + j]);
                    block += p;
                    korder += p;
                }
                lane += block;
            }
            INFO(i << "," << j);
            CHECK(g[i * n + j] == lane);
            CHECK(gb[i * n + j].bits == npusim::bfloat16(lane).bits);
            order_matters += korder != lane;
        }
    CHECK(order_matters > 0); // the operands are such that the k-order sum differs somewhere
}

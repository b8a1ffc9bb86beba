// The project's AIE-API kernel sources (kernels_ref/aie) against scalar references written plainly
// here, independent of the AIE-API layer: bit for bit for integers, within the stated tolerance for bf16.
// Inputs are randomized and include edge values (saturation, rounding ties, negative values/shifts).
#include <npusim/aie_kernels.hpp>

#include <aie_api/aie.hpp> // only for resetting / scrambling the core modes

#include "AieTestData.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace k = npusim::aie_kernels;
using npusim::bfloat16;
using namespace npusim::test::aie_test_data;

namespace {

std::vector<bfloat16> random_bf16(std::size_t n, std::mt19937& rng, float lo, float hi) {
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<bfloat16> v(n);
    for (auto& x : v) x = bfloat16(d(rng));
    return v;
}

template <typename T>
T wrap(std::int64_t v) {
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<std::uint64_t>(v)));
}

std::int8_t clamp_i8(std::int64_t v) { return static_cast<std::int8_t>(std::clamp<std::int64_t>(v, -128, 127)); }

// Row-major m x k matrix -> blocked layout of r x s blocks (blocks row-major, each block row-major).
template <typename T>
std::vector<T> to_blocked(const std::vector<T>& rm, int rows, int cols, int br, int bc) {
    std::vector<T> out(rm.size());
    std::size_t o = 0;
    for (int bi = 0; bi < rows / br; ++bi)
        for (int bj = 0; bj < cols / bc; ++bj)
            for (int i = 0; i < br; ++i)
                for (int j = 0; j < bc; ++j)
                    out[o++] = rm[static_cast<std::size_t>((bi * br + i) * cols + bj * bc + j)];
    return out;
}

} // namespace

// ---------------------------------------------------------------------------------------------------
TEST_CASE("aie passThroughLine copies u8 / i16 / i32 lines", "[aie_kernels][passthrough]") {
    std::mt19937 rng(1);
    for (int n : {64, 1024, 4096}) {
        auto a8 = random_ints<std::uint8_t>(static_cast<std::size_t>(n), rng);
        std::vector<std::uint8_t> o8(a8.size(), 0xAA);
        k::passThroughLine(a8.data(), o8.data(), n);
        CHECK(o8 == a8);
        auto a16 = random_ints<std::int16_t>(static_cast<std::size_t>(n), rng);
        std::vector<std::int16_t> o16(a16.size());
        k::passThroughLine(a16.data(), o16.data(), n);
        CHECK(o16 == a16);
        auto a32 = random_ints<std::int32_t>(static_cast<std::size_t>(n), rng);
        std::vector<std::int32_t> o32(a32.size());
        k::passThroughLine(a32.data(), o32.data(), n);
        CHECK(o32 == a32);
    }
}

TEST_CASE("aie vector_scalar_mul wraps like numpy astype", "[aie_kernels][scale]") {
    std::mt19937 rng(2);
    const std::int32_t factors[] = {3,
                                    -1,
                                    0,
                                    1,
                                    32767,
                                    -32768,
                                    12345,
                                    -70000,
                                    std::numeric_limits<std::int32_t>::max(),
                                    std::numeric_limits<std::int32_t>::min()};
    for (std::int32_t f : factors) {
        INFO("factor " << f);
        auto a16 = random_ints<std::int16_t>(4096, rng);
        std::vector<std::int16_t> o16(a16.size());
        scramble_modes();
        k::vector_scalar_mul_i16(a16.data(), o16.data(), &f, 4096);
        const auto f16 = static_cast<std::int16_t>(f);
        for (std::size_t i = 0; i < a16.size(); ++i) REQUIRE(o16[i] == wrap<std::int16_t>(std::int64_t{a16[i]} * f16));
        std::vector<std::int16_t> s16(a16.size());
        k::vector_scalar_mul_i16_scalar(a16.data(), s16.data(), &f, 4096);
        CHECK(s16 == o16);

        auto a32 = random_ints<std::int32_t>(1024, rng);
        std::vector<std::int32_t> o32(a32.size());
        scramble_modes();
        k::vector_scalar_mul_i32(a32.data(), o32.data(), &f, 1024);
        for (std::size_t i = 0; i < a32.size(); ++i) REQUIRE(o32[i] == wrap<std::int32_t>(std::int64_t{a32[i]} * f));
        std::vector<std::int32_t> s32(a32.size());
        k::vector_scalar_mul_i32_scalar(a32.data(), s32.data(), &f, 1024);
        CHECK(s32 == o32);
    }
}

TEST_CASE("aie reduce_max over i32 and bf16", "[aie_kernels][reduce_max]") {
    std::mt19937 rng(3);
    for (int n : {16, 128, 512, 2048, 4096}) {
        for (int trial = 0; trial < 20; ++trial) {
            std::vector<std::int32_t> in(static_cast<std::size_t>(n));
            std::uniform_int_distribution<std::int32_t> d(-1000, 999);
            for (auto& x : in) x = d(rng);
            if (trial == 1) std::fill(in.begin(), in.end(), std::numeric_limits<std::int32_t>::min());
            if (trial == 2)
                in[static_cast<std::size_t>(rng() % static_cast<unsigned>(n))] =
                    std::numeric_limits<std::int32_t>::max();
            if (trial == 3) in.back() = 5000;
            std::int32_t expect = in[0];
            for (auto x : in) expect = x > expect ? x : expect;
            std::int32_t got = 0;
            k::reduce_max_vector(in.data(), &got, n);
            REQUIRE(got == expect);
            std::int32_t got_scalar = 0;
            k::reduce_max_scalar(in.data(), &got_scalar, n);
            REQUIRE(got_scalar == expect);
        }
        if (n % 32 != 0) continue;
        for (int trial = 0; trial < 20; ++trial) {
            auto in = random_bf16(static_cast<std::size_t>(n), rng, -100.0f, trial % 2 ? 100.0f : -1.0f);
            if (trial == 4) in[static_cast<std::size_t>(n / 2)] = bfloat16::from_bits(0x7F80); // +inf
            float expect = float(in[0]);
            for (auto x : in) expect = float(x) > expect ? float(x) : expect;
            bfloat16 got;
            k::reduce_max_vector_bfloat16(in.data(), &got, n);
            REQUIRE(float(got) == expect); // a maximum is an input value: exact
            bfloat16 got_scalar;
            k::reduce_max_scalar_bfloat16(in.data(), &got_scalar, n);
            REQUIRE(float(got_scalar) == expect);
        }
    }
    std::int32_t a = -5, b = 7, c = 0;
    k::compute_max(&a, &b, &c);
    CHECK(c == 7);
}

TEST_CASE("aie mm: blocked i8 matmul (4x8x8 / 8x8x8), C += A*B, wrapping to i8 / i16 / i32", "[aie_kernels][mm]") {
    std::mt19937 rng(8);
    constexpr int m = 16, kk = 64, n = 16;
    for (k::MacDims dims : {k::MacDims::aie2, k::MacDims::aie2p}) {
        const int r = dims == k::MacDims::aie2 ? 4 : 8, s = 8, t = 8;
        INFO("dims " << static_cast<int>(dims));
        const auto A = random_ints<std::int8_t>(m * kk, rng), B = random_ints<std::int8_t>(kk * n, rng);
        const auto C8 = random_ints<std::int8_t>(m * n, rng);
        const auto C16 = random_ints<std::int16_t>(m * n, rng);
        const auto C32 = random_ints<std::int32_t>(m * n, rng);
        std::vector<std::int8_t> ref8(m * n);
        std::vector<std::int16_t> ref16(m * n);
        std::vector<std::int32_t> ref32(m * n);
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) {
                std::int64_t sum = 0;
                for (int q = 0; q < kk; ++q) sum += std::int64_t{A[i * kk + q]} * B[q * n + j];
                ref8[i * n + j] = wrap<std::int8_t>(sum + C8[i * n + j]);
                ref16[i * n + j] = wrap<std::int16_t>(sum + C16[i * n + j]);
                ref32[i * n + j] = wrap<std::int32_t>(sum + C32[i * n + j]);
            }
        const auto Ab = to_blocked(A, m, kk, r, s), Bb = to_blocked(B, kk, n, s, t);
        auto Cb8 = to_blocked(C8, m, n, r, t);
        auto Cb16 = to_blocked(C16, m, n, r, t);
        auto Cb32 = to_blocked(C32, m, n, r, t);
        scramble_modes();
        k::matmul_i8_i8(Ab.data(), Bb.data(), Cb8.data(), m, kk, n, dims);
        scramble_modes();
        k::matmul_i8_i16(Ab.data(), Bb.data(), Cb16.data(), m, kk, n, dims);
        scramble_modes();
        k::matmul_i8_i32(Ab.data(), Bb.data(), Cb32.data(), m, kk, n, dims);
        CHECK(Cb8 == to_blocked(ref8, m, n, r, t));
        CHECK(Cb16 == to_blocked(ref16, m, n, r, t));
        CHECK(Cb32 == to_blocked(ref32, m, n, r, t));
    }
    std::vector<std::int8_t> z(64, 5);
    k::zero_i8(z.data(), 64);
    CHECK(std::all_of(z.begin(), z.end(), [](std::int8_t v) { return v == 0; }));
}

TEST_CASE("aie mm: blocked bf16 matmul (4x8x4 / 4x8x8) to f32 (fp32 sums) and bf16 (nearest even)",
          "[aie_kernels][mm]") {
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> d(-4.0f, 4.0f);
    constexpr int m = 16, kk = 32, n = 16;
    for (k::MacDims dims : {k::MacDims::aie2, k::MacDims::aie2p}) {
        const int r = 4, s = 8, t = dims == k::MacDims::aie2 ? 4 : 8;
        INFO("dims " << static_cast<int>(dims));
        std::vector<bfloat16> A(m * kk), B(kk * n), Cb(m * n);
        std::vector<float> Cf(m * n);
        for (auto& x : A) x = bfloat16(d(rng));
        for (auto& x : B) x = bfloat16(d(rng));
        for (int i = 0; i < m * n; ++i) Cb[i] = bfloat16(d(rng)), Cf[i] = float(Cb[i]);
        std::vector<double> exact(m * n);
        std::vector<float> blocked(m * n); // the host layer's order: C, then one fp32 sum of s products per mac
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) {
                double sum = float(Cb[i * n + j]);
                for (int q = 0; q < kk; ++q) sum += double(float(A[i * kk + q])) * double(float(B[q * n + j]));
                exact[i * n + j] = sum;
                float lane = float(Cb[i * n + j]);
                for (int q0 = 0; q0 < kk; q0 += s) {
                    float part = 0.0f;
                    for (int q = q0; q < q0 + s; ++q) part += float(A[i * kk + q]) * float(B[q * n + j]);
                    lane += part;
                }
                blocked[i * n + j] = lane;
            }
        const auto Ab = to_blocked(A, m, kk, r, s), Bb = to_blocked(B, kk, n, s, t);
        auto Gf = to_blocked(Cf, m, n, r, t);
        auto Gb = to_blocked(Cb, m, n, r, t);
        scramble_modes();
        k::matmul_bf16_f32(Ab.data(), Bb.data(), Gf.data(), m, kk, n, dims);
        scramble_modes();
        const auto mode_before = aie::get_rounding();
        k::matmul_bf16_bf16(Ab.data(), Bb.data(), Gb.data(), m, kk, n, dims);
        CHECK(aie::get_rounding() == mode_before); // the kernel restores the caller's mode
        const auto ef = to_blocked(exact, m, n, r, t);
        const auto bf = to_blocked(blocked, m, n, r, t);
        for (int i = 0; i < m * n; ++i) {
            INFO(i);
            CHECK(Gf[i] == bf[i]); // bit for bit in the mmul order
            CHECK(Gb[i].bits == bfloat16(bf[i]).bits);
        }
        for (int i = 0; i < m * n; ++i) {
            INFO(i << ": exact " << ef[i] << " f32 " << Gf[i] << " bf16 " << float(Gb[i]));
            // fp32 sums of 33 terms of magnitude <= 16: within 33 * 2^-24 * 16 * 33
            CHECK(std::abs(double(Gf[i]) - ef[i]) <= 33 * 16 * 33 * 0x1.0p-24);
            // the same fp32 sums, rounded to bf16 to nearest even whatever the caller's mode
            CHECK(Gb[i].bits == bfloat16(Gf[i]).bits);
        }
    }
    std::vector<bfloat16> zb(32, bfloat16(1.0f));
    k::zero_bf16(zb.data(), 32);
    CHECK(std::all_of(zb.begin(), zb.end(), [](bfloat16 v) { return v.bits == 0; }));
    std::vector<float> zf(32, 1.0f);
    k::zero_f32(zf.data(), 32);
    CHECK(std::all_of(zf.begin(), zf.end(), [](float v) { return v == 0.0f; }));
}

TEST_CASE("aie mm: blocked i16 matmul, C += A*B, wrapping to i32 / i16", "[aie_kernels][mm]") {
    std::mt19937 rng(4);
    struct Shape {
        int m, k, n;
    };
    const Shape shapes[] = {{32, 32, 32}, {64, 64, 32}, {8, 16, 16}, {4, 4, 8}, {12, 8, 24}, {16, 32, 8}};
    for (k::MacDims dims : {k::MacDims::aie2, k::MacDims::aie2p}) {
        const int r = 4, s = 4, t = dims == k::MacDims::aie2 ? 4 : 8;
        for (const Shape& sh : shapes) {
            if (sh.n % t != 0) continue;
            for (int trial = 0; trial < 3; ++trial) {
                INFO("dims " << static_cast<int>(dims) << " m,k,n = " << sh.m << "," << sh.k << "," << sh.n << " trial "
                             << trial);
                const auto M = static_cast<std::size_t>(sh.m), K = static_cast<std::size_t>(sh.k),
                           N = static_cast<std::size_t>(sh.n);
                std::vector<std::int16_t> A(M * K), B(K * N);
                if (trial == 0) { // E6 golden style: values in [min/4, max/4)
                    std::uniform_int_distribution<int> d(-8192, 8191);
                    for (auto& x : A) x = static_cast<std::int16_t>(d(rng));
                    for (auto& x : B) x = static_cast<std::int16_t>(d(rng));
                } else { // full range incl. -32768 (overflowing the 32-bit accumulator)
                    A = random_ints<std::int16_t>(M * K, rng);
                    B = random_ints<std::int16_t>(K * N, rng);
                    if (trial == 2) {
                        std::fill(A.begin(), A.end(), std::int16_t{-32768});
                        std::fill(B.begin(), B.end(), std::int16_t{-32768});
                    }
                }
                auto C32 = random_ints<std::int32_t>(M * N, rng);
                auto C16 = random_ints<std::int16_t>(M * N, rng);
                // reference: int64 sums, wrapped
                std::vector<std::int32_t> ref32(M * N);
                std::vector<std::int16_t> ref16(M * N);
                for (std::size_t i = 0; i < M; ++i)
                    for (std::size_t j = 0; j < N; ++j) {
                        std::int64_t sum = 0;
                        for (std::size_t q = 0; q < K; ++q) sum += std::int64_t{A[i * K + q]} * B[q * N + j];
                        ref32[i * N + j] = wrap<std::int32_t>(sum + C32[i * N + j]);
                        ref16[i * N + j] = wrap<std::int16_t>(sum + C16[i * N + j]);
                    }
                const auto Ab = to_blocked(A, sh.m, sh.k, r, s);
                const auto Bb = to_blocked(B, sh.k, sh.n, s, t);
                auto Cb32 = to_blocked(C32, sh.m, sh.n, r, t);
                auto Cb16 = to_blocked(C16, sh.m, sh.n, r, t);
                scramble_modes();
                k::matmul_i16_i32(Ab.data(), Bb.data(), Cb32.data(), sh.m, sh.k, sh.n, dims);
                scramble_modes();
                k::matmul_i16_i16(Ab.data(), Bb.data(), Cb16.data(), sh.m, sh.k, sh.n, dims);
                REQUIRE(Cb32 == to_blocked(ref32, sh.m, sh.n, r, t));
                REQUIRE(Cb16 == to_blocked(ref16, sh.m, sh.n, r, t));
                // row-major scalar twins
                auto S32 = C32;
                auto S16 = C16;
                k::matmul_scalar_i16_i32(A.data(), B.data(), S32.data(), sh.m, sh.k, sh.n);
                k::matmul_scalar_i16_i16(A.data(), B.data(), S16.data(), sh.m, sh.k, sh.n);
                REQUIRE(S32 == ref32);
                REQUIRE(S16 == ref16);
            }
        }
    }
    std::vector<std::int32_t> z(1024, 5);
    k::zero_i32(z.data(), 1024);
    CHECK(std::all_of(z.begin(), z.end(), [](std::int32_t v) { return v == 0; }));
    std::vector<std::int16_t> z16(40, 5);
    k::zero_i16(z16.data(), 40);
    CHECK(std::all_of(z16.begin(), z16.end(), [](std::int16_t v) { return v == 0; }));
}

TEST_CASE("aie row_wise_bias_add f32", "[aie_kernels][bias]") {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> d(-1e4f, 1e4f);
    for (auto [m, n] : {std::pair{96, 32}, std::pair{8, 64}, std::pair{1, 32}}) {
        std::vector<float> in(static_cast<std::size_t>(m * n)), bias(static_cast<std::size_t>(n)), out(in.size());
        for (auto& x : in) x = d(rng);
        for (auto& x : bias) x = d(rng);
        k::row_wise_bias_add_f32_f32(in.data(), bias.data(), out.data(), m, n);
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j)
                REQUIRE(out[static_cast<std::size_t>(i * n + j)] ==
                        in[static_cast<std::size_t>(i * n + j)] + bias[static_cast<std::size_t>(j)]);
    }
    // E9 golden: in = arange, bias = 3 * arange(N)
    const int m = 96, n = 32;
    std::vector<float> in(m * n), bias(n), out(m * n);
    for (int i = 0; i < m * n; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i);
    for (int j = 0; j < n; ++j) bias[static_cast<std::size_t>(j)] = 3.0f * static_cast<float>(j);
    k::row_wise_bias_add_f32_f32(in.data(), bias.data(), out.data(), m, n);
    CHECK(out[static_cast<std::size_t>(5 * n + 7)] == static_cast<float>(5 * n + 7 + 21));
}

TEST_CASE("aie bf16_relu", "[aie_kernels][relu]") {
    std::mt19937 rng(6);
    auto in = random_bf16(1024, rng, -3.0f, 3.0f);
    in[0] = bfloat16::from_bits(0x8000); // -0
    in[1] = bfloat16::from_bits(0xFF80); // -inf
    in[2] = bfloat16::from_bits(0x7F80); // +inf
    in[3] = bfloat16::from_bits(0x0001); // smallest denormal
    std::vector<bfloat16> out(in.size());
    k::bf16_relu(in.data(), out.data(), 1024);
    for (std::size_t i = 0; i < in.size(); ++i) {
        const float x = bfloat16::to_float(in[i].bits);
        const float expect = x > 0.0f ? x : 0.0f;
        REQUIRE(bfloat16::to_float(out[i].bits) == expect); // exact (E13 golden: max(x, 0))
    }
}

TEST_CASE("aie eltwise add / mul bf16 within one bf16 rounding", "[aie_kernels][eltwise]") {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 4; ++trial) {
        auto a = random_bf16(1024, rng, -50.0f, 50.0f);
        auto b = random_bf16(1024, rng, trial == 3 ? -1e-3f : -50.0f, trial == 3 ? 1e-3f : 50.0f);
        a[0] = bfloat16(1.0f); // 1 + 2^-8: an exact tie of the bf16 rounding
        b[0] = bfloat16(std::ldexp(1.0f, -8));
        a[1] = bfloat16(1.0078125f); // tie towards an odd significand
        b[1] = bfloat16(std::ldexp(1.0f, -8));
        std::vector<bfloat16> add(a.size()), mul(a.size());
        scramble_modes();
        k::eltwise_add_bf16_vector(a.data(), b.data(), add.data(), 1024);
        scramble_modes();
        k::eltwise_mul_bf16_vector(a.data(), b.data(), mul.data(), 1024);
        std::size_t add_exact = 0, mul_exact = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const double x = bfloat16::to_float(a[i].bits), y = bfloat16::to_float(b[i].bits);
            // Reference: exact result, then the stated tolerance of one bf16 rounding (2^-8 relative).
            const double sum = x + y, prod = x * y;
            const double got_add = bfloat16::to_float(add[i].bits), got_mul = bfloat16::to_float(mul[i].bits);
            REQUIRE(std::abs(got_add - sum) <= std::ldexp(std::abs(sum), -8) + 1e-30);
            REQUIRE(std::abs(got_mul - prod) <= std::ldexp(std::abs(prod), -8) + 1e-30);
            // Stronger: the kernels round to nearest even, so they equal numpy-style bf16(float(x) op float(y)).
            add_exact += add[i].bits == bfloat16(static_cast<float>(x) + static_cast<float>(y)).bits;
            mul_exact += mul[i].bits == bfloat16(static_cast<float>(x) * static_cast<float>(y)).bits;
        }
        CHECK(add_exact == a.size());
        CHECK(mul_exact == a.size());
        CHECK(add[0].bits == 0x3F80); // tie -> even
        CHECK(add[1].bits == 0x3F82);
    }
}

TEST_CASE("aie conv2dk1_i8: 1x1 conv in YCXC8 / OIYXI8O8 layouts", "[aie_kernels][conv2d]") {
    std::mt19937 rng(12);
    struct Case {
        int width, ci, co, scale;
    };
    const Case cases[] = {{32, 64, 64, 10}, {32, 64, 64, 1}, {4, 8, 8, 0},     {16, 16, 8, 3},
                          {12, 24, 16, 7},  {8, 8, 16, 15},  {32, 32, 32, 12}, {20, 16, 24, 4}};
    for (const Case& c : cases) {
        for (int trial = 0; trial < 3; ++trial) {
            const auto W = static_cast<std::size_t>(c.width), CI = static_cast<std::size_t>(c.ci),
                       CO = static_cast<std::size_t>(c.co);
            std::vector<std::int8_t> in(W * CI), wts(CI * CO), out(W * CO, 0x55);
            if (trial == 0) { // E14 golden ranges
                for (auto& x : in) x = static_cast<std::int8_t>(1 + rng() % 19);
                for (auto& x : wts) x = static_cast<std::int8_t>(50 + rng() % 30);
            } else {
                in = random_ints<std::int8_t>(in.size(), rng);
                wts = random_ints<std::int8_t>(wts.size(), rng);
            }
            scramble_modes();
            k::conv2dk1_i8(in.data(), wts.data(), out.data(), c.width, c.ci, c.co, c.scale);
            std::size_t ties = 0;
            for (std::size_t oc = 0; oc < CO; ++oc)
                for (std::size_t x = 0; x < W; ++x) {
                    std::int64_t sum = 0;
                    for (std::size_t ic = 0; ic < CI; ++ic) {
                        const std::int8_t a = in[(ic / 8) * W * 8 + x * 8 + ic % 8];
                        const std::int8_t w = wts[(oc / 8) * (CI / 8) * 64 + (ic / 8) * 64 + (ic % 8) * 8 + oc % 8];
                        sum += std::int64_t{a} * w;
                    }
                    // ties away from zero (symmetric_inf, as conv2dk1_i8.cc's vector kernel)
                    const std::int64_t mag = sum < 0 ? -sum : sum;
                    const std::int64_t rm = c.scale > 0 ? shr(mag + (std::int64_t{1} << (c.scale - 1)), c.scale) : mag;
                    const std::int64_t rounded = sum < 0 ? -rm : rm;
                    if (c.scale > 0 && (sum & ((std::int64_t{1} << c.scale) - 1)) == (std::int64_t{1} << (c.scale - 1)))
                        ++ties;
                    INFO("case w" << c.width << " ci" << c.ci << " co" << c.co << " scale " << c.scale << " oc " << oc
                                  << " x " << x << " sum " << sum);
                    REQUIRE(out[(oc / 8) * W * 8 + x * 8 + oc % 8] == clamp_i8(rounded));
                }
            (void)ties;
        }
    }
}

namespace {
int g_event_count[2] = {0, 0};
void count_event(int e) { ++g_event_count[e & 1]; }
} // namespace

TEST_CASE("aie kernels bracket their work with event0 / event1", "[aie_kernels][event]") {
    npusim::aie_api::set_event_hook(&count_event);
    std::vector<std::int32_t> in(2048, 1);
    std::int32_t out = 0;
    k::reduce_max_vector(in.data(), &out, 2048);
    std::vector<std::int16_t> a(32 * 32, 1), b(32 * 32, 1);
    std::vector<std::int32_t> c(32 * 32, 0);
    k::matmul_i16_i32(a.data(), b.data(), c.data(), 32, 32, 32);
    npusim::aie_api::set_event_hook(nullptr);
    CHECK(g_event_count[0] == 2);
    CHECK(g_event_count[1] == 2);
    CHECK(c[0] == 32);
}

// Tests for reduce_max_{vector,scalar}_{i32,bf16}, compute_max_{i32,bf16} and their cost estimates
// (kernels_ref/reduce_max.hpp).
#include <npusim/kernels/reduce_max.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

using namespace npusim::kernels;
using npusim::bfloat16;

namespace {

#define REQUIRE_INVALID(expr, text)                                                                                    \
    do {                                                                                                               \
        REQUIRE_THROWS_AS(expr, std::invalid_argument);                                                                \
        REQUIRE_THROWS_WITH(expr, Catch::Matchers::Contains(text));                                                    \
    } while (0)

constexpr std::int32_t kMin32 = std::numeric_limits<std::int32_t>::min();
constexpr std::int32_t kMax32 = std::numeric_limits<std::int32_t>::max();

// numpy in.max() over a non-empty vector: a plain loop.
std::int32_t golden_max(const std::vector<std::int32_t>& v) {
    std::int32_t m = v.at(0);
    for (auto x : v)
        if (x > m) m = x;
    return m;
}

std::vector<std::int32_t> random_i32(std::size_t n, std::int32_t lo, std::int32_t hi, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::int32_t> dist(lo, hi);
    std::vector<std::int32_t> v(n);
    for (auto& x : v) x = dist(rng);
    return v;
}

std::int32_t run_vector(const std::vector<std::int32_t>& v) {
    std::int32_t out = 12345;
    reduce_max_vector_i32(v.data(), &out, static_cast<std::int32_t>(v.size()));
    return out;
}

std::int32_t run_scalar(const std::vector<std::int32_t>& v) {
    std::int32_t out = 12345;
    reduce_max_scalar_i32(v.data(), &out, static_cast<std::int32_t>(v.size()));
    return out;
}

std::vector<bfloat16> random_bf16(std::size_t n, float lo, float hi, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<bfloat16> v(n);
    for (auto& x : v) x = bfloat16(dist(rng));
    return v;
}

// numpy-style max of the float values (no NaN in the input).
float golden_max_f(const std::vector<bfloat16>& v) {
    float m = -std::numeric_limits<float>::infinity();
    for (auto x : v) m = std::fmax(m, static_cast<float>(x));
    return m;
}

} // namespace

TEST_CASE("reduce_max_vector_i32 equals in.max()", "[kernels][reduce_max]") {
    SECTION("E5: 2048 values in [-1000, 1000)") {
        for (std::uint32_t seed = 1; seed <= 5; ++seed) {
            const auto v = random_i32(2048, -1000, 999, seed);
            REQUIRE(run_vector(v) == golden_max(v));
        }
    }
    SECTION("full int32 range, sizes from the minimum (128) up") {
        std::uint32_t seed = 40;
        for (std::int32_t n : {128, 144, 512, 1024, 4096}) {
            auto v = random_i32(static_cast<std::size_t>(n), kMin32, kMax32, seed++);
            REQUIRE(run_vector(v) == golden_max(v));
        }
    }
    SECTION("the maximum in every lane position and at both ends") {
        for (std::size_t pos : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{15},
                                std::size_t{16}, std::size_t{100}, std::size_t{127}}) {
            auto v = random_i32(128, -50, 50, static_cast<std::uint32_t>(pos) + 7u);
            v[pos] = 51;
            INFO("pos=" << pos);
            REQUIRE(run_vector(v) == 51);
        }
    }
    SECTION("edge values") {
        std::vector<std::int32_t> all_min(128, kMin32);
        REQUIRE(run_vector(all_min) == kMin32);
        std::vector<std::int32_t> negatives = random_i32(256, kMin32, -1, 9);
        REQUIRE(run_vector(negatives) == golden_max(negatives));
        negatives[200] = kMax32;
        REQUIRE(run_vector(negatives) == kMax32);
    }
}

TEST_CASE("reduce_max_scalar_i32 equals in.max() for any n >= 1, n == 0 gives INT32_MIN", "[kernels][reduce_max]") {
    std::uint32_t seed = 70;
    for (std::int32_t n : {1, 2, 3, 4, 15, 17, 100, 2048}) {
        const auto v = random_i32(static_cast<std::size_t>(n), kMin32, kMax32, seed++);
        REQUIRE(run_scalar(v) == golden_max(v));
    }
    REQUIRE(run_scalar({kMin32}) == kMin32);
    REQUIRE(run_scalar({-3, -2, -9}) == -2);
    std::int32_t out = 5;
    reduce_max_scalar_i32(&out, &out, 0);
    REQUIRE(out == kMin32);
}

TEST_CASE("compute_max_i32: out = max(a, b), out may alias an input", "[kernels][reduce_max]") {
    std::int32_t a = -5, b = -9, out = 0;
    compute_max_i32(&a, &b, &out);
    REQUIRE(out == -5);
    a = kMin32;
    b = kMax32;
    compute_max_i32(&a, &b, &out);
    REQUIRE(out == kMax32);
    // E5 pattern: compute_max(tmp, next, next)
    std::int32_t tmp = 17, next = kMin32;
    compute_max_i32(&tmp, &next, &next);
    REQUIRE(next == 17);
    tmp = 3;
    compute_max_i32(&tmp, &next, &next);
    REQUIRE(next == 17);
}

TEST_CASE("E5 mem-tile split/join flow reproduces in.max()", "[kernels][reduce_max]") {
    // 4 workers, each 64 chunks of 512: reduce_max_vector(a, tmp, 512); compute_max(tmp, next, next);
    // then worker 0 reduces the 4 joined partial results with reduce_max_scalar(outC, out, 4).
    const auto in = random_i32(4 * 64 * 512, kMin32 / 2, kMax32 / 2, 2024);
    std::vector<std::int32_t> outC(4);
    for (int w = 0; w < 4; ++w) {
        std::int32_t next = kMin32, tmp = 0;
        for (int c = 0; c < 64; ++c) {
            reduce_max_vector_i32(in.data() + (w * 64 + c) * 512, &tmp, 512);
            compute_max_i32(&tmp, &next, &next);
        }
        outC[static_cast<std::size_t>(w)] = next;
    }
    std::int32_t result = 0;
    reduce_max_scalar_i32(outC.data(), &result, 4);
    REQUIRE(result == golden_max(in));
}

TEST_CASE("reduce_max bf16 variants equal the float maximum", "[kernels][reduce_max][bf16]") {
    std::uint32_t seed = 300;
    for (std::int32_t n : {256 /* minimum vector size */, 288, 1024}) {
        for (auto [lo, hi] : {std::pair{-1000.0f, 1000.0f}, std::pair{-5.0f, -0.001f}, std::pair{0.0f, 1e30f}}) {
            const auto v = random_bf16(static_cast<std::size_t>(n), lo, hi, seed++);
            bfloat16 out_v(0.0f), out_s(0.0f);
            reduce_max_vector_bf16(v.data(), &out_v, n);
            reduce_max_scalar_bf16(v.data(), &out_s, n);
            INFO("n=" << n << " range=[" << lo << ", " << hi << ")");
            REQUIRE(static_cast<float>(out_v) == golden_max_f(v));
            REQUIRE(static_cast<float>(out_s) == golden_max_f(v));
        }
    }
    // scalar at small n
    const std::vector<bfloat16> small = {bfloat16(-2.5f), bfloat16(-0.5f), bfloat16(-7.0f)};
    bfloat16 out(0.0f);
    reduce_max_scalar_bf16(small.data(), &out, 3);
    REQUIRE(static_cast<float>(out) == -0.5f);
    reduce_max_scalar_bf16(small.data(), &out, 1);
    REQUIRE(static_cast<float>(out) == -2.5f);
}

TEST_CASE("reduce_max bf16 special values follow the kernel's lowest()/greater-than semantics",
          "[kernels][reduce_max][bf16]") {
    const float inf = std::numeric_limits<float>::infinity();
    const bfloat16 lowest = bfloat16::from_bits(0xFF7F); // most negative finite bf16
    REQUIRE(static_cast<float>(lowest) < -3.38e38f);

    std::vector<bfloat16> v(256, bfloat16(-inf));
    bfloat16 out(0.0f);
    // all -inf: the running max starts at lowest() and -inf never compares greater
    reduce_max_vector_bf16(v.data(), &out, 256);
    REQUIRE(out.bits == lowest.bits);
    reduce_max_scalar_bf16(v.data(), &out, 256);
    REQUIRE(out.bits == lowest.bits);
    // +inf wins
    v[77] = bfloat16(inf);
    reduce_max_vector_bf16(v.data(), &out, 256);
    REQUIRE(static_cast<float>(out) == inf);
    // NaN elements are ignored
    std::vector<bfloat16> w = random_bf16(256, -10.0f, 10.0f, 5);
    const float expected = golden_max_f(w);
    w[3] = bfloat16(std::numeric_limits<float>::quiet_NaN());
    w[200] = bfloat16(std::numeric_limits<float>::quiet_NaN());
    reduce_max_scalar_bf16(w.data(), &out, 256);
    REQUIRE(static_cast<float>(out) == expected);
    reduce_max_vector_bf16(w.data(), &out, 256);
    REQUIRE(static_cast<float>(out) == expected);
    // n == 0 (scalar) gives lowest()
    reduce_max_scalar_bf16(w.data(), &out, 0);
    REQUIRE(out.bits == lowest.bits);
    // compute_max_bf16 with aliasing
    bfloat16 a(1.5f), b(-2.0f);
    compute_max_bf16(&a, &b, &b);
    REQUIRE(static_cast<float>(b) == 1.5f);
}

TEST_CASE("reduce_max preconditions throw std::invalid_argument", "[kernels][reduce_max]") {
    std::vector<std::int32_t> v(4096, 1);
    std::vector<bfloat16> w(4096, bfloat16(1.0f));
    std::int32_t out = 42;
    bfloat16 outb(42.0f);
    REQUIRE_INVALID(reduce_max_vector_i32(v.data(), &out, 100), "multiple of 16");
    REQUIRE_INVALID(reduce_max_vector_i32(v.data(), &out, 112), ">= 128"); // 7 vectors
    REQUIRE_INVALID(reduce_max_vector_i32(v.data(), &out, 16), ">= 128");
    REQUIRE_INVALID(reduce_max_vector_i32(v.data(), &out, 0), ">= 128");
    REQUIRE_INVALID(reduce_max_vector_i32(v.data(), &out, -16), ">= 0");
    REQUIRE_INVALID(reduce_max_vector_bf16(w.data(), &outb, 240), "multiple of 32");
    REQUIRE_INVALID(reduce_max_vector_bf16(w.data(), &outb, 224), ">= 256");
    REQUIRE_INVALID(reduce_max_scalar_i32(v.data(), &out, -1), ">= 0");
    REQUIRE_INVALID(reduce_max_scalar_bf16(w.data(), &outb, -1), ">= 0");
    REQUIRE_INVALID(reduce_max_vector_i32(nullptr, &out, 128), "'in' is null");
    REQUIRE_INVALID(reduce_max_scalar_i32(v.data(), nullptr, 4), "'out' is null");
    REQUIRE_INVALID(compute_max_i32(&out, nullptr, &out), "'b' is null");
    REQUIRE_INVALID(compute_max_bf16(nullptr, &outb, &outb), "'a' is null");
    REQUIRE(out == 42);
    REQUIRE(static_cast<float>(outb) == 42.0f);
    REQUIRE_THROWS_WITH(reduce_max_vector_i32(v.data(), &out, 100),
                        Catch::Matchers::StartsWith("reduce_max_vector_i32: "));
}

TEST_CASE("reduce_max cost estimates: one 512-bit vector per cycle plus overhead", "[kernels][reduce_max][cost]") {
    // int32: 2048 elements = 128 vectors
    REQUIRE(reduce_max_vector_i32_cycles(2048) == 128 + kReduceMaxTailCyclesI32);
    // bf16: 2048 elements = 64 vectors
    REQUIRE(reduce_max_vector_bf16_cycles(2048) == 64 + kReduceMaxTailCyclesBf16);
    REQUIRE(reduce_max_vector_i32_cycles(4096) - reduce_max_vector_i32_cycles(2048) == 128);
    REQUIRE(reduce_max_scalar_cycles(4) == 4 * kScalarLoopCyclesPerElement);
    REQUIRE(reduce_max_scalar_cycles(1024) > reduce_max_vector_i32_cycles(1024));
    REQUIRE(compute_max_cycles() == kScalarLoopCyclesPerElement);
    REQUIRE_INVALID(reduce_max_vector_i32_cycles(-1), ">= 0");
}

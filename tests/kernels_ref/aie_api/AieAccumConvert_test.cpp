// The AIE-API host layer's conversions that mlir-aie's kernels rely on: a float accumulator converting
// implicitly to a bfloat16 / float vector (mul.cc, gelu.cc, ...), scalar bfloat16 compound assignment
// (mm.cc's `c += a * b`), and a float running sum kept in an acc32 accumulator (aie2p/rms_norm.cc).
// Expected values are explicit bit patterns or come from an independent nearest-bf16 search.
#include <aie_api/aie.hpp>

#include "AieTestData.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>

using npusim::bfloat16;

using npusim::test::aie_test_data::bf_bits;

namespace {

float f_bits(std::uint32_t u) { return std::bit_cast<float>(u); }
std::uint32_t bits_f(float f) { return std::bit_cast<std::uint32_t>(f); }

// The bf16 nearest to a finite float (ties to the even significand), found by comparing the two
// neighbouring bf16 values that bracket it; overflow past the largest bf16 gives infinity when the
// value is at least halfway to 2^128.
std::uint16_t nearest_bf16(float x) {
    const std::uint16_t sign = std::signbit(x) ? 0x8000u : 0u;
    const long double v = std::fabs(static_cast<long double>(x));
    std::uint16_t a = 0, b = 0x7F7F; // largest magnitude pattern <= v, by bisection
    while (a < b) {
        const auto mid = static_cast<std::uint16_t>((a + b + 1) / 2);
        if (static_cast<long double>(bf_bits(mid)) <= v)
            a = mid;
        else
            b = static_cast<std::uint16_t>(mid - 1);
    }
    const long double lo = bf_bits(a);
    if (lo == v) return static_cast<std::uint16_t>(sign | a);
    const long double hi = a == 0x7F7F ? std::ldexp(1.0L, 128) : static_cast<long double>(bf_bits(a + 1));
    const auto up = static_cast<std::uint16_t>(a + 1); // 0x7F80 = inf after the largest finite
    if (v - lo < hi - v) return static_cast<std::uint16_t>(sign | a);
    if (hi - v < v - lo) return static_cast<std::uint16_t>(sign | up);
    return static_cast<std::uint16_t>(sign | ((a & 1u) == 0 ? a : up));
}

aie::accum<aie::accfloat, 16> acc_of(std::initializer_list<std::uint32_t> lanes) {
    aie::accum<aie::accfloat, 16> acc;
    unsigned i = 0;
    for (auto u : lanes) acc.lane(i++) = f_bits(u);
    return acc;
}

} // namespace

TEST_CASE("accfloat converts implicitly to a bfloat16 vector with the core's rounding mode",
          "[aie_api][accum][convert]") {
    static_assert(std::is_convertible_v<aie::accum<aie::accfloat, 16>, aie::vector<bfloat16, 16>>);
    static_assert(std::is_convertible_v<aie::accum<aie::accfloat, 8>, aie::vector<float, 8>>);
    // Integer accumulators need an explicit to_vector<T>(shift), as in the AIE API.
    static_assert(!std::is_convertible_v<aie::accum<aie::acc32, 16>, aie::vector<int16, 16>>);
    static_assert(!std::is_convertible_v<aie::accum<aie::accfloat, 16>, aie::vector<bfloat16, 8>>);

    // Lanes: exact tie with an even bf16 below, tie with an odd one below, just above / below a tie,
    // a negative tie, an exact value, the largest float (rounds to inf when rounding up).
    const auto acc = acc_of({0x3F808000u, 0x3F818000u, 0x3F808001u, 0x3F807FFFu, 0xBF818000u, 0x3F800000u,
                             0x7F7FFFFFu});
    struct Row {
        aie::rounding_mode mode;
        std::uint16_t expect[7];
    };
    // The AIE rounding modes act on the magnitude [est, README]: floor truncates, ceil rounds away
    // from zero, conv_even is round-to-nearest-even, symmetric_zero sends ties towards zero.
    const Row rows[] = {
        {aie::rounding_mode::floor, {0x3F80, 0x3F81, 0x3F80, 0x3F80, 0xBF81, 0x3F80, 0x7F7F}},
        {aie::rounding_mode::conv_even, {0x3F80, 0x3F82, 0x3F81, 0x3F80, 0xBF82, 0x3F80, 0x7F80}},
        {aie::rounding_mode::ceil, {0x3F81, 0x3F82, 0x3F81, 0x3F81, 0xBF82, 0x3F80, 0x7F80}},
        {aie::rounding_mode::symmetric_zero, {0x3F80, 0x3F81, 0x3F81, 0x3F80, 0xBF81, 0x3F80, 0x7F80}},
    };
    npusim::aie_api::ScopedCoreModes keep;
    for (const auto& row : rows) {
        aie::set_rounding(row.mode);
        const aie::vector<bfloat16, 16> v = acc; // the implicit conversion under test
        const auto explicit_v = acc.to_vector<bfloat16>();
        for (unsigned i = 0; i < 7; ++i) {
            INFO("mode " << static_cast<int>(row.mode) << " lane " << i);
            CHECK(v[i].bits == row.expect[i]);
            CHECK(explicit_v[i].bits == row.expect[i]);
        }
    }
}

TEST_CASE("accfloat converts implicitly to a float vector exactly", "[aie_api][accum][convert]") {
    const auto acc = acc_of({0x3F808001u, 0x00000001u, 0x80000000u, 0x7F800000u, 0x7FC00001u, 0xC2F6E979u});
    const aie::vector<float, 16> v = acc;
    for (unsigned i = 0; i < 16; ++i) CHECK(bits_f(v[i]) == bits_f(acc.lane(i)));
    // The pattern kernels write: the product of two bf16 vectors narrowed on assignment.
    const auto a = aie::broadcast<bfloat16, 16>(bfloat16(1.0078125f)); // 0x3F81
    const auto b = aie::broadcast<bfloat16, 16>(bfloat16(1.0078125f));
    npusim::aie_api::ScopedCoreModes keep;
    aie::set_rounding(aie::rounding_mode::conv_even);
    const aie::vector<bfloat16, 16> p = aie::mul(a, b); // 1.01568603515625 exactly -> nearest bf16
    CHECK(p[3].bits == nearest_bf16(1.0078125f * 1.0078125f));
    const aie::vector<float, 16> pf = aie::mul(a, b);
    CHECK(pf[3] == 1.0078125f * 1.0078125f);
}

TEST_CASE("a float vector kept in an acc32 accumulator comes back bit for bit", "[aie_api][accum][convert]") {
    aie::vector<float, 16> v;
    const std::uint32_t pats[16] = {0x3F800000u, 0x80000000u, 0x00000001u, 0x7F800000u, 0xFF800000u, 0x7FC12345u,
                                    0x3EAAAAABu, 0xC1200000u, 0x7F7FFFFFu, 0x00800000u, 0u, 0x4B000001u,
                                    0xBF000000u, 0x3DCCCCCDu, 0x42F60000u, 0x80400000u};
    for (unsigned i = 0; i < 16; ++i) v[i] = f_bits(pats[i]);
    aie::accum<aie::acc32, 16> acc = aie::zeros<aie::acc32, 16>();
    acc = v;
    const auto back = acc.to_vector<float>();
    for (unsigned i = 0; i < 16; ++i) CHECK(bits_f(back[i]) == pats[i]);
}

TEST_CASE("an rms_norm-style sum of squares through acc32 matches per-lane float sums",
          "[aie_api][accum][convert]") {
    // The kernel idiom: square = mul_square(bf16 x) as float; acc32 acc = add(sum, square);
    // sum = acc.to_vector<float>(). Each lane is then a sequential float sum of exact bf16 squares.
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    constexpr unsigned N = 16, Chunks = 24;
    std::vector<bfloat16> x(N * Chunks);
    for (auto& e : x) e = bfloat16(dist(rng));
    aie::vector<float, N> sum = aie::zeros<float, N>();
    aie::accum<aie::acc32, N> acc = aie::zeros<aie::acc32, N>();
    for (unsigned c = 0; c < Chunks; ++c) {
        const auto in = aie::load_v<N>(x.data() + c * N);
        const aie::vector<float, N> sq = aie::mul_square(in);
        acc = aie::add(sum, sq);
        sum = acc.template to_vector<float>();
    }
    for (unsigned l = 0; l < N; ++l) {
        float ref = 0.0f;
        for (unsigned c = 0; c < Chunks; ++c) {
            const float e = static_cast<float>(x[c * N + l]);
            ref += e * e; // exact product (8-bit significands), one float rounding per add
        }
        CHECK(bits_f(sum[l]) == bits_f(ref));
    }
    // Normalising with invsqrt: within 2 bf16 ulps of the double-precision rms norm.
    double ss = 0;
    for (auto e : x) ss += static_cast<double>(static_cast<float>(e)) * static_cast<float>(e);
    const float inv = aie::invsqrt(aie::reduce_add(sum) / static_cast<float>(x.size()) + 1e-5f);
    const double inv_ref = 1.0 / std::sqrt(ss / static_cast<double>(x.size()) + 1e-5);
    CHECK(std::fabs(inv - inv_ref) <= 1e-6 * inv_ref);
}

TEST_CASE("mul_square and mac_square square each lane in the default accumulator", "[aie_api][accum]") {
    aie::vector<int16, 16> v;
    for (unsigned i = 0; i < 16; ++i) v[i] = static_cast<int16>(i % 2 ? -32768 + int(i) : 181 * int(i));
    const auto sq = aie::mul_square(v);
    static_assert(std::is_same_v<decltype(sq)::value_type, aie::acc32>);
    auto acc2 = aie::mac_square(sq, v);
    for (unsigned i = 0; i < 16; ++i) {
        const std::int64_t e = v[i];
        // acc32 lanes wrap modulo 2^32 (32768^2 = 2^30 fits; the doubled sum may wrap).
        CHECK(sq.lane(i) == static_cast<std::int32_t>(static_cast<std::uint32_t>(e * e)));
        CHECK(acc2.lane(i) == static_cast<std::int32_t>(static_cast<std::uint32_t>(2 * e * e)));
    }
    const auto b = aie::broadcast<bfloat16, 16>(bfloat16::from_bits(0x3F81)); // 1.0078125
    const auto bs = aie::mul_square(b);
    static_assert(std::is_same_v<decltype(bs)::value_type, aie::accfloat>);
    CHECK(bs.lane(5) == 1.0078125f * 1.0078125f);
}

TEST_CASE("scalar bfloat16 compound assignment computes in float and rounds to nearest even",
          "[aie_api][bfloat16]") {
    npusim::aie_api::ScopedCoreModes keep;
    aie::set_rounding(aie::rounding_mode::floor); // the vector core's mode does not apply to scalars
    SECTION("exact ties go to the even bf16") {
        bfloat16 c = bfloat16::from_bits(0x3F80); // 1.0
        c += std::ldexp(1.0f, -8);                // 1 + half an ulp: tie, 0x3F80 is even
        CHECK(c.bits == 0x3F80);
        c = bfloat16::from_bits(0x3F81);
        c += std::ldexp(1.0f, -8); // tie above an odd significand: up to 0x3F82
        CHECK(c.bits == 0x3F82);
        c = bfloat16::from_bits(0xBF81);
        c -= std::ldexp(1.0f, -8); // negative tie: magnitude to even
        CHECK(c.bits == 0xBF82);
    }
    SECTION("overflow rounds to infinity, as a float-to-bf16 conversion does") {
        bfloat16 c = bfloat16::from_bits(0x7F7F); // largest finite bf16, odd significand
        c += std::ldexp(1.0f, 119);               // exactly half an ulp: tie -> even = inf
        CHECK(c.bits == 0x7F80);
    }
    SECTION("mm.cc's c += a * b against the nearest-bf16 reference") {
        std::mt19937 rng(11);
        std::uniform_int_distribution<int> pat(0, 0xFFFF);
        int checked = 0;
        for (int it = 0; it < 20000; ++it) {
            const auto a = bfloat16::from_bits(static_cast<std::uint16_t>(pat(rng) & 0xBFFF));
            const auto b = bfloat16::from_bits(static_cast<std::uint16_t>(pat(rng) & 0xBFFF));
            const auto c0 = bfloat16::from_bits(static_cast<std::uint16_t>(pat(rng) & 0xBFFF));
            const float fa = a, fb = b, fc = c0;
            if (!std::isfinite(fa) || !std::isfinite(fb) || !std::isfinite(fc)) continue;
            const float sum = fc + fa * fb; // float arithmetic, as the compilers' bf16 + float
            if (!std::isfinite(sum)) continue;
            bfloat16 c = c0;
            c += a * b;
            CHECK(c.bits == nearest_bf16(sum));
            bfloat16 d = c0;
            d *= fa;
            CHECK(d.bits == nearest_bf16(fc * fa));
            ++checked;
        }
        CHECK(checked > 10000);
    }
    SECTION("integer and bfloat16 right-hand sides") {
        bfloat16 c = 3.0f;
        c += 5;
        CHECK(static_cast<float>(c) == 8.0f);
        c /= bfloat16(2.0f);
        CHECK(static_cast<float>(c) == 4.0f);
    }
}

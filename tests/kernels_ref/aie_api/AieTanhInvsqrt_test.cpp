// aie::tanh, aie::invsqrt and the AIE2 runtime-library getTanhBf16 against an independent reference:
// the exact value in long double, rounded by searching the two neighbouring representable values
// (ties to even). The layer's contract for these units is "exact, rounded once to nearest even"
// [est] (AMD publishes neither the AIE2P tanh unit's nor the inverse square root's arithmetic); see
// kernels_ref/aie_api/README.md for how far upstream's AIE2 getTanhBf16 approximation is from it.
#include <aie_api/aie.hpp>
#include <lut_based_ops.h>

#include "AieTestData.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

using npusim::bfloat16;

using npusim::test::aie_test_data::bf_bits;

namespace {


// Nearest bf16 to a finite long double below 2^128 in magnitude (ties to the even significand).
std::uint16_t nearest_bf16(long double x) {
    const std::uint16_t sign = std::signbit(x) ? 0x8000u : 0u;
    const long double v = std::fabs(x);
    std::uint16_t a = 0, b = 0x7F7F;
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
    const auto up = static_cast<std::uint16_t>(a + 1);
    if (v - lo < hi - v) return static_cast<std::uint16_t>(sign | a);
    if (hi - v < v - lo) return static_cast<std::uint16_t>(sign | up);
    return static_cast<std::uint16_t>(sign | ((a & 1u) == 0 ? a : up));
}

// Nearest float to a long double: the two floats around it compared directly.
float nearest_float(long double x) {
    const float f = static_cast<float>(x); // some neighbour; check both sides
    const float lo = static_cast<long double>(f) <= x ? f : std::nextafter(f, -INFINITY);
    const float hi = std::nextafter(lo, INFINITY);
    const long double dl = x - lo, dh = static_cast<long double>(hi) - x;
    if (dl < dh) return lo;
    if (dh < dl) return hi;
    return (std::bit_cast<std::uint32_t>(lo) & 1u) == 0 ? lo : hi;
}

} // namespace

TEST_CASE("aie::tanh<bfloat16> of every bf16 input is the exact tanh rounded to nearest even",
          "[aie_api][elementary][tanh]") {
    unsigned mismatches = 0, checked = 0;
    for (std::uint32_t base = 0; base < 0x10000u; base += 16) {
        aie::vector<bfloat16, 16> v;
        for (unsigned l = 0; l < 16; ++l) v[l] = bfloat16::from_bits(static_cast<std::uint16_t>(base + l));
        const auto r = aie::tanh<bfloat16>(v);
        const auto g = getTanhBf16(v); // the AIE2 runtime-library entry point, same contract
        for (unsigned l = 0; l < 16; ++l) {
            const float x = v[l];
            if (std::isnan(x)) {
                CHECK(std::isnan(static_cast<float>(r[l])));
                continue;
            }
            const std::uint16_t expect = std::isinf(x) ? (x > 0 ? 0x3F80 : 0xBF80) : nearest_bf16(std::tanh(static_cast<long double>(x)));
            if (r[l].bits != expect || g[l].bits != expect) ++mismatches;
            ++checked;
        }
    }
    CHECK(checked > 65000);
    CHECK(mismatches == 0);
    // Signed zero and the saturated ends.
    const auto z = aie::tanh(aie::vector<bfloat16, 16>(bfloat16::from_bits(0x8000), bfloat16(20.0f), bfloat16(-20.0f)));
    CHECK(z[0].bits == 0x8000);
    CHECK(z[1].bits == 0x3F80);
    CHECK(z[2].bits == 0xBF80);
}

TEST_CASE("aie::tanh of a float vector rounds once to bfloat16 or float", "[aie_api][elementary][tanh]") {
    // Float inputs whose tanh lies close to a bf16 tie catch a double rounding through float.
    aie::vector<float, 16> v;
    const float xs[16] = {0.1f, -0.2509765625f, 0.5f, 0.75f, 1.0f, -1.5f, 2.0f, 3.0f,
                          0.0f, -7.5f, 0.0078125f, 0.3333333f, 9.5367431640625e-07f, 0.0f, 4.0f, -0.0f};
    for (unsigned i = 0; i < 16; ++i) v[i] = xs[i];
    // tanh of these rounds to float exactly onto a bf16 tie (0x3C078000, 0x3C088000) although the
    // exact value lies below / above it: rounding through float would pick the wrong neighbour.
    v[8] = std::bit_cast<float>(0x3C0780CAu);
    v[13] = std::bit_cast<float>(0x3C0880CFu);
    const auto rb = aie::tanh<bfloat16>(v);
    CHECK(rb[8].bits == 0x3C07);
    CHECK(rb[13].bits == 0x3C09);
    const auto rf = aie::tanh(v);
    static_assert(std::is_same_v<decltype(rf), const aie::vector<float, 16>>);
    for (unsigned i = 0; i < 16; ++i) {
        const long double t = std::tanh(static_cast<long double>(v[i]));
        CHECK(rb[i].bits == nearest_bf16(t));
        CHECK(std::bit_cast<std::uint32_t>(rf[i]) == std::bit_cast<std::uint32_t>(nearest_float(t)));
    }
}

TEST_CASE("aie::invsqrt of scalars and vectors is the exact value rounded to nearest even",
          "[aie_api][elementary][invsqrt]") {
    SECTION("every positive finite bf16") {
        unsigned mismatches = 0;
        for (std::uint32_t base = 0; base < 0x7F80u; base += 16) {
            aie::vector<bfloat16, 16> v;
            for (unsigned l = 0; l < 16; ++l) v[l] = bfloat16::from_bits(static_cast<std::uint16_t>(base + l));
            const auto r = aie::invsqrt(v);
            for (unsigned l = 0; l < 16; ++l) {
                const long double x = static_cast<float>(v[l]);
                const std::uint16_t expect = x == 0 ? 0x7F80 : nearest_bf16(1.0L / std::sqrt(x));
                if (r[l].bits != expect) ++mismatches;
            }
        }
        CHECK(mismatches == 0);
    }
    SECTION("float scalars, including the rms_norm / layer_norm arguments") {
        const float xs[] = {1e-5f, 0.25f, 2.0f, 3.0f, 1e30f, 1.17549435e-38f, 1.4e-45f, 12345.678f, 0.99999994f};
        for (float x : xs) {
            INFO(x);
            CHECK(std::bit_cast<std::uint32_t>(aie::invsqrt(x)) ==
                  std::bit_cast<std::uint32_t>(nearest_float(1.0L / std::sqrt(static_cast<long double>(x)))));
        }
        CHECK(aie::invsqrt(0.0f) == std::numeric_limits<float>::infinity());
        CHECK(aie::invsqrt(-0.0f) == -std::numeric_limits<float>::infinity());
        CHECK(aie::invsqrt(std::numeric_limits<float>::infinity()) == 0.0f);
        CHECK(std::isnan(aie::invsqrt(-1.0f)));
        CHECK(std::isnan(aie::invsqrt(std::numeric_limits<float>::quiet_NaN())));
    }
}

// The AIE-API host layer's elementary functions (aie::exp2, aie::inv) against an independent
// formulation: the exact value in long double, and the nearest bf16 found by comparing the two
// neighbouring bf16 candidates directly (ties to the even significand). AMD does not publish the
// AIE2P exp2 / inverse units beyond exp2's input step (UG1639, VEXP2: 11 fractional bits, the rest
// truncated), so the layer's contract is that step, then "exact, rounded once to the output type to
// nearest even" [est]; these tests check exactly that contract, not hardware bits.
#include <aie_api/aie.hpp>

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

using npusim::bfloat16;

namespace {

float bits_to_float(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

// The bf16 nearest to a positive finite exact value v (v below the bf16 maximum), ties to even.
std::uint16_t nearest_bf16(long double v) {
    std::uint16_t lo = 0; // the largest positive bf16 <= v, found by bisection over the bit patterns
    std::uint16_t a = 0, b = 0x7F7F;
    while (a < b) {
        const auto mid = static_cast<std::uint16_t>((a + b + 1) / 2);
        if (static_cast<long double>(bits_to_float(mid)) <= v)
            a = mid;
        else
            b = static_cast<std::uint16_t>(mid - 1);
    }
    lo = a;
    if (static_cast<long double>(bits_to_float(lo)) == v || lo == 0x7F7F) return lo;
    const auto hi = static_cast<std::uint16_t>(lo + 1);
    const long double dl = v - bits_to_float(lo), dh = static_cast<long double>(bits_to_float(hi)) - v;
    if (dl < dh) return lo;
    if (dh < dl) return hi;
    return (lo & 1u) == 0 ? lo : hi;
}

} // namespace

TEST_CASE("aie::exp2 of a float vector is the exact power of two rounded to bf16 to nearest even",
          "[aie_api][elementary]") {
    // Every argument from -130 to 127 in steps of 1/64 (exact in float), 16 lanes at a time.
    std::vector<float> args;
    for (int i = -130 * 64; i < 127 * 64; ++i) args.push_back(static_cast<float>(i) / 64.0f);
    for (std::size_t base = 0; base + 16 <= args.size(); base += 16) {
        aie::vector<float, 16> v;
        for (unsigned l = 0; l < 16; ++l) v[l] = args[base + l];
        const aie::vector<bfloat16, 16> r = aie::exp2<bfloat16>(v);
        for (unsigned l = 0; l < 16; ++l) {
            const long double exact = std::exp2(static_cast<long double>(args[base + l]));
            INFO("x = " << args[base + l]);
            REQUIRE(r[l].bits == nearest_bf16(exact));
        }
    }
}

TEST_CASE("aie::exp2 takes its input with 11 fractional bits, the rest truncated (floored), as the VEXP2 unit",
          "[aie_api][elementary]") {
    // Arguments k / 65536 (16 fractional bits) over [-4, 4): each gives 2^(floor(k / 32) / 2048)
    // rounded to bf16; some of them round differently from their own exact power, so the step is seen.
    int changed = 0;
    for (int k = -4 * 65536; k < 4 * 65536; k += 16 * 7) {
        aie::vector<float, 16> v;
        for (unsigned l = 0; l < 16; ++l) v[l] = static_cast<float>(k + static_cast<int>(l)) / 65536.0f;
        const aie::vector<bfloat16, 16> r = aie::exp2<bfloat16>(v);
        for (unsigned l = 0; l < 16; ++l) {
            const long long n = k + static_cast<long long>(l);
            const long long q = n >= 0 ? n / 32 : -((-n + 31) / 32); // floor(n / 32): 2^-11 units
            const std::uint16_t want = nearest_bf16(std::exp2(static_cast<long double>(q) / 2048.0L));
            INFO("x = " << n << " / 65536");
            REQUIRE(r[l].bits == want);
            if (want != nearest_bf16(std::exp2(static_cast<long double>(n) / 65536.0L))) ++changed;
        }
    }
    CHECK(changed > 100);
    // on the 2^-11 grid nothing is truncated: 127.91015625 = 127 + 1864 / 2048
    CHECK(aie::exp2<bfloat16>(aie::broadcast<float, 16>(127.91015625f))[3].bits ==
          nearest_bf16(std::exp2(127.91015625L)));
}

TEST_CASE("aie::exp2 edge values: overflow to inf, underflow to zero, NaN stays NaN, float output",
          "[aie_api][elementary]") {
    aie::vector<float, 16> v = aie::broadcast<float, 16>(0.0f);
    v[0] = 128.0f;
    v[1] = -200.0f;
    v[2] = std::numeric_limits<float>::quiet_NaN();
    v[3] = -std::numeric_limits<float>::infinity();
    v[4] = 0.5f;
    const auto r = aie::exp2<bfloat16>(v);
    CHECK(r[0].bits == 0x7F80); // 2^128 > bf16 max: +inf
    CHECK(r[1].bits == 0x0000);
    CHECK(std::isnan(static_cast<float>(r[2])));
    CHECK(r[3].bits == 0x0000);
    CHECK(r[4].bits == nearest_bf16(std::sqrt(2.0L))); // 1.4140625 (0x3FB5)
    CHECK(r[5].bits == 0x3F80); // 2^0 = 1
    const aie::vector<float, 16> f = aie::exp2(v); // float in, float out
    CHECK(f[4] == static_cast<float>(std::sqrt(2.0L)));
    const aie::vector<bfloat16, 16> b = aie::exp2(aie::broadcast<bfloat16, 16>(bfloat16(3.0f)));
    CHECK(static_cast<float>(b[7]) == 8.0f);
}

TEST_CASE("aie::inv: the scalar is the IEEE float reciprocal, vectors round the exact reciprocal",
          "[aie_api][elementary]") {
    for (float x : {3.0f, 1024.5f, 0.1f, -7.25f, 1.0e-30f, 65536.0f}) {
        const float r = aie::inv(x);
        CHECK(r == static_cast<float>(1.0L / static_cast<long double>(x)));
    }
    CHECK(std::isinf(aie::inv(0.0f)));
    // Every positive normal bf16 from 2^-126 to 2^126: the reciprocal's nearest bf16.
    for (std::uint32_t base = 0x0080; base + 16 <= 0x7E80; base += 16) {
        aie::vector<bfloat16, 16> v;
        for (unsigned l = 0; l < 16; ++l) v[l] = bfloat16::from_bits(static_cast<std::uint16_t>(base + l));
        const auto r = aie::inv(v);
        for (unsigned l = 0; l < 16; ++l) {
            INFO("bits 0x" << std::hex << base + l);
            REQUIRE(r[l].bits == nearest_bf16(1.0L / static_cast<long double>(bits_to_float(v[l].bits))));
        }
    }
    aie::vector<float, 16> f = aie::broadcast<float, 16>(3.0f);
    f[1] = -0.5f;
    const auto rf = aie::inv(f);
    CHECK(rf[0] == 1.0f / 3.0f);
    CHECK(rf[1] == -2.0f);
}

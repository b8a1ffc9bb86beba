// Unit tests of the AIE-API host layer itself: SRS rounding and saturation, accumulator shifts, float ->
// bf16 rounding. Element-wise arithmetic, compares, reductions, shuffles and reshapes are in
// AieApiOps_test.cpp; mmul, iterators, load/store, events, cascade and core modes in AieApiMmul_test.cpp.
#include <aie_api/aie.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <random>
#include <vector>

namespace {

using aie::rounding_mode;
using aie::saturation_mode;
using npusim::aie_api::CoreModes;
using npusim::aie_api::ScopedCoreModes;

constexpr rounding_mode kAllRounding[] = {rounding_mode::floor,           rounding_mode::ceil,
                                          rounding_mode::symmetric_floor, rounding_mode::symmetric_ceil,
                                          rounding_mode::negative_inf,    rounding_mode::positive_inf,
                                          rounding_mode::symmetric_zero,  rounding_mode::symmetric_inf,
                                          rounding_mode::conv_even,       rounding_mode::conv_odd};

// Independent reference for x / 2^s rounded with a mode: exact with long double (64-bit significand)
// for |x| < 2^62.
std::int64_t ref_round(std::int64_t x, int s, rounding_mode m) {
    const long double v = std::ldexp(static_cast<long double>(x), -s);
    const long double fl = std::floor(v);
    const long double frac = v - fl; // in [0, 1)
    const auto f = static_cast<std::int64_t>(fl);
    if (frac == 0) return f;
    switch (m) {
    case rounding_mode::floor: return f;
    case rounding_mode::ceil: return f + 1;
    case rounding_mode::symmetric_floor: return v < 0 ? f + 1 : f;
    case rounding_mode::symmetric_ceil: return v < 0 ? f : f + 1;
    default: break;
    }
    if (frac < 0.5L) return f;
    if (frac > 0.5L) return f + 1;
    switch (m) { // exact tie
    case rounding_mode::positive_inf: return f + 1;
    case rounding_mode::negative_inf: return f;
    case rounding_mode::symmetric_inf: return v < 0 ? f : f + 1;
    case rounding_mode::symmetric_zero: return v < 0 ? f + 1 : f;
    case rounding_mode::conv_even: return (f % 2 == 0) ? f : f + 1;
    case rounding_mode::conv_odd: return (f % 2 != 0) ? f : f + 1;
    default: return f;
    }
}

template <typename T>
T ref_saturate(std::int64_t v, saturation_mode s) {
    const std::int64_t hi = std::numeric_limits<T>::max();
    const std::int64_t lo = std::numeric_limits<T>::min();
    if (s == saturation_mode::none) {
        const std::uint64_t mod = std::uint64_t{1} << (8 * sizeof(T));
        std::uint64_t u = static_cast<std::uint64_t>(v) & (mod - 1);
        return static_cast<T>(u);
    }
    const std::int64_t lo_eff = (s == saturation_mode::symmetric && std::is_signed_v<T>) ? -hi : lo;
    return static_cast<T>(v > hi ? hi : (v < lo_eff ? lo_eff : v));
}

// SRS of one value through a 16-lane accumulator.
template <typename T, typename Tag = acc64>
T srs_one(std::int64_t x, int shift) {
    aie::accum<Tag, 16> acc;
    acc.lane(0) = static_cast<typename aie::accum<Tag, 16>::storage_type>(x);
    return acc.template to_vector<T>(shift)[0];
}

float bf(std::uint16_t bits) { return npusim::bfloat16::to_float(bits); }

} // namespace

TEST_CASE("SRS rounding modes on exact ties of both signs", "[aie_api][srs]") {
    ScopedCoreModes guard;
    aie::set_saturation(saturation_mode::none);
    struct Row {
        rounding_mode mode;
        std::int32_t expect[8]; // for x/2 = 2.5, -2.5, 1.5, -1.5, 0.5, -0.5, 3.5, -3.5
    };
    const std::int64_t xs[8] = {5, -5, 3, -3, 1, -1, 7, -7};
    const Row rows[] = {
        {rounding_mode::floor, {2, -3, 1, -2, 0, -1, 3, -4}},
        {rounding_mode::ceil, {3, -2, 2, -1, 1, 0, 4, -3}},
        {rounding_mode::symmetric_floor, {2, -2, 1, -1, 0, 0, 3, -3}},
        {rounding_mode::symmetric_ceil, {3, -3, 2, -2, 1, -1, 4, -4}},
        {rounding_mode::positive_inf, {3, -2, 2, -1, 1, 0, 4, -3}},
        {rounding_mode::negative_inf, {2, -3, 1, -2, 0, -1, 3, -4}},
        {rounding_mode::symmetric_inf, {3, -3, 2, -2, 1, -1, 4, -4}},
        {rounding_mode::symmetric_zero, {2, -2, 1, -1, 0, 0, 3, -3}},
        {rounding_mode::conv_even, {2, -2, 2, -2, 0, 0, 4, -4}},
        {rounding_mode::conv_odd, {3, -3, 1, -1, 1, -1, 3, -3}},
    };
    for (const Row& row : rows) {
        aie::set_rounding(row.mode);
        for (int i = 0; i < 8; ++i) {
            INFO("mode " << static_cast<unsigned>(row.mode) << " x " << xs[i]);
            CHECK(srs_one<int32>(xs[i], 1) == row.expect[i]);
            CHECK(srs_one<int32, acc32>(xs[i], 1) == row.expect[i]);
            // the same tie at a larger shift: x * 2^19 / 2^20
            CHECK(srs_one<int32>(xs[i] << 19, 20) == row.expect[i]);
        }
    }
}

TEST_CASE("SRS rounding of non-ties", "[aie_api][srs]") {
    ScopedCoreModes guard;
    // 2.75, -2.75, -2.25, 2.25 with shift 2
    const std::int64_t xs[4] = {11, -11, -9, 9};
    struct Row {
        rounding_mode mode;
        std::int32_t expect[4];
    };
    const Row rows[] = {
        {rounding_mode::floor, {2, -3, -3, 2}},           {rounding_mode::ceil, {3, -2, -2, 3}},
        {rounding_mode::symmetric_floor, {2, -2, -2, 2}}, {rounding_mode::symmetric_ceil, {3, -3, -3, 3}},
        {rounding_mode::positive_inf, {3, -3, -2, 2}},    {rounding_mode::negative_inf, {3, -3, -2, 2}},
        {rounding_mode::symmetric_inf, {3, -3, -2, 2}},   {rounding_mode::symmetric_zero, {3, -3, -2, 2}},
        {rounding_mode::conv_even, {3, -3, -2, 2}},       {rounding_mode::conv_odd, {3, -3, -2, 2}},
    };
    for (const Row& row : rows) {
        aie::set_rounding(row.mode);
        for (int i = 0; i < 4; ++i) CHECK(srs_one<int32>(xs[i], 2) == row.expect[i]);
    }
}

TEST_CASE("SRS matches an independent reference over random values, shifts and modes", "[aie_api][srs]") {
    ScopedCoreModes guard;
    std::mt19937_64 rng(1234);
    const saturation_mode sats[] = {saturation_mode::none, saturation_mode::saturate, saturation_mode::symmetric};
    for (rounding_mode rm : kAllRounding) {
        for (saturation_mode sm : sats) {
            aie::set_rounding(rm);
            aie::set_saturation(sm);
            for (int iter = 0; iter < 400; ++iter) {
                const int bits = 1 + static_cast<int>(rng() % 60);
                std::int64_t x = static_cast<std::int64_t>(rng() >> (64 - bits));
                if (rng() & 1) x = -x;
                const int shift = static_cast<int>(rng() % 40);
                const std::int64_t rounded = shift == 0 ? x : ref_round(x, shift, rm);
                INFO("x=" << x << " shift=" << shift << " rnd=" << static_cast<unsigned>(rm)
                          << " sat=" << static_cast<unsigned>(sm));
                REQUIRE(srs_one<int8>(x, shift) == ref_saturate<int8>(rounded, sm));
                REQUIRE(srs_one<uint8>(x, shift) == ref_saturate<uint8>(rounded, sm));
                REQUIRE(srs_one<int16>(x, shift) == ref_saturate<int16>(rounded, sm));
                REQUIRE(srs_one<uint16>(x, shift) == ref_saturate<uint16>(rounded, sm));
                REQUIRE(srs_one<int32>(x, shift) == ref_saturate<int32>(rounded, sm));
                const auto x32 = static_cast<std::int32_t>(x);
                const std::int64_t r32 = shift == 0 ? x32 : ref_round(x32, shift, rm);
                REQUIRE(srs_one<int16, acc32>(x32, shift) == ref_saturate<int16>(r32, sm));
            }
        }
    }
}

TEST_CASE("SRS saturation modes", "[aie_api][srs]") {
    ScopedCoreModes guard;
    const std::int64_t xs[] = {200, -200, 127, -128, -129, 128, 0, -1};
    SECTION("none wraps") {
        aie::set_saturation(saturation_mode::none);
        const int8 e[] = {-56, 56, 127, -128, 127, -128, 0, -1};
        for (int i = 0; i < 8; ++i) CHECK(srs_one<int8>(xs[i], 0) == e[i]);
        CHECK(srs_one<uint8>(-5, 0) == 251);
    }
    SECTION("saturate clamps to the type range") {
        aie::set_saturation(saturation_mode::saturate);
        const int8 e[] = {127, -128, 127, -128, -128, 127, 0, -1};
        for (int i = 0; i < 8; ++i) CHECK(srs_one<int8>(xs[i], 0) == e[i]);
        CHECK(srs_one<uint8>(-5, 0) == 0);
        CHECK(srs_one<uint8>(300, 0) == 255);
        CHECK(srs_one<int16>(std::int64_t{1} << 40, 0) == 32767);
        CHECK(srs_one<int32>(-(std::int64_t{1} << 40), 0) == std::numeric_limits<int32>::min());
    }
    SECTION("symmetric clamps to +-max") {
        aie::set_saturation(saturation_mode::symmetric);
        const int8 e[] = {127, -127, 127, -127, -127, 127, 0, -1};
        for (int i = 0; i < 8; ++i) CHECK(srs_one<int8>(xs[i], 0) == e[i]);
        CHECK(srs_one<uint8>(-5, 0) == 0);
        CHECK(srs_one<int16>(-40000, 0) == -32767);
    }
}

TEST_CASE("SRS with negative shifts multiplies, then saturates", "[aie_api][srs]") {
    ScopedCoreModes guard;
    aie::set_saturation(saturation_mode::none);
    CHECK(srs_one<int16>(5, -3) == 40);
    CHECK(srs_one<int16>(-5, -3) == -40);
    CHECK(srs_one<int16>(5000, -3) == static_cast<int16>(40000 - 65536));
    CHECK(srs_one<int32>(1, -70) == 0);
    aie::set_saturation(saturation_mode::saturate);
    CHECK(srs_one<int16>(5000, -3) == 32767);
    CHECK(srs_one<int16>(-5000, -3) == -32768);
    CHECK(srs_one<int32>(1, -70) == std::numeric_limits<int32>::max());
    CHECK(srs_one<int32>(-1, -70) == std::numeric_limits<int32>::min());
}

TEST_CASE("SRS with very large shifts leaves the rounded sign", "[aie_api][srs]") {
    ScopedCoreModes guard;
    aie::set_rounding(rounding_mode::floor);
    CHECK(srs_one<int32>(-5, 70) == -1);
    CHECK(srs_one<int32>(5, 70) == 0);
    aie::set_rounding(rounding_mode::ceil);
    CHECK(srs_one<int32>(5, 70) == 1);
    CHECK(srs_one<int32>(-5, 70) == 0);
    aie::set_rounding(rounding_mode::conv_even);
    CHECK(srs_one<int32>(std::numeric_limits<std::int64_t>::min(), 63) == -1);
    CHECK(srs_one<int32>(std::numeric_limits<std::int64_t>::min(), 64) == 0); // -0.5 -> even 0
}

TEST_CASE("accum from_vector shifts up and to_vector shifts back", "[aie_api][accum]") {
    ScopedCoreModes guard;
    aie::vector<int16, 16> v;
    for (unsigned i = 0; i < 16; ++i) v[i] = static_cast<int16>(static_cast<int>(i) * 1000 - 8000);
    aie::accum<acc32, 16> a;
    a.from_vector(v, 4);
    for (unsigned i = 0; i < 16; ++i) CHECK(a.lane(i) == v[i] * 16);
    CHECK(a.to_vector<int16>(4) == v);
    aie::accum<acc64, 16> b(v, 20);
    CHECK(b.lane(3) == static_cast<std::int64_t>(v[3]) * (1 << 20));
    CHECK(b.to_vector<int16>(20) == v);
    // from_vector with a negative shift shifts down (floor)
    aie::accum<acc32, 16> c;
    c.from_vector(v, -3);
    CHECK(c.lane(0) == -1000);
    CHECK(c.lane(1) == (-7000 >> 3));
    // acc32 lanes wrap on up-shift overflow
    aie::accum<acc32, 16> d;
    d.from_vector(aie::broadcast<int32, 16>(0x40000001), 2);
    CHECK(d.lane(0) == 4);
    // accumulator class conversion
    aie::accum<acc64, 16> e = a;
    CHECK(e.lane(5) == a.lane(5));
}

TEST_CASE("float accumulator to bfloat16 honours the rounding mode", "[aie_api][bf16]") {
    ScopedCoreModes guard;
    // 1 + 2^-8 is exactly half way between bf16 1.0 (0x3F80) and 1.0078125 (0x3F81).
    const float tie_even = bf(0x3F80) + std::ldexp(1.0f, -8);
    // 1.0078125 + 2^-8: half way between 0x3F81 and 0x3F82.
    const float tie_odd = bf(0x3F81) + std::ldexp(1.0f, -8);
    const float above = bf(0x3F80) + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -12);
    struct Row {
        rounding_mode mode;
        std::uint16_t e_tie_even, e_tie_odd, e_above;
    };
    const Row rows[] = {
        {rounding_mode::floor, 0x3F80, 0x3F81, 0x3F80},        {rounding_mode::symmetric_floor, 0x3F80, 0x3F81, 0x3F80},
        {rounding_mode::ceil, 0x3F81, 0x3F82, 0x3F81},         {rounding_mode::symmetric_ceil, 0x3F81, 0x3F82, 0x3F81},
        {rounding_mode::positive_inf, 0x3F81, 0x3F82, 0x3F81}, {rounding_mode::symmetric_inf, 0x3F81, 0x3F82, 0x3F81},
        {rounding_mode::negative_inf, 0x3F80, 0x3F81, 0x3F81}, {rounding_mode::symmetric_zero, 0x3F80, 0x3F81, 0x3F81},
        {rounding_mode::conv_even, 0x3F80, 0x3F82, 0x3F81},    {rounding_mode::conv_odd, 0x3F81, 0x3F81, 0x3F81},
    };
    for (const Row& row : rows) {
        aie::set_rounding(row.mode);
        aie::accum<accfloat, 16> acc;
        acc.lane(0) = tie_even;
        acc.lane(1) = -tie_even;
        acc.lane(2) = tie_odd;
        acc.lane(3) = -tie_odd;
        acc.lane(4) = above;
        acc.lane(5) = std::numeric_limits<float>::infinity();
        acc.lane(6) = std::numeric_limits<float>::quiet_NaN();
        const auto out = acc.to_vector<bfloat16>();
        INFO("mode " << static_cast<unsigned>(row.mode));
        CHECK(out[0].bits == row.e_tie_even);
        CHECK(out[1].bits == (row.e_tie_even | 0x8000)); // magnitude rounding: sign-symmetric
        CHECK(out[2].bits == row.e_tie_odd);
        CHECK(out[3].bits == (row.e_tie_odd | 0x8000));
        CHECK(out[4].bits == row.e_above);
        CHECK(out[5].bits == 0x7F80);
        CHECK(std::isnan(float(out[6])));
    }
    // conv_even agrees with npusim::bfloat16's round-to-nearest-even on random floats
    aie::set_rounding(rounding_mode::conv_even);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1e6f, 1e6f);
    for (int i = 0; i < 1000; ++i) {
        aie::accum<accfloat, 16> acc;
        const float f = dist(rng);
        acc.lane(0) = f;
        REQUIRE(acc.to_vector<bfloat16>()[0].bits == npusim::bfloat16(f).bits);
    }
}

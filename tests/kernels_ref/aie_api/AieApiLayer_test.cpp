// Unit tests of the AIE-API host layer itself: SRS rounding and saturation, float -> bf16 rounding,
// element-wise arithmetic, shuffles and other reshapes, reductions, mmul against a naive product,
// iterators, event hook, core-mode state.
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

TEST_CASE("integer add, sub, neg and abs wrap, bf16 add rounds with the mode", "[aie_api][arith]") {
    ScopedCoreModes guard;
    const auto a = aie::broadcast<int8, 32>(100);
    const auto b = aie::broadcast<int8, 32>(100);
    CHECK(aie::add(a, b)[0] == -56);
    CHECK(aie::sub(aie::broadcast<int8, 32>(-100), b)[7] == 56);
    CHECK(aie::neg(aie::broadcast<int16, 32>(-32768))[0] == -32768);
    CHECK(aie::abs(aie::broadcast<int16, 32>(-32768))[0] == -32768);
    CHECK(aie::abs(aie::broadcast<int16, 32>(-5))[0] == 5);
    CHECK(aie::add(aie::broadcast<uint8, 64>(250), static_cast<uint8>(10))[63] == 4);
    CHECK(aie::add(aie::broadcast<int32, 16>(std::numeric_limits<int32>::max()), 1)[0] ==
          std::numeric_limits<int32>::min());
    // bf16: 1.0 + 2^-8 is a tie -> floor truncates, conv_even keeps 1.0, ceil goes up
    const auto one = aie::broadcast<bfloat16, 16>(1.0f);
    const auto tiny = aie::broadcast<bfloat16, 16>(std::ldexp(1.0f, -8));
    aie::set_rounding(rounding_mode::floor);
    CHECK(aie::add(one, tiny)[0].bits == 0x3F80);
    aie::set_rounding(rounding_mode::ceil);
    CHECK(aie::add(one, tiny)[0].bits == 0x3F81);
    aie::set_rounding(rounding_mode::conv_odd);
    CHECK(aie::add(one, tiny)[0].bits == 0x3F81);
    CHECK(float(aie::sub(one, one)[3]) == 0.0f);
    // float vectors are IEEE
    const auto f = aie::add(aie::broadcast<float, 16>(1.5f), aie::broadcast<float, 16>(2.25f));
    CHECK(f[9] == 3.75f);
}

TEST_CASE("mul / mac / msc / negmul and accumulator arithmetic", "[aie_api][arith]") {
    ScopedCoreModes guard;
    std::mt19937 rng(3);
    aie::vector<int16, 32> x, y;
    for (unsigned i = 0; i < 32; ++i) {
        x[i] = static_cast<int16>(rng());
        y[i] = static_cast<int16>(rng());
    }
    x[0] = -32768;
    y[0] = -32768;
    const aie::accum<acc32, 32> p = aie::mul(x, y);
    static_assert(std::is_same_v<decltype(aie::mul(x, y)), aie::accum<acc32, 32>>);
    static_assert(std::is_same_v<decltype(aie::mul(aie::vector<int32, 16>{}, int32{3})), aie::accum<acc64, 16>>);
    static_assert(std::is_same_v<decltype(aie::mul(aie::vector<bfloat16, 16>{}, aie::vector<bfloat16, 16>{})),
                                 aie::accum<accfloat, 16>>);
    static_assert(std::is_same_v<decltype(aie::mul<acc64>(x, y)), aie::accum<acc64, 32>>);
    for (unsigned i = 0; i < 32; ++i) REQUIRE(p.lane(i) == static_cast<std::int32_t>(x[i]) * y[i]);
    const auto m = aie::mac(p, x, y);
    const auto s = aie::msc(m, x, y);
    const auto n = aie::negmul(x, y);
    for (unsigned i = 0; i < 32; ++i) {
        const std::int64_t prod = static_cast<std::int64_t>(x[i]) * y[i];
        REQUIRE(m.lane(i) == static_cast<std::int32_t>(static_cast<std::uint32_t>(2 * prod)));
        REQUIRE(s.lane(i) == p.lane(i));
        REQUIRE(n.lane(i) == -p.lane(i));
    }
    // mixed u8 x int16 scalar, scalar first and last
    const auto u = aie::broadcast<uint8, 32>(255);
    const aie::accum<acc32, 32> q = aie::mac(aie::mul(u, int16{-3}), int16{2}, u);
    CHECK(q.lane(0) == -255);
    // accumulator add/sub
    const auto t = aie::add(p, p);
    const auto z = aie::sub(t, p);
    CHECK(z.lane(4) == p.lane(4));
    // accumulate<Lanes>(coeff, start, data...)
    const aie::vector<int16, 16> coeff(int16{0}, int16{5}, int16{-7}, int16{11});
    const auto d0 = aie::broadcast<uint8, 32>(2);
    const auto d1 = aie::broadcast<uint8, 32>(3);
    const auto d2 = aie::broadcast<uint8, 32>(4);
    const auto acc = aie::accumulate<32>(coeff, 1, d0, d1, d2);
    CHECK(acc.lane(31) == 5 * 2 - 7 * 3 + 11 * 4);
    const auto acc2 = aie::accumulate<32>(acc, coeff, 1, d0);
    CHECK(acc2.lane(0) == acc.lane(0) + 10);
    // bf16 x bf16 products are exact in the float accumulator
    const auto bx = aie::broadcast<bfloat16, 16>(bf(0x3FFF)); // 1.9921875
    const auto prod = aie::mul(bx, bx);
    CHECK(prod.lane(0) == 1.9921875f * 1.9921875f);
}

TEST_CASE("max/min/compare/select/masks", "[aie_api][compare]") {
    aie::vector<int16, 32> a, b;
    for (unsigned i = 0; i < 32; ++i) {
        a[i] = static_cast<int16>(static_cast<int>(i) - 16);
        b[i] = static_cast<int16>(16 - static_cast<int>(i));
    }
    const auto mx = aie::max(a, b);
    const auto mn = aie::min(a, b);
    for (unsigned i = 0; i < 32; ++i) {
        CHECK(mx[i] == std::max(a[i], b[i]));
        CHECK(mn[i] == std::min(a[i], b[i]));
    }
    CHECK(aie::max(a, int16{0})[0] == 0);
    CHECK(aie::min(int16{-3}, a)[31] == -3);
    const aie::mask<32> lt = aie::lt(a, b);
    const aie::mask<32> eq = aie::eq(a, b);
    const aie::mask<32> ge = aie::ge(a, b);
    CHECK(lt.count() == 16);
    CHECK(eq.count() == 1);
    CHECK(eq.test(16));
    CHECK((lt | ge).full());
    CHECK((lt & ge).empty());
    CHECK((~lt) == ge);
    CHECK(aie::gt(a, int16{0}).count() == 15);
    CHECK(aie::le(int16{0}, a).count() == 16);
    CHECK(aie::neq(a, b).count() == 31);
    const auto sel = aie::select(a, b, lt);
    for (unsigned i = 0; i < 32; ++i) CHECK(sel[i] == (lt[i] ? b[i] : a[i]));
    const auto sel2 = aie::select(int16{7}, b, lt);
    CHECK(sel2[20] == 7);
    CHECK(sel2[0] == b[0]);
    const auto sel3 = aie::select(a, int16{9}, lt);
    CHECK(sel3[0] == 9);
    auto m = aie::mask<64>::from_uint64(0x8000000000000001ull);
    CHECK(m.count() == 2);
    CHECK(m.to_uint32(1) == 0x80000000u);
    m.clear(0);
    CHECK(m.clz() == 0);
    CHECK(aie::mask<16>(true).full());
    // bf16 compares as floats (-0 == +0; negative values order correctly)
    auto x = aie::broadcast<bfloat16, 16>(-1.0f);
    x[1] = bfloat16::from_bits(0x8000);
    x[2] = 2.0f;
    const auto relu = aie::max(x, aie::zeros<bfloat16, 16>());
    CHECK(float(relu[0]) == 0.0f);
    CHECK(float(relu[1]) == 0.0f);
    CHECK(float(relu[2]) == 2.0f);
    CHECK(aie::lt(x, aie::zeros<bfloat16, 16>()).count() == 14);
}

TEST_CASE("reductions", "[aie_api][reduce]") {
    ScopedCoreModes guard;
    aie::vector<int32, 16> v;
    for (unsigned i = 0; i < 16; ++i) v[i] = static_cast<int32>(i * 7 % 16) - 5;
    CHECK(aie::reduce_max(v) == 10);
    CHECK(aie::reduce_min(v) == -5);
    CHECK(aie::reduce_add(v) == 120 - 80);
    CHECK(aie::reduce_add(aie::broadcast<int8, 64>(100)) == static_cast<int8>(6400 % 256));
    CHECK(aie::reduce_max(aie::broadcast<uint8, 64>(200)) == 200);
    aie::vector<bfloat16, 32> b = aie::broadcast<bfloat16, 32>(-3.0f);
    b[17] = -0.5f;
    CHECK(float(aie::reduce_max(b)) == -0.5f);
    CHECK(float(aie::reduce_min(b)) == -3.0f);
    aie::set_rounding(rounding_mode::conv_even);
    CHECK(float(aie::reduce_add(aie::broadcast<bfloat16, 32>(0.5f))) == 16.0f);
    aie::accum<accfloat, 16> fa;
    for (unsigned i = 0; i < 16; ++i) fa.lane(i) = static_cast<float>(i);
    CHECK(aie::reduce_add(fa) == 120.0f);
}

TEST_CASE("shuffle_up / shuffle_down and their fill / replicate / rotate forms", "[aie_api][shuffle]") {
    aie::vector<int16, 32> v, w;
    for (unsigned i = 0; i < 32; ++i) {
        v[i] = static_cast<int16>(i);
        w[i] = static_cast<int16>(100 + i);
    }
    for (unsigned n : {0u, 1u, 3u, 16u, 31u, 32u}) {
        INFO("n = " << n);
        const auto up = aie::shuffle_up(v, n);
        const auto upf = aie::shuffle_up_fill(v, w, n);
        const auto upr = aie::shuffle_up_replicate(v, n);
        const auto uprot = aie::shuffle_up_rotate(v, n);
        const auto dn = aie::shuffle_down(v, n);
        const auto dnf = aie::shuffle_down_fill(v, w, n);
        const auto dnr = aie::shuffle_down_replicate(v, n);
        const auto dnrot = aie::shuffle_down_rotate(v, n);
        for (unsigned i = 0; i < 32; ++i) {
            if (i >= n) {
                REQUIRE(up[i] == static_cast<int16>(i - n));
                REQUIRE(upf[i] == static_cast<int16>(i - n));
                REQUIRE(upr[i] == static_cast<int16>(i - n));
            } else {
                REQUIRE(up[i] == 0);
                REQUIRE(upf[i] == static_cast<int16>(100 + 32 - n + i));
                REQUIRE(upr[i] == 0); // v[0]
            }
            if (i + n < 32) {
                REQUIRE(dn[i] == static_cast<int16>(i + n));
                REQUIRE(dnf[i] == static_cast<int16>(i + n));
                REQUIRE(dnr[i] == static_cast<int16>(i + n));
            } else {
                REQUIRE(dn[i] == 0);
                REQUIRE(dnf[i] == static_cast<int16>(100 + i + n - 32));
                REQUIRE(dnr[i] == 31); // v[N-1]
            }
            REQUIRE(uprot[i] == static_cast<int16>((i + 32 - n % 32) % 32));
            REQUIRE(dnrot[i] == static_cast<int16>((i + n) % 32));
        }
    }
    CHECK(aie::shuffle_up_replicate(aie::broadcast<uint8, 64>(9), 5)[0] == 9);
}

TEST_CASE("filter, interleave, concat, reverse, transpose, extract/insert/grow", "[aie_api][reshape]") {
    aie::vector<int32, 16> v;
    for (unsigned i = 0; i < 16; ++i) v[i] = static_cast<int32>(i);
    const auto e1 = aie::filter_even(v, 1), o1 = aie::filter_odd(v, 1);
    const auto e2 = aie::filter_even(v, 2), o4 = aie::filter_odd(v, 4);
    const int32 ee1[] = {0, 2, 4, 6, 8, 10, 12, 14}, oo1[] = {1, 3, 5, 7, 9, 11, 13, 15};
    const int32 ee2[] = {0, 1, 4, 5, 8, 9, 12, 13}, oo4[] = {4, 5, 6, 7, 12, 13, 14, 15};
    for (unsigned i = 0; i < 8; ++i) {
        CHECK(e1[i] == ee1[i]);
        CHECK(o1[i] == oo1[i]);
        CHECK(e2[i] == ee2[i]);
        CHECK(o4[i] == oo4[i]);
    }
    aie::vector<int32, 16> w;
    for (unsigned i = 0; i < 16; ++i) w[i] = static_cast<int32>(100 + i);
    const auto [lo, hi] = aie::interleave_zip(v, w, 2);
    CHECK(lo[0] == 0);
    CHECK(lo[1] == 1);
    CHECK(lo[2] == 100);
    CHECK(lo[3] == 101);
    CHECK(lo[4] == 2);
    CHECK(hi[0] == 8);
    CHECK(hi[15] == 115);
    const auto [ev, od] = aie::interleave_unzip(lo, hi, 2);
    CHECK(ev == v);
    CHECK(od == w);
    for (unsigned c : {1u, 4u, 8u, 16u}) {
        const auto [zl, zh] = aie::interleave_zip(v, w, c);
        const auto [ul, uh] = aie::interleave_unzip(zl, zh, c);
        CHECK(ul == v);
        CHECK(uh == w);
    }
    const auto cat = aie::concat(v, w);
    static_assert(decltype(cat)::size() == 32);
    CHECK(cat[16] == 100);
    CHECK(cat.extract<16>(1) == w);
    const auto cat4 = aie::concat(e1, o1, e2, o4);
    CHECK(cat4[24] == 4);
    CHECK(aie::reverse(v)[0] == 15);
    // transpose of a row-major 4x4 and 2x8
    const auto t44 = aie::transpose(v, 4, 4);
    CHECK(t44[1] == 4);
    CHECK(t44[4] == 1);
    const auto t28 = aie::transpose(v, 2, 8);
    for (unsigned r = 0; r < 2; ++r)
        for (unsigned c = 0; c < 8; ++c) CHECK(t28[c * 2 + r] == v[r * 8 + c]);
    const auto t16 = aie::transpose(v, 1, 16);
    CHECK(t16 == v);
    auto g = v.grow<32>(1);
    CHECK(g[0] == 0);
    CHECK(g[16] == 0);
    CHECK(g[31] == 15);
    auto gr = e1.grow_replicate<16>();
    CHECK(gr[8] == 0);
    CHECK(gr[15] == 14);
    g.insert(0, w);
    CHECK(g[3] == 103);
    const auto bytes = v.cast_to<uint8>();
    static_assert(decltype(bytes)::size() == 64);
    CHECK(bytes[4] == 1);
    // element-list constructor: the rest is zero
    const aie::vector<int16, 16> list(int16{3}, int16{4}, 5);
    CHECK(list[2] == 5);
    CHECK(list[3] == 0);
    // concatenating constructor
    const aie::vector<int32, 32> both(v, w);
    CHECK(both == cat);
}

TEST_CASE("aie::mmul matches a naive product for every supported shape", "[aie_api][mmul]") {
    ScopedCoreModes guard;
    std::mt19937 rng(99);
    auto check_int = [&]<unsigned M, unsigned K, unsigned N, typename TA, typename TB, typename Tag>() {
        using MM = aie::mmul<M, K, N, TA, TB, Tag>;
        using S = typename MM::accum_type::storage_type;
        for (int iter = 0; iter < 30; ++iter) {
            aie::vector<TA, M * K> a;
            aie::vector<TB, K * N> b;
            aie::vector<int32, M * N> c0;
            for (unsigned i = 0; i < M * K; ++i)
                a[i] = iter == 0 ? std::numeric_limits<TA>::min() : static_cast<TA>(rng());
            for (unsigned i = 0; i < K * N; ++i)
                b[i] = iter == 0 ? std::numeric_limits<TB>::min() : static_cast<TB>(rng());
            for (unsigned i = 0; i < M * N; ++i) c0[i] = static_cast<int32>(rng());
            MM mm(c0);
            mm.mac(a, b);
            MM mm2;
            mm2.mul(a, b);
            const auto acc = mm.to_accum();
            const auto acc2 = mm2.to_accum();
            for (unsigned i = 0; i < M; ++i)
                for (unsigned j = 0; j < N; ++j) {
                    std::int64_t sum = 0;
                    for (unsigned q = 0; q < K; ++q)
                        sum += static_cast<std::int64_t>(a[i * K + q]) * static_cast<std::int64_t>(b[q * N + j]);
                    const auto expect_mul = static_cast<S>(static_cast<std::make_unsigned_t<S>>(sum));
                    const auto expect_mac = static_cast<S>(static_cast<std::make_unsigned_t<S>>(sum + c0[i * N + j]));
                    INFO("shape " << M << "x" << K << "x" << N << " i=" << i << " j=" << j);
                    REQUIRE(acc2.lane(i * N + j) == expect_mul);
                    REQUIRE(acc.lane(i * N + j) == expect_mac);
                }
        }
    };
    // int16 x int16 (AIE2 4x4x4, AIE2P 4x4x8, and others), acc32 and acc64
    check_int.operator()<4, 4, 4, int16, int16, accauto>();
    check_int.operator()<4, 4, 4, int16, int16, acc64>();
    check_int.operator()<4, 4, 8, int16, int16, accauto>();
    check_int.operator()<4, 4, 8, int16, int16, acc64>();
    check_int.operator()<2, 4, 8, int16, int16, accauto>();
    check_int.operator()<4, 8, 8, int16, int16, accauto>();
    check_int.operator()<2, 8, 8, int16, int16, acc64>();
    check_int.operator()<8, 2, 8, int16, int16, acc32>();
    check_int.operator()<4, 4, 4, uint16, int16, accauto>();
    check_int.operator()<4, 4, 4, int16, int16, accfloat>(); // integer product asked for accfloat: acc32
    static_assert(std::is_same_v<aie::mmul<4, 4, 4, int16, int16, accfloat>::accum_type, aie::accum<acc32, 16>>);
    static_assert(std::is_same_v<aie::mmul<4, 4, 4, int16, int16>::accum_type, aie::accum<acc32, 16>>);
    // int8 x int8 (AIE2 4x8x8, AIE2P 8x8x8, ...)
    check_int.operator()<4, 8, 4, int8, int8, accauto>();
    check_int.operator()<4, 8, 8, int8, int8, accauto>();
    check_int.operator()<8, 8, 8, int8, int8, accauto>();
    check_int.operator()<4, 16, 8, int8, int8, accauto>();
    check_int.operator()<8, 8, 4, uint8, int8, accauto>();
    check_int.operator()<2, 8, 8, uint8, uint8, accauto>();
    // mixed widths
    check_int.operator()<4, 4, 8, int16, int8, accauto>();
    check_int.operator()<4, 4, 8, int8, int16, accauto>();

    // bfloat16: exact products, summed in order in single precision, then added to C
    auto check_bf16 = [&]<unsigned M, unsigned K, unsigned N>() {
        using MM = aie::mmul<M, K, N, bfloat16, bfloat16>;
        static_assert(std::is_same_v<typename MM::accum_type, aie::accum<accfloat, M * N>>);
        std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
        for (int iter = 0; iter < 30; ++iter) {
            aie::vector<bfloat16, M * K> a;
            aie::vector<bfloat16, K * N> b;
            aie::vector<float, M * N> c0;
            for (unsigned i = 0; i < M * K; ++i) a[i] = dist(rng);
            for (unsigned i = 0; i < K * N; ++i) b[i] = dist(rng);
            for (unsigned i = 0; i < M * N; ++i) c0[i] = dist(rng);
            MM mm(c0);
            mm.mac(a, b);
            const auto out = mm.template to_vector<float>();
            for (unsigned i = 0; i < M; ++i)
                for (unsigned j = 0; j < N; ++j) {
                    double exact = c0[i * N + j];
                    float seq = 0;
                    for (unsigned q = 0; q < K; ++q) {
                        exact += static_cast<double>(float(a[i * K + q])) * float(b[q * N + j]);
                        seq += float(a[i * K + q]) * float(b[q * N + j]);
                    }
                    REQUIRE(out[i * N + j] == c0[i * N + j] + seq);
                    REQUIRE(std::abs(out[i * N + j] - exact) <= 1e-5 * (1.0 + std::abs(exact)));
                }
        }
    };
    check_bf16.operator()<4, 8, 4>();
    check_bf16.operator()<4, 8, 8>();
    check_bf16.operator()<8, 8, 8>();
    check_bf16.operator()<8, 8, 4>();
    check_bf16.operator()<4, 16, 4>();

    // assignment from an accumulator and to_vector with a shift
    using MM8 = aie::mmul<4, 8, 8, int8, int8>;
    MM8 m8 = aie::zeros<acc32, MM8::size_C>();
    m8.mac(aie::broadcast<int8, 32>(-128), aie::broadcast<int8, 64>(-128));
    aie::set_saturation(saturation_mode::saturate);
    aie::set_rounding(rounding_mode::positive_inf);
    CHECK(m8.to_vector<int8>(10)[0] == 127); // 8 * 16384 >> 10 = 128 -> saturates
    CHECK(m8.to_vector<int16>(10)[31] == 128);
}

TEST_CASE("vector iterators view memory as vectors", "[aie_api][iterator]") {
    std::vector<int16> buf(128);
    for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<int16>(i);
    auto it = aie::begin_vector<32>(buf.data());
    auto cit = aie::cbegin_vector<32>(buf.data());
    const aie::vector<int16, 32> first = *cit++;
    CHECK(first[5] == 5);
    CHECK((*cit)[0] == 32);
    CHECK(cit[1][0] == 64);
    *it++ = aie::broadcast<int16, 32>(-1);
    CHECK(buf[31] == -1);
    CHECK(buf[32] == 32);
    (*it)[0] = 77;
    CHECK(buf[32] == 77);
    it += 2;
    *it = aie::add(*it, int16{1000});
    CHECK(buf[96] == 1096);
    auto rit = aie::begin_restrict_vector<32>(buf.data());
    CHECK(it - rit == 3);
    CHECK(rit != it);
    CHECK((rit + 3) == it);
    auto cr = aie::cbegin_restrict_vector<16>(buf.data());
    CHECK((*++cr)[0] == -1); // buf[16], overwritten above
    CHECK((*++cr)[0] == 77); // buf[32]
}

TEST_CASE("load/store, zeros/broadcast, native types and intrinsics", "[aie_api][basic]") {
    ScopedCoreModes guard;
    std::vector<int32> mem(48);
    for (std::size_t i = 0; i < mem.size(); ++i) mem[i] = static_cast<int32>(i * i);
    const auto v = aie::load_v<16>(mem.data() + 1); // any alignment on the host
    CHECK(v[0] == 1);
    const aie::vector<int32> nat = aie::load_v(mem.data());
    static_assert(decltype(nat)::size() == 16);
    static_assert(aie::vector<bfloat16>::size() == 32);
    static_assert(aie::vector<int8>::size() == 64);
    aie::store_v(mem.data() + 32, v);
    CHECK(mem[47] == 16 * 16);
    CHECK(aie::zeros<int16, 32>()[31] == 0);
    const auto za = aie::zeros<acc32, 32>();
    static_assert(std::is_same_v<decltype(za), const aie::accum<acc32, 32>>);
    CHECK(aie::broadcast<uint8>(7)[63] == 7);
    // native type names are aie::vector aliases
    static_assert(std::is_same_v<v16int32, aie::vector<int32, 16>>);
    static_assert(std::is_same_v<v32bfloat16, aie::vector<bfloat16, 32>>);
    v16int32 n = v;
    n = upd_elem(n, 3, 42);
    CHECK(ext_elem(n, 3) == 42);
    // shift_bytes: window of a:b starting at byte s
    v16int32 a = aie::load_v<16>(mem.data());
    v16int32 b = aie::load_v<16>(mem.data() + 16);
    const v16int32 s = shift_bytes(a, b, 8);
    CHECK(s[0] == a[2]);
    CHECK(s[13] == a[15]);
    CHECK(s[14] == b[0]);
    CHECK(s[15] == b[1]);
    CHECK(shift_bytes(a, a, 32)[0] == a[8]);
    CHECK(broadcast_zero_bfloat16() == aie::zeros<bfloat16, 32>());
    CHECK(bor(aie::broadcast<uint8, 64>(0x0F), aie::broadcast<uint8, 64>(0xF0))[0] == 0xFF);
    CHECK(aie::bit_xor(aie::broadcast<uint8, 64>(0x0F), uint8{0xFF})[1] == 0xF0);
    CHECK(aie::bit_not(aie::broadcast<int16, 32>(0))[2] == -1);
    CHECK(aie::upshift(aie::broadcast<int16, 32>(-3), 2)[0] == -12);
    CHECK(aie::downshift(aie::broadcast<int16, 32>(-13), 2)[0] == -4);
    set_sat();
    CHECK(aie::get_saturation() == saturation_mode::saturate);
    clr_sat();
    CHECK(aie::get_saturation() == saturation_mode::none);
    set_rnd(rnd_conv_even);
    CHECK(aie::get_rounding() == rounding_mode::conv_even);
    CHECK(get_rnd() == 12u);
    // float <-> fixed
    auto fx = aie::to_fixed<int16>(aie::broadcast<float, 16>(2.5f), 1);
    CHECK(fx[0] == 5);
    fx = aie::to_fixed<int16>(aie::broadcast<float, 16>(2.5f), 0);
    CHECK(fx[0] == 2); // ties to even
    CHECK(aie::to_fixed<int8>(aie::broadcast<float, 16>(1000.0f))[0] == 127);
    CHECK(aie::to_float(aie::broadcast<int32, 16>(6), 1)[0] == 3.0f);
    // numeric_limits<bfloat16>
    CHECK(std::numeric_limits<bfloat16>::lowest().bits == 0xFF7F);
    CHECK(float(std::numeric_limits<bfloat16>::max()) > 3.38e38f);
}

namespace {
std::vector<int> g_events;
void record_event(int e) { g_events.push_back(e); }
} // namespace

TEST_CASE("event0/event1 call the installed hook", "[aie_api][event]") {
    g_events.clear();
    event0(); // no hook: ignored
    npusim::aie_api::set_event_hook(&record_event);
    CHECK(npusim::aie_api::get_event_hook() == &record_event);
    event0();
    event1();
    event1();
    npusim::aie_api::set_event_hook(nullptr);
    event0();
    CHECK(g_events == std::vector<int>{0, 1, 1});
}

namespace {
std::deque<std::array<std::byte, 64>> g_cascade;
void cascade_put_test(const void* w) {
    std::array<std::byte, 64> a;
    std::memcpy(a.data(), w, 64);
    g_cascade.push_back(a);
}
void cascade_get_test(void* w) {
    std::memcpy(w, g_cascade.front().data(), 64);
    g_cascade.pop_front();
}
} // namespace

TEST_CASE("put_mcd / get_scd move one 512-bit word through the cascade hooks", "[aie_api][cascade]") {
    CHECK_THROWS_WITH(put_mcd(v16int32{}),
                      "put_mcd: no cascade is connected (the kernel runs outside a simulated core)");
    CHECK_THROWS_WITH(get_scd_v16int32(),
                      "get_scd: no cascade is connected (the kernel runs outside a simulated core)");
    npusim::aie_api::set_cascade_hooks(&cascade_put_test, &cascade_get_test);
    v16int32 v = broadcast_zero_to_v16int32();
    v = upd_elem(v, 0, 123456789);
    v = upd_elem(v, 15, -7);
    put_mcd(v);
    auto h = aie::broadcast<int16, 32>(int16(-3));
    put_mcd(h);
    aie::accum<acc32, 16> acc(aie::broadcast<int32, 16>(41));
    put_mcd(acc);
    REQUIRE(g_cascade.size() == 3);
    const v16int32 got = get_scd_v16int32();
    CHECK(ext_elem(got, 0) == 123456789);
    CHECK(ext_elem(got, 15) == -7);
    CHECK(ext_elem(got, 7) == 0);
    const v32int16 g16 = get_scd_v32int16();
    for (unsigned i = 0; i < 32; ++i) CHECK(g16[i] == -3);
    const auto ga = get_scd_v16acc32();
    CHECK(ga.to_vector<int32>(0)[5] == 41);
    CHECK(g_cascade.empty());
    npusim::aie_api::set_cascade_hooks(nullptr, nullptr);
}

TEST_CASE("core modes: defaults, save/restore", "[aie_api][modes]") {
    npusim::aie_api::reset_core_modes();
    CHECK(aie::get_rounding() == rounding_mode::floor);
    CHECK(aie::get_saturation() == saturation_mode::none);
    {
        ScopedCoreModes s(CoreModes{rounding_mode::conv_even, saturation_mode::saturate});
        CHECK(aie::get_rounding() == rounding_mode::conv_even);
        aie::set_saturation(saturation_mode::symmetric);
        CHECK(npusim::aie_api::get_core_modes() == CoreModes{rounding_mode::conv_even, saturation_mode::symmetric});
    }
    CHECK(npusim::aie_api::get_core_modes() == CoreModes{});
    aie::tile::current().set_rounding(rounding_mode::ceil);
    CHECK(aie::tile::current().get_rounding() == rounding_mode::ceil);
    npusim::aie_api::reset_core_modes();
}

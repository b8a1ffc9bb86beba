// Unit tests of the AIE-API host layer: element-wise arithmetic (wrap and bf16 rounding), mul/mac and
// accumulator arithmetic, compares, selects and masks, reductions, shuffles and other reshapes.
#include "AieTestData.hpp"

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

} // namespace

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
    const auto bx = aie::broadcast<bfloat16, 16>(npusim::test::aie_test_data::bf_bits(0x3FFF)); // 1.9921875
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

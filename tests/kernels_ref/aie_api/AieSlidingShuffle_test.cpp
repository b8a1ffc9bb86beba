// Intrinsics and AIE-API pieces of mlir-aie's image and bottleneck kernels, each against a plain
// scalar reference: extract_elem, shuffle(a, b, T<bits>_<R>x<C>_lo/hi), sliding_mul_ops /
// sliding_mul_xy_ops (filter2d.cc), swap_rounding, vector_decl_align, and the 64-bit accumulator
// moves lsrs / lups / put_mcd / get_scd_v16acc64 (aie2/bottleneck/*.cc).
#include <aie_api/aie.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <random>

namespace {

template <typename T, unsigned N>
aie::vector<T, N> iota_vec(int start) {
    aie::vector<T, N> v;
    for (unsigned i = 0; i < N; ++i) v[i] = static_cast<T>(start + int(i));
    return v;
}

} // namespace

TEST_CASE("extract_elem reads one lane", "[aie_api][intrinsics]") {
    const auto v = iota_vec<int32, 16>(-5);
    for (unsigned i = 0; i < 16; ++i) CHECK(extract_elem(v, int(i)) == -5 + int(i));
    // The sign operand picks sign or zero extension of 8/16-bit lanes, whatever the vector's type.
    CHECK(extract_elem(iota_vec<int8, 64>(-64), 3, 1) == -61);
    CHECK(extract_elem(iota_vec<int8, 64>(-64), 3, 0) == 195);
    CHECK(extract_elem(iota_vec<uint8, 64>(250), 2, 1) == -4);
    CHECK(extract_elem(iota_vec<uint16, 32>(65530), 1, 0) == 65531);
    CHECK(extract_elem(iota_vec<int16, 32>(-3), 0, 0) == 65533);
}

TEST_CASE("shuffle(a, b, mode) transposes the a:b matrix its mode names", "[aie_api][intrinsics][shuffle]") {
    const auto a = iota_vec<uint8, 64>(0), b = iota_vec<uint8, 64>(100);
    const auto x = [&](unsigned i) { return i < 64 ? a[i] : b[i - 64]; }; // the 128 bytes of a:b
    const auto lo = shuffle(a, b, T8_2x64_lo), hi = shuffle(a, b, T8_2x64_hi);
    for (unsigned i = 0; i < 32; ++i) { // byte interleave
        CHECK(lo[2 * i] == a[i]);
        CHECK(lo[2 * i + 1] == b[i]);
        CHECK(hi[2 * i] == a[32 + i]);
        CHECK(hi[2 * i + 1] == b[32 + i]);
    }
    const auto ev = shuffle(a, b, T8_64x2_lo), od = shuffle(a, b, T8_64x2_hi);
    for (unsigned i = 0; i < 64; ++i) { // byte deinterleave
        CHECK(ev[i] == x(2 * i));
        CHECK(od[i] == x(2 * i + 1));
    }
    const auto a16 = iota_vec<int16, 32>(-1000), b16 = iota_vec<int16, 32>(2000);
    const auto lo16 = shuffle(a16, b16, T16_2x32_lo);
    const auto hi32 = shuffle(iota_vec<int32, 16>(0), iota_vec<int32, 16>(50), T32_2x16_hi);
    for (unsigned i = 0; i < 16; ++i) {
        CHECK(lo16[2 * i] == a16[i]);
        CHECK(lo16[2 * i + 1] == b16[i]);
    }
    for (unsigned i = 0; i < 8; ++i) {
        CHECK(hi32[2 * i] == int32(8 + i));
        CHECK(hi32[2 * i + 1] == int32(58 + i));
    }
    // gray2rgba's broadcast: two T8_2x64_lo passes of a vector with itself repeat each byte 4 times.
    v64uint8 g = iota_vec<uint8, 64>(7);
    g = shuffle(g, g, T8_2x64_lo);
    g = shuffle(g, g, T8_2x64_lo);
    for (unsigned i = 0; i < 64; ++i) CHECK(g[i] == uint8(7 + i / 4));
}

TEST_CASE("sliding_mul_xy_ops computes a 3x3 filter as filter2d writes it", "[aie_api][sliding]") {
    constexpr unsigned Lanes = 32, Points = 8;
    using ops = aie::sliding_mul_xy_ops<Lanes, Points, 1, 1, int8, uint8>;
    static_assert(std::is_same_v<ops::accum_type, aie::accum<aie::acc32, 32>>);
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> pix(0, 255), coef(-128, 127);
    aie::vector<int8, 32> k;
    for (unsigned i = 0; i < 32; ++i) k[i] = static_cast<int8>((i % Points) < 3 ? coef(rng) : 0);
    aie::vector<uint8, 64> rows[3];
    for (auto& r : rows)
        for (unsigned i = 0; i < 64; ++i) r[i] = static_cast<uint8>(pix(rng));
    auto acc = ops::mul(k, 0, rows[0], 0);
    acc = ops::mac(acc, k, Points, rows[1], 0);
    acc = ops::mac(acc, k, 2 * Points, rows[2], 0);
    std::int32_t ref[Lanes];
    for (unsigned l = 0; l < Lanes; ++l) {
        std::int32_t s = 0;
        for (unsigned r = 0; r < 3; ++r)
            for (unsigned p = 0; p < Points; ++p) s += int(k[r * Points + p]) * int(rows[r][l + p]);
        ref[l] = s;
        CHECK(acc.lane(l) == s);
    }
    // filter2d stores with a shift and saturation to uint8: floor rounding, clamp to [0, 255].
    npusim::aie_api::ScopedCoreModes keep;
    set_sat();
    const auto out = acc.to_vector<uint8>(4);
    for (unsigned l = 0; l < Lanes; ++l) {
        const std::int32_t q = ref[l] >= 0 ? ref[l] / 16 : -((-ref[l] + 15) / 16); // floor division
        CHECK(int(out[l]) == (q < 0 ? 0 : q > 255 ? 255 : q));
    }
}

TEST_CASE("sliding_mul_ops honours the steps, wraps its indices and subtracts with msc",
          "[aie_api][sliding]") {
    using ops = aie::sliding_mul_ops<8, 4, 2, 3, 1, int16, int16, aie::acc64>;
    const auto c = iota_vec<int16, 16>(1);
    const auto d = iota_vec<int16, 32>(-16);
    const unsigned cs = 13, ds = 20; // indices past the ends wrap around
    const auto m = ops::mul(c, cs, d, ds);
    const auto n = ops::msc(m, c, cs, d, ds);
    for (unsigned l = 0; l < 8; ++l) {
        std::int64_t s = 0;
        for (unsigned p = 0; p < 4; ++p) s += std::int64_t(c[(cs + 2 * p) % 16]) * d[(ds + l + 3 * p) % 32];
        CHECK(m.lane(l) == s);
        CHECK(n.lane(l) == 0);
    }
}

TEST_CASE("swap_rounding and vector_decl_align", "[aie_api][modes]") {
    npusim::aie_api::ScopedCoreModes keep;
    aie::set_rounding(aie::rounding_mode::floor);
    CHECK(aie::swap_rounding(aie::rounding_mode::conv_even) == aie::rounding_mode::floor);
    CHECK(aie::get_rounding() == aie::rounding_mode::conv_even);
    CHECK(aie::tile::current().swap_rounding(aie::rounding_mode::ceil) == aie::rounding_mode::conv_even);
    CHECK(aie::swap_saturation(aie::saturation_mode::saturate) == aie::saturation_mode::none);
    CHECK(aie::get_saturation() == aie::saturation_mode::saturate);
    alignas(aie::vector_decl_align) static const uint16 table[8] = {1, 2, 3};
    CHECK(reinterpret_cast<std::uintptr_t>(table) % 64 == 0);
    CHECK(table[2] == 3);
}

TEST_CASE("lsrs and lups move 64-bit accumulator lanes with the core's modes", "[aie_api][intrinsics][acc64]") {
    npusim::aie_api::ScopedCoreModes keep;
    v16acc64 acc = undef_v16acc64();
    const std::int64_t vals[6] = {-17, 17, 24, 40, (std::int64_t(1) << 40) + 5, -(std::int64_t(1) << 40)};
    for (unsigned i = 0; i < 6; ++i) acc.lane(i) = vals[i];
    for (unsigned i = 6; i < 16; ++i) CHECK(acc.lane(i) == 0); // undef is zero on the host
    // floor rounding, no saturation: arithmetic shift, low 32 bits kept.
    auto v = lsrs(acc, 4, 1);
    CHECK(v[0] == -2);
    CHECK(v[1] == 1);
    CHECK(v[4] == std::int32_t((std::int64_t(1) << 36)) );
    // conv_even on exact ties: 24/16 = 1.5 -> 2, 40/16 = 2.5 -> 2.
    aie::set_rounding(aie::rounding_mode::conv_even);
    v = lsrs(acc, 4, 1);
    CHECK(v[2] == 2);
    CHECK(v[3] == 2);
    // saturation: signed clamps to int32, unsigned (sign 0) to [0, 2^32 - 1].
    aie::set_rounding(aie::rounding_mode::floor);
    set_sat();
    v = lsrs(acc, 0, 1);
    CHECK(v[4] == INT32_MAX);
    CHECK(v[5] == INT32_MIN);
    v = lsrs(acc, 0, 0);
    CHECK(v[0] == 0);
    CHECK(static_cast<std::uint32_t>(v[4]) == 0xFFFFFFFFu);
    CHECK(v[1] == 17);
    // lups sign-extends and shifts up.
    v16int32 w = aie::broadcast<int32, 16>(-1);
    w[1] = INT32_MAX;
    const auto up = lups(w, 3);
    CHECK(up.lane(0) == -8);
    CHECK(up.lane(1) == std::int64_t(INT32_MAX) * 8);
    CHECK(lsrs(lups(w, 0), 0, 1)[1] == INT32_MAX); // a round trip keeps the value
}

namespace {
std::deque<std::array<unsigned char, 64>> g_wire;
void wire_put(const void* w) {
    std::array<unsigned char, 64> a;
    std::memcpy(a.data(), w, 64);
    g_wire.push_back(a);
}
void wire_get(void* w) {
    std::memcpy(w, g_wire.front().data(), 64);
    g_wire.pop_front();
}
} // namespace

TEST_CASE("a v16acc64 crosses the cascade as two words and comes back unchanged", "[aie_api][cascade][acc64]") {
    npusim::aie_api::set_cascade_hooks(wire_put, wire_get);
    v16acc64 a;
    for (unsigned i = 0; i < 16; ++i) a.lane(i) = (std::int64_t(i) - 8) * (std::int64_t(1) << 40) + i;
    put_mcd(a);
    CHECK(g_wire.size() == 2);
    const auto b = get_scd_v16acc64();
    npusim::aie_api::set_cascade_hooks(nullptr, nullptr);
    CHECK(g_wire.empty());
    for (unsigned i = 0; i < 16; ++i) CHECK(b.lane(i) == a.lane(i));
}

// Register shifts, 32-bit accumulator upshift / SRS and the typed broadcasts
// (aie_api/detail/intrinsics_shift.hpp) against references written out here: shift(a, b, n) is the
// 512-bit window starting at element n of a:b (Peano's shift = shiftx(a, b, 0, n * sizeof(T)));
// sups widens with the chosen sign, shifts up and fits 32 bits with the saturation mode; ssrs / lsrs
// shift right with the rounding mode and fit 8 / 16 bits with the saturation mode (UG1583
// Shift-Round-Saturate: "based on global mode registers").
#include <aie_api/aie.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

namespace {
// Restores the reset modes when a test case ends.
struct ShiftSrsModes {
    ~ShiftSrsModes() {
        aie::set_rounding(aie::rounding_mode::floor);
        aie::set_saturation(aie::saturation_mode::none);
    }
};
} // namespace

TEST_CASE("shift(a, b, n) on 512-bit vectors: elements n .. n + L - 1 of a:b", "[aie_api][intrinsics]") {
    v32bfloat16 a, b;
    for (unsigned i = 0; i < 32; ++i) a[i] = bfloat16(static_cast<float>(i)), b[i] = bfloat16(100.0f + i);
    for (unsigned n : {0u, 1u, 4u, 8u, 16u, 28u, 31u}) {
        const v32bfloat16 r = shift(a, b, n);
        for (unsigned i = 0; i < 32; ++i) {
            const unsigned k = n + i;
            CHECK(static_cast<float>(r[i]) == (k < 32 ? static_cast<float>(k) : 100.0f + static_cast<float>(k - 32)));
        }
    }
    // magika's group2_copy: shift(undef, d, 28) puts d[0..11] in lanes 4..15.
    const v32bfloat16 w = shift(v32bfloat16{}, b, 28u);
    for (unsigned i = 4; i < 16; ++i) CHECK(w[i].bits == b[i - 4].bits);
    v64int8 x, y;
    for (unsigned i = 0; i < 64; ++i) x[i] = static_cast<int8>(i), y[i] = static_cast<int8>(-1 - static_cast<int>(i));
    const v64int8 s8 = shift(x, y, 60u);
    for (unsigned i = 0; i < 4; ++i) CHECK(s8[i] == static_cast<int8>(60 + i));
    CHECK(s8[4] == -1);
    v16int32 p, q;
    for (unsigned i = 0; i < 16; ++i) p[i] = static_cast<int32>(i), q[i] = static_cast<int32>(1000 + i);
    CHECK(shift(p, q, 15u)[1] == 1000);
    CHECK(shift(p, q, 16u) == p); // 64 bytes: the byte count is taken modulo one register
}

TEST_CASE("shift(acc, acc, n) on v16accfloat moves float lanes (magika's final summation)", "[aie_api][intrinsics]") {
    v16accfloat a, b;
    for (unsigned i = 0; i < 16; ++i)
        a.lane(i) = 0.5f * static_cast<float>(i), b.lane(i) = -1.0f - static_cast<float>(i);
    const v16accfloat r = shift(a, b, 8u);
    for (unsigned i = 0; i < 8; ++i) CHECK(r.lane(i) == a.lane(8 + i));
    for (unsigned i = 8; i < 16; ++i) CHECK(r.lane(i) == b.lane(i - 8));
    const v16accfloat s = aie::add(a, shift(a, undef_v16accfloat(), 8u));
    for (unsigned i = 0; i < 8; ++i) CHECK(s.lane(i) == a.lane(i) + a.lane(8 + i));
}

TEST_CASE("sups / ups_to_v*acc32: sign- or zero-extension, upshift, saturation mode on overflow",
          "[aie_api][intrinsics]") {
    ShiftSrsModes restore;
    v16int16 v;
    v[0] = -1, v[1] = 32767, v[2] = -32768, v[3] = 5;
    const v16acc32 s2 = sups(v, 2);
    CHECK(s2.lane(0) == -4);
    CHECK(s2.lane(1) == 32767 * 4);
    CHECK(s2.lane(2) == -32768 * 4);
    CHECK(s2.lane(3) == 20);
    const v16acc32 z = sups(v, 0, 0); // sign 0: zero-extended
    CHECK(z.lane(0) == 65535);
    CHECK(z.lane(2) == 32768);
    CHECK(ups_to_v16acc32(v, 2).lane(0) == -4);
    v32uint8 u;
    u[0] = 255, u[1] = 3;
    const v32acc32 su = sups(u, 2);
    CHECK(su.lane(0) == 1020);
    CHECK(su.lane(1) == 12);
    CHECK(sups(u, 2, 1).lane(0) == -4); // sign 1: 0xFF is -1
    // -32768 << 17 = -2^32: saturation none keeps the low 32 bits (0), saturate clamps.
    CHECK(sups(v, 17).lane(2) == 0);
    CHECK(sups(v, 17).lane(1) == static_cast<std::int32_t>(static_cast<std::uint32_t>(32767u << 17)));
    aie::set_saturation(aie::saturation_mode::saturate);
    CHECK(sups(v, 17).lane(2) == std::numeric_limits<std::int32_t>::min());
    CHECK(sups(v, 17).lane(1) == std::numeric_limits<std::int32_t>::max());
    aie::set_saturation(aie::saturation_mode::symmetric);
    CHECK(sups(v, 17).lane(2) == -std::numeric_limits<std::int32_t>::max());
    v32int16 w;
    w[31] = -7;
    CHECK(sups(w, 0).lane(31) == -7);
}

TEST_CASE("ssrs / lsrs: shift right with the rounding mode, fit with the saturation mode", "[aie_api][intrinsics]") {
    ShiftSrsModes restore;
    v32acc32 acc;
    acc.lane(0) = 12; // 1.5 after >> 3
    acc.lane(1) = -12; // -1.5
    acc.lane(2) = 2000; // 250
    acc.lane(3) = -2000; // -250
    acc.lane(4) = 20; // 2.5
    acc.lane(5) = -8; // -1
    aie::set_rounding(aie::rounding_mode::floor);
    aie::set_saturation(aie::saturation_mode::none);
    v32int8 r = ssrs(acc, 3);
    CHECK(r[0] == 1);
    CHECK(r[1] == -2);
    CHECK(r[2] == static_cast<int8>(250 - 256)); // low 8 bits
    aie::set_rounding(aie::rounding_mode::symmetric_inf);
    aie::set_saturation(aie::saturation_mode::saturate);
    r = ssrs(acc, 3);
    CHECK(r[0] == 2);
    CHECK(r[1] == -2);
    CHECK(r[2] == 127);
    CHECK(r[3] == -128);
    CHECK(r[4] == 3); // ties away from zero
    aie::set_rounding(aie::rounding_mode::conv_even);
    CHECK(ssrs(acc, 3)[4] == 2);
    aie::set_saturation(aie::saturation_mode::symmetric);
    CHECK(ssrs(acc, 3)[3] == -127);
    aie::set_saturation(aie::saturation_mode::saturate);
    const v32int8 un = ssrs(acc, 3, 0); // unsigned range, returned as its bits
    CHECK(static_cast<uint8>(un[2]) == 250);
    CHECK(static_cast<uint8>(un[5]) == 0);
    CHECK(static_cast<uint8>(ussrs(acc, 3)[2]) == 250);

    v16acc32 a16;
    a16.lane(0) = 190 << 8;
    a16.lane(1) = 100000;
    a16.lane(2) = -3;
    const v16int16 l = lsrs(a16, 1);
    CHECK(l[0] == (190 << 7));
    CHECK(l[1] == 32767);
    CHECK(l[2] == -2); // -1.5 -> conv_even -> -2
    CHECK(lsrs(a16, 1, 0)[2] == 0);
    CHECK(ulsrs(a16, 1)[1] == 50000);
    v32acc32 a32;
    a32.lane(30) = -70000;
    CHECK(lsrs(a32, 0)[30] == -32768);
    v16acc64 a64;
    a64.lane(3) = (std::int64_t{1} << 40) + 5;
    CHECK(lsrs(a64, 8) == lsrs(a64, 8, 1));
    CHECK(lsrs(a64, 8)[3] == std::numeric_limits<std::int32_t>::max());
}

TEST_CASE("broadcast_s8 / u8 / s16 / u16 / s32 / u32 fill a 512-bit register", "[aie_api][intrinsics]") {
    CHECK(broadcast_u16(190 << 8) == aie::broadcast<uint16, 32>(static_cast<uint16>(190 << 8)));
    CHECK(broadcast_s16(-3)[31] == -3);
    CHECK(broadcast_s32(0x3FC)[15] == 0x3FC);
    CHECK(broadcast_u32(7u)[0] == 7u);
    CHECK(broadcast_s8(-1)[63] == -1);
    CHECK(broadcast_u8(200)[63] == 200);
}

// The LUT loads, the T16_16x4 shuffle modes, the 64-bit native vectors and the native casts
// (aie_api/detail/intrinsics_lut.hpp, intrinsics_extra.hpp, intrinsics_v64.hpp, vector.hpp, accum.hpp)
// against references written out here. LUT model (UG1583 "Load 4x Operations" plus the [est] parts the
// header states): lane l reads through lut1 (l % 4 < 2) or lut2, the odd lanes from the copy 16 bytes
// further; offset 4e reads 16-bit entry e of a table laid out 8 entries per 128-bit word, each word
// followed by its copy; the entry lands in the low 16 bits of the lane's 64 bits, the rest zero; lanes
// 0..7 fill the (first) output, lanes 8..15 the second of the _2x form.
#include <aie_api/aie.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {
// A table of 256 16-bit entries value(e) in the duplicated layout; `copy_delta` is added to the
// second copy's entries so a test can see which copy a lane read.
std::vector<int16_t> lutload_table(int base, int copy_delta) {
    std::vector<int16_t> t(512);
    for (unsigned e = 0; e < 256; ++e) {
        t[16 * (e / 8) + e % 8] = static_cast<int16_t>(base + static_cast<int>(e));
        t[16 * (e / 8) + 8 + e % 8] = static_cast<int16_t>(base + static_cast<int>(e) + copy_delta);
    }
    return t;
}
int16_t lutload_lane16(const v64int8& v, unsigned lane, unsigned word) {
    int16_t x;
    std::memcpy(&x, v.data() + 8 * lane + 2 * word, 2);
    return x;
}
} // namespace

TEST_CASE("load_lut_2x_int8: entry offset/4 in each lane's low 16 bits, lanes 8..15 in the second vector",
          "[aie_api][intrinsics][lut]") {
    const auto ab = lutload_table(1000, 0), cd = lutload_table(1000, 0);
    v16int32 off;
    const unsigned entries[16] = {0, 1, 7, 8, 9, 15, 16, 100, 255, 254, 3, 64, 200, 128, 31, 33};
    for (unsigned l = 0; l < 16; ++l) off[l] = static_cast<int32>(4 * entries[l] + (l % 4)); // low bits ignored
    v64int8 y1, y2;
    load_lut_2x_int8(ab.data(), cd.data(), off, y1, y2);
    for (unsigned l = 0; l < 8; ++l) {
        CHECK(lutload_lane16(y1, l, 0) == 1000 + static_cast<int>(entries[l]));
        CHECK(lutload_lane16(y2, l, 0) == 1000 + static_cast<int>(entries[8 + l]));
        for (unsigned w = 1; w < 4; ++w) {
            CHECK(lutload_lane16(y1, l, w) == 0);
            CHECK(lutload_lane16(y2, l, w) == 0);
        }
    }
    // T16_16x4_lo gathers the lanes' entries into elements 0..15 (magika, AMD's parallel_lookup).
    const v32int16 g = shuffle(v32int16(y1), v32int16(y2), T16_16x4_lo);
    for (unsigned l = 0; l < 16; ++l) CHECK(g[l] == 1000 + static_cast<int>(entries[l]));
    for (unsigned l = 16; l < 32; ++l) CHECK(g[l] == 0);
    // The single load uses offset lanes 0..7 only.
    v64int8 s;
    v16int32 off2 = off;
    for (unsigned l = 8; l < 16; ++l) off2[l] = 4000000; // far outside the table: never read
    load_lut_int8(ab.data(), cd.data(), off2, s);
    CHECK(s == y1);
    v16uint32 uoff = v16uint32(off);
    v64int8 u1, u2;
    load_lut_2x_int8(ab.data(), cd.data(), uoff, u1, u2);
    CHECK(u1 == y1);
    CHECK(u2 == y2);
}

TEST_CASE("load_lut: lane l reads lut1 (l % 4 < 2) or lut2, the odd lanes from the second copy",
          "[aie_api][intrinsics][lut]") {
    const auto ab = lutload_table(0, 10000), cd = lutload_table(20000, 10000);
    v16int32 off;
    for (unsigned l = 0; l < 16; ++l) off[l] = static_cast<int32>(4 * (l + 40));
    v64int8 y1, y2;
    load_lut_2x_int8(ab.data(), cd.data(), off, y1, y2);
    for (unsigned l = 0; l < 16; ++l) {
        const int e = static_cast<int>(l) + 40;
        const int expect = (l % 4 < 2 ? 0 : 20000) + e + (l % 2 == 1 ? 10000 : 0);
        CHECK(lutload_lane16(l < 8 ? y1 : y2, l % 8, 0) == expect);
    }
}

TEST_CASE("shuffle T16_16x4 / T16_4x16 and the shuffle_ spellings", "[aie_api][intrinsics]") {
    v32int16 a, b;
    for (unsigned i = 0; i < 32; ++i) a[i] = static_cast<int16>(i), b[i] = static_cast<int16>(32 + i);
    // a:b as 16 rows of 4, transposed to 4 rows of 16: row c holds elements c, c + 4, c + 8, ...
    const v32int16 lo = shuffle(a, b, T16_16x4_lo), hi = shuffle(a, b, T16_16x4_hi);
    for (unsigned r = 0; r < 16; ++r) {
        CHECK(lo[r] == static_cast<int16>(4 * r));
        CHECK(lo[16 + r] == static_cast<int16>(4 * r + 1));
        CHECK(hi[r] == static_cast<int16>(4 * r + 2));
        CHECK(hi[16 + r] == static_cast<int16>(4 * r + 3));
    }
    // T16_4x16 is the inverse (interleaving) direction.
    CHECK(shuffle(lo, hi, T16_4x16_lo) == a);
    CHECK(shuffle(lo, hi, T16_4x16_hi) == b);
    CHECK(shuffle_T16_16x4_lo == T16_16x4_lo);
    CHECK(shuffle_T8_2x64_lo == T8_2x64_lo);
    // 32-bit 8x4: element 0, 4, ... of a:b (16 elements each).
    v16int32 p, q;
    for (unsigned i = 0; i < 16; ++i) p[i] = static_cast<int32>(i), q[i] = static_cast<int32>(16 + i);
    const v16int32 t = shuffle(p, q, T32_8x4_lo);
    for (unsigned r = 0; r < 8; ++r) CHECK(t[r] == static_cast<int32>(4 * r));
    CHECK(shuffle(t, shuffle(p, q, T32_8x4_hi), T32_4x8_lo) == p);
}

TEST_CASE("64-bit native vectors: size, extract, insert, broadcast of the pattern", "[aie_api][intrinsics]") {
    STATIC_REQUIRE(sizeof(v4bfloat16) == 8);
    STATIC_REQUIRE(sizeof(v4int16) == 8);
    STATIC_REQUIRE(sizeof(v2int32) == 8);
    STATIC_REQUIRE(sizeof(v8int8) == 8);
    v32bfloat16 a;
    for (unsigned i = 0; i < 32; ++i) a[i] = bfloat16(static_cast<float>(i) + 0.5f);
    const v4bfloat16 q = extract_v4bfloat16(a, 2);
    for (unsigned i = 0; i < 4; ++i) CHECK(q[i].bits == a[8 + i].bits);
    // magika's group2_copy: insert(a, 3, extract_v4bfloat16(b, 0)) replaces lanes 12..15.
    const v32bfloat16 b = insert(a, 7, q);
    for (unsigned i = 0; i < 32; ++i) CHECK(b[i].bits == (i >= 28 ? a[8 + i - 28].bits : a[i].bits));
    // broadcast_to_v32bfloat16(v4bfloat16): lane 4r + c holds p[c] (magika's bias per 4 channels).
    const v32bfloat16 bc = broadcast_to_v32bfloat16(q);
    for (unsigned i = 0; i < 32; ++i) CHECK(bc[i].bits == q[i % 4].bits);
    v32int16 w;
    for (unsigned i = 0; i < 32; ++i) w[i] = static_cast<int16>(-3 * static_cast<int>(i));
    const v4int16 w0 = extract_v4int16(w, 0);
    CHECK(w0[3] == -9);
    CHECK(broadcast_to_v32int16(w0)[7] == -9);
    CHECK(v4int16(q) == v4int16(extract_v4int16(v32int16(a), 2))); // a native cast keeps the bits
    // A pointer to a 64-bit vector steps 8 bytes (magika reads its bias as `v4bfloat16 *pb; *pb++`).
    int16_t mem[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const v4int16* pw = reinterpret_cast<const v4int16*>(mem);
    ++pw;
    CHECK((*pw)[0] == 5);
    CHECK_THROWS_WITH(extract_v4bfloat16(a, 8), "npusim aie_api: extract_v4bfloat16: part 8 of a register of 8 parts");
}

TEST_CASE("native casts: vectors of one width keep their bits, a 32-bit accumulator casts to int32 lanes",
          "[aie_api][intrinsics]") {
    v32int16 i16;
    for (unsigned i = 0; i < 32; ++i) i16[i] = static_cast<int16>(0x3F80 + i); // 1.0 and up as bf16
    const v32bfloat16 f = (v32bfloat16)i16;
    for (unsigned i = 0; i < 32; ++i) CHECK(f[i].bits == static_cast<std::uint16_t>(0x3F80 + i));
    CHECK(v32int16(f) == i16);
    const v16int32 as32 = v16int32(i16);
    CHECK(static_cast<std::uint32_t>(as32[0]) == 0x3F813F80u); // little-endian pairs
    const v64int8 as8 = v64int8(i16);
    CHECK(as8[0] == static_cast<int8>(0x80));
    v16acc32 acc;
    for (unsigned i = 0; i < 16; ++i) acc.lane(i) = -5 * static_cast<int>(i);
    const v16int32 lanes = v16int32(acc);
    for (unsigned i = 0; i < 16; ++i) CHECK(lanes[i] == -5 * static_cast<int>(i));
    v32acc32 big;
    big.lane(31) = 123456;
    CHECK(v32int32(big)[31] == 123456);
    CHECK(static_cast<std::uint32_t>(v16uint32(acc)[1]) == static_cast<std::uint32_t>(-5));
}

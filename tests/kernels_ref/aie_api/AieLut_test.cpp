// aie::lut / aie::parallel_lookup and the host layer's lut_based_ops.h (getExpBf16), against plain
// index arithmetic written here and against the reference exp tables (kernels_ref/softmax_lut.hpp,
// themselves checked against entries of mlir-aie's aie_runtime_lib/AIE2/lut_based_ops.cpp).
#include <aie_api/aie.hpp>
#include <lut_based_ops.h>

#include <npusim/kernels/softmax_lut.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using npusim::bfloat16;

namespace {
// A 256-entry uint16 table in the two-bank layout: logical entry i = value(i), each 8-entry
// (128-bit) chunk stored twice; `copy_tag` marks the second copy (+0x1000) and the cd table
// (+0x2000) so a test can see which copy a lane reads.
std::vector<std::uint16_t> banked(unsigned elems, std::uint16_t tag_second, std::uint16_t tag_table) {
    std::vector<std::uint16_t> t(2 * elems);
    for (unsigned i = 0; i < elems; ++i) {
        const unsigned pos = (i / 8) * 16 + i % 8;
        t[pos] = static_cast<std::uint16_t>(i + tag_table);
        t[pos + 8] = static_cast<std::uint16_t>(i + tag_table + tag_second);
    }
    return t;
}
} // namespace

TEST_CASE("parallel_lookup: step bits, truncate and saturate policies, bank copies per lane", "[aie_api][lut]") {
    const auto ab = banked(256, 0x1000, 0), cd = banked(256, 0x1000, 0x2000);
    using L = aie::lut<4, uint16, uint16>;
    const L l(256, ab.data(), cd.data());
    aie::vector<uint16, 16> idx;
    for (unsigned i = 0; i < 16; ++i) idx[i] = static_cast<uint16>(i * 4099u); // spans 0..61485
    // lane l reads copy l % 2 of table (l / 2) % 2 [est]; strip the tags to get the logical index
    auto tag = [](unsigned lane) { return static_cast<unsigned>(((lane / 2) % 2) * 0x2000 + (lane % 2) * 0x1000); };
    {
        const aie::parallel_lookup<uint16, L, aie::lut_oor_policy::truncate> look(l, 0);
        const auto r = look.fetch(idx);
        for (unsigned i = 0; i < 16; ++i) CHECK(r[i] == ((idx[i] & 0xFFu) + tag(i)));
    }
    {
        const aie::parallel_lookup<uint16, L, aie::lut_oor_policy::truncate> look(l, 8);
        const auto r = look.fetch(idx);
        for (unsigned i = 0; i < 16; ++i) CHECK(r[i] == ((idx[i] >> 8) + tag(i)));
    }
    {
        const aie::parallel_lookup<uint16, L, aie::lut_oor_policy::saturate> look(l, 4);
        const auto r = look.fetch(idx);
        for (unsigned i = 0; i < 16; ++i) CHECK(r[i] == (std::min(idx[i] >> 4, 255) + tag(i)));
    }
    {
        // signed indices: an arithmetic shift; saturate clamps negatives to entry 0, truncate wraps
        aie::vector<int16, 16> s = aie::broadcast<int16, 16>(-3);
        s[1] = 300;
        const aie::parallel_lookup<int16, L, aie::lut_oor_policy::saturate> sat(l);
        const aie::parallel_lookup<int16, L, aie::lut_oor_policy::truncate> trunc(l);
        CHECK(sat.fetch(s)[0] == 0);
        CHECK(sat.fetch(s)[1] == 255 + tag(1));
        CHECK(trunc.fetch(s)[0] == 253);
        CHECK(trunc.fetch(s)[1] == 44 + tag(1));
    }
    {
        // uint8 indices into a uint16 table (rgba2hue's lookup)
        aie::vector<uint8, 16> u;
        for (unsigned i = 0; i < 16; ++i) u[i] = static_cast<uint8>(250 + i); // wraps past 255
        const aie::parallel_lookup<uint8, L, aie::lut_oor_policy::truncate> look(l, 0);
        const auto r = look.fetch(u);
        for (unsigned i = 0; i < 16; ++i) CHECK(r[i] == (static_cast<unsigned>(u[i]) + tag(i)));
    }
}

TEST_CASE("lut_based_ops.h: the exp tables in the two-bank layout hold the reference entries", "[aie_api][lut]") {
    const auto& t = npusim::aie_api::lut_based_ops::exp_tables();
    for (unsigned idx = 0; idx < 256; ++idx) {
        const unsigned pos = (idx / 8) * 16 + idx % 8;
        const int i = idx < 128 ? static_cast<int>(idx) : static_cast<int>(idx) - 256;
        INFO("entry " << idx);
        for (unsigned p : {pos, pos + 8}) {
            REQUIRE(t.ilut_ab[p].bits == npusim::kernels::exp_lut_integer_entry(i));
            REQUIRE(t.ilut_cd[p].bits == npusim::kernels::exp_lut_integer_entry(i));
            REQUIRE(t.flut_ab[p].bits == npusim::kernels::exp_lut_fraction_entry(static_cast<int>(idx)));
            REQUIRE(t.flut_cd[p].bits == npusim::kernels::exp_lut_fraction_entry(static_cast<int>(idx)));
        }
    }
    // A few entries of lut_based_ops.cpp as written there (int16 bit patterns, array positions).
    CHECK(t.ilut_ab[0].bits == 16256);
    CHECK(t.ilut_ab[17].bits == 17917);
    CHECK(t.ilut_ab[255].bits == 32505);
    CHECK(t.ilut_ab[256].bits == 0);
    CHECK(t.ilut_ab[511].bits == 16060);
}

TEST_CASE("getExpBf16: integer entry times fraction entry of the 8.8 fixed-point input", "[aie_api][lut]") {
    aie::vector<bfloat16, 16> x;
    const float vals[16] = {0.0f,   1.0f,  -1.0f,  2.5f,    -3.75f, 0.00390625f, -0.00390625f, 10.0f,
                            -10.0f, 88.0f, 127.0f, -128.0f, 0.001f, -0.001f,     200.0f,       -200.0f};
    for (unsigned i = 0; i < 16; ++i) x[i] = bfloat16(vals[i]);
    const auto e = getExpBf16(x);
    for (unsigned i = 0; i < 16; ++i) {
        // independent index arithmetic: round(x * 256) (ties to even), low 16 bits, high/low byte
        const double scaled = std::nearbyint(static_cast<double>(static_cast<float>(x[i])) * 256.0);
        const auto v = static_cast<std::uint16_t>(static_cast<std::int64_t>(scaled) & 0xFFFF);
        const int hi = static_cast<std::int8_t>(static_cast<std::uint8_t>(v >> 8));
        const float want = bfloat16::to_float(npusim::kernels::exp_lut_integer_entry(hi)) *
                           bfloat16::to_float(npusim::kernels::exp_lut_fraction_entry(v & 0xFF));
        INFO("x = " << vals[i]);
        CHECK(e.lane(i) == want);
    }
}

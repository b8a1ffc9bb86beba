// The host layer's register composition intrinsics (aie_api/detail/intrinsics_compose.hpp) against
// lane-by-lane expectations written out here: set_v<N><T>(idx, part) puts part in lanes idx * M ..
// and leaves the rest undefined (zero on the host), insert replaces one part and keeps the others,
// extract_v<M><T> reads one part, a part index outside the register is an error; and the
// sequence magika's layer norm uses (set, insert, extract of bf16 halves) round-trips the data.
#include <aie_api/aie.hpp>

#include <catch2/catch.hpp>

#include <stdexcept>

namespace {
v16bfloat16 compose_ramp16(float base) {
    v16bfloat16 v;
    for (unsigned i = 0; i < 16; ++i) v[i] = bfloat16(base + static_cast<float>(i));
    return v;
}
} // namespace

TEST_CASE("set_v32bfloat16 / insert / extract_v16bfloat16 / extract_v8bfloat16 place and read parts",
          "[aie_api][intrinsics]") {
    const v16bfloat16 a = compose_ramp16(1.0f), b = compose_ramp16(100.0f);
    const v32bfloat16 lo = set_v32bfloat16(0, a), hi = set_v32bfloat16(1, b);
    for (unsigned i = 0; i < 16; ++i) {
        CHECK(static_cast<float>(lo[i]) == 1.0f + static_cast<float>(i));
        CHECK(lo[16 + i].bits == 0); // undefined: zero on the host
        CHECK(hi[i].bits == 0);
        CHECK(static_cast<float>(hi[16 + i]) == 100.0f + static_cast<float>(i));
    }
    const v32bfloat16 both = insert(lo, 1, b); // magika's set_v32bfloat16(0, x); insert(x, 1, y)
    for (unsigned i = 0; i < 16; ++i) CHECK(both[16 + i].bits == b[i].bits);
    CHECK(extract_v16bfloat16(both, 0) == a);
    CHECK(extract_v16bfloat16(both, 1) == b);
    const v8bfloat16 q = extract_v8bfloat16(both, 3); // lanes 24..31: b[8..15]
    for (unsigned i = 0; i < 8; ++i) CHECK(q[i].bits == b[8 + i].bits);
    const v32bfloat16 patched = insert(both, 1, extract_v8bfloat16(both, 0)); // 8-lane part 1 := part 0
    for (unsigned i = 0; i < 8; ++i) CHECK(patched[8 + i].bits == a[i].bits);
    CHECK(patched[16].bits == b[0].bits);
    CHECK_THROWS_AS(extract_v16bfloat16(both, 2), std::out_of_range);
    CHECK_THROWS_WITH(insert(both, -1, a), "npusim aie_api: insert: part -1 of a register of 2 parts");
}

TEST_CASE("set_v32int16, extract_v16int16 / v16uint16, broadcast_zero_to_v32int16, the accfloat fills",
          "[aie_api][intrinsics]") {
    v16int16 p;
    for (unsigned i = 0; i < 16; ++i) p[i] = static_cast<int16>(-32768 + 4369 * static_cast<int>(i));
    const v32int16 s = set_v32int16(1, p);
    CHECK(extract_v16int16(s, 1) == p);
    CHECK(extract_v16int16(s, 0) == v16int16{});
    CHECK(broadcast_zero_to_v32int16() == v32int16{});
    v32uint16 u;
    for (unsigned i = 0; i < 32; ++i) u[i] = static_cast<uint16>(65535 - i);
    CHECK(extract_v16uint16(u, 1)[15] == 65535 - 31);
    const aie::vector<float, 16> f = broadcast_to_v16accfloat(-9.999999974752427e-7f).to_vector<float>();
    for (unsigned i = 0; i < 16; ++i) CHECK(f[i] == -9.999999974752427e-7f);
    CHECK(undef_v16accfloat().to_vector<float>() == aie::zeros<float, 16>());
}

// The AIE-ML bfloat16 multiply intrinsics (aie_api/detail/intrinsics_mul_elem.hpp) against references
// written out here from their documented shapes: mul_elem_16_2 is 16 channels of a (1x2)·(2x1)
// product with lane i pairing a[i], a[16+i] (UG1583 "Multiply-accumulate of bfloat16 datatypes"; the
// pairing mlir-aie's bf16xbf16_mul_elem test relies on), mul_4x8_8x4 a row-major 4x8 by 8x4 product
// into lanes 4r + c; each product is exact in single precision, the lane's products are summed in
// order and the sum added to the accumulator, each step rounded to nearest even in float [est].
#include <aie_api/aie.hpp>

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace {
bfloat16 mulelem_bf(float x) { return bfloat16(x); }
float mulelem_pow2(int e) { return std::ldexp(1.0f, e); }

// A deterministic spread of bf16 values in [-8, 8) with varied mantissas.
v32bfloat16 mulelem_spread(unsigned seed) {
    v32bfloat16 v;
    std::uint32_t s = seed * 2654435761u + 12345u;
    for (unsigned i = 0; i < 32; ++i) {
        s = s * 1664525u + 1013904223u;
        v[i] = bfloat16((static_cast<float>(s >> 8) / 16777216.0f) * 16.0f - 8.0f);
    }
    return v;
}

// Reference of one lane of the (1x2)·(2x1) form, in the documented order.
float mulelem_ref_lane(const v32bfloat16& a, const v32bfloat16& b, unsigned i, float acc, float sign) {
    const float p0 = static_cast<float>(a[i]) * static_cast<float>(b[i]);
    const float p1 = static_cast<float>(a[16 + i]) * static_cast<float>(b[16 + i]);
    return acc + sign * (p0 + p1);
}
} // namespace

TEST_CASE("mul_elem_16_2 / mac / msc / negmul: lane i is a[i]*b[i] + a[16+i]*b[16+i]", "[aie_api][intrinsics]") {
    const v32bfloat16 a = mulelem_spread(1), b = mulelem_spread(2);
    v16accfloat acc;
    for (unsigned i = 0; i < 16; ++i) acc.lane(i) = static_cast<float>(i) * 0.37f - 3.0f;
    const v16accfloat m = mul_elem_16_2(a, b), n = negmul_elem_16_2(a, b);
    const v16accfloat c = mac_elem_16_2(a, b, acc), d = msc_elem_16_2(a, b, acc);
    for (unsigned i = 0; i < 16; ++i) {
        CHECK(m.lane(i) == mulelem_ref_lane(a, b, i, 0.0f, 1.0f));
        CHECK(n.lane(i) == -mulelem_ref_lane(a, b, i, 0.0f, 1.0f));
        CHECK(c.lane(i) == mulelem_ref_lane(a, b, i, acc.lane(i), 1.0f));
        CHECK(d.lane(i) == mulelem_ref_lane(a, b, i, acc.lane(i), -1.0f));
    }
}

TEST_CASE("mul_elem_16_2 with zero upper halves is the element-wise product (mlir-aie's bf16 mul_elem)",
          "[aie_api][intrinsics]") {
    v32bfloat16 a = mulelem_spread(3), b = mulelem_spread(4);
    for (unsigned i = 16; i < 32; ++i) a[i] = b[i] = bfloat16(0.0f);
    const v16bfloat16 r = to_v16bfloat16(mul_elem_16_2(a, b));
    aie::set_rounding(aie::rounding_mode::conv_even);
    const v16bfloat16 re = to_v16bfloat16(mul_elem_16_2(a, b));
    aie::set_rounding(aie::rounding_mode::floor);
    for (unsigned i = 0; i < 16; ++i) {
        const float exact = static_cast<float>(a[i]) * static_cast<float>(b[i]); // exact in float
        CHECK(mul_elem_16_2(a, b).lane(i) == exact);
        CHECK(re[i].bits == bfloat16(exact).bits); // nearest even
        // floor (the reset mode) rounds the magnitude down: the truncated upper 16 bits.
        CHECK(r[i].bits == static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(exact) >> 16));
    }
}

TEST_CASE("mul_elem_16_2: single-precision rounding of the pair sum and of the accumulation, specials",
          "[aie_api][intrinsics]") {
    v32bfloat16 a, b;
    v16accfloat acc;
    // lane 0: acc 1 + products summing to 2^-24 (a tie): stays 1 (nearest even).
    a[0] = mulelem_bf(mulelem_pow2(-12)), b[0] = mulelem_bf(mulelem_pow2(-12));
    acc.lane(0) = 1.0f;
    // lane 1: acc 1 + 2^-23 plus the same tie: rounds up to 1 + 2^-22 (even).
    a[1] = mulelem_bf(mulelem_pow2(-12)), b[1] = mulelem_bf(mulelem_pow2(-12));
    acc.lane(1) = 1.0f + mulelem_pow2(-23);
    // lane 2: pair sum 1 + 2^-24 rounds to 1 before acc -1 is added: 0, not 2^-24 (summed in order).
    a[2] = mulelem_bf(1.0f), b[2] = mulelem_bf(1.0f);
    a[18] = mulelem_bf(mulelem_pow2(-12)), b[18] = mulelem_bf(mulelem_pow2(-12));
    acc.lane(2) = -1.0f;
    // lane 3: products cancel exactly.
    a[3] = mulelem_bf(3.5f), b[3] = mulelem_bf(-1.25f), a[19] = mulelem_bf(3.5f), b[19] = mulelem_bf(1.25f);
    // lane 4: overflow to +inf; lane 5: inf * 0 is NaN; lane 6: a denormal product is kept.
    a[4] = mulelem_bf(mulelem_pow2(127)), b[4] = mulelem_bf(4.0f);
    a[5] = bfloat16(std::numeric_limits<float>::infinity()), b[5] = mulelem_bf(0.0f);
    a[6] = mulelem_bf(mulelem_pow2(-70)), b[6] = mulelem_bf(mulelem_pow2(-70));
    const v16accfloat r = mac_elem_16_2(a, b, acc);
    CHECK(r.lane(0) == 1.0f);
    CHECK(r.lane(1) == 1.0f + mulelem_pow2(-22));
    CHECK(r.lane(2) == 0.0f);
    CHECK(r.lane(3) == 0.0f);
    CHECK(std::isinf(r.lane(4)));
    CHECK(r.lane(4) > 0.0f);
    CHECK(std::isnan(r.lane(5)));
    CHECK(r.lane(6) == mulelem_pow2(-140));
}

TEST_CASE("magika's layer-norm step {x, -mean} x {std, std}: (x - mean) * std per lane", "[aie_api][intrinsics]") {
    v16bfloat16 x;
    for (unsigned i = 0; i < 16; ++i) x[i] = bfloat16(static_cast<float>(i) - 5.5f);
    v8bfloat16 neg_mean, sd;
    for (unsigned c = 0; c < 8; ++c) neg_mean[c] = bfloat16(-0.25f * c), sd[c] = bfloat16(1.0f + 0.125f * c);
    const v32bfloat16 ab = aie::concat(x, aie::concat(neg_mean, neg_mean));
    const v32bfloat16 bb = aie::concat(sd, sd, sd, sd);
    const v16accfloat y = mul_elem_16_2(ab, bb);
    for (unsigned i = 0; i < 16; ++i) {
        const float s = static_cast<float>(sd[i % 8]);
        CHECK(y.lane(i) == static_cast<float>(x[i]) * s + static_cast<float>(neg_mean[i % 8]) * s);
    }
}

TEST_CASE("mul_4x8_8x4 / mac / msc / negmul: row-major A (4x8) times B (8x4) into lanes 4r + c",
          "[aie_api][intrinsics]") {
    const v32bfloat16 a = mulelem_spread(5), b = mulelem_spread(6);
    v16accfloat acc;
    for (unsigned i = 0; i < 16; ++i) acc.lane(i) = 0.5f * static_cast<float>(i) - 4.0f;
    const v16accfloat m = mul_4x8_8x4(a, b), n = negmul_4x8_8x4(a, b);
    const v16accfloat c = mac_4x8_8x4(a, b, acc), d = msc_4x8_8x4(a, b, acc);
    for (unsigned r = 0; r < 4; ++r)
        for (unsigned col = 0; col < 4; ++col) {
            float s = 0.0f;
            for (unsigned k = 0; k < 8; ++k) s += static_cast<float>(a[r * 8 + k]) * static_cast<float>(b[k * 4 + col]);
            const unsigned l = r * 4 + col;
            CHECK(m.lane(l) == s);
            CHECK(n.lane(l) == -s);
            CHECK(c.lane(l) == acc.lane(l) + s);
            CHECK(d.lane(l) == acc.lane(l) - s);
        }
    // A selecting row k of B: A[r][k] = 1 for k == 2r + 1 gives C[r][c] = B[2r + 1][c].
    v32bfloat16 sel;
    for (unsigned r = 0; r < 4; ++r) sel[r * 8 + 2 * r + 1] = bfloat16(1.0f);
    const v16accfloat picked = mul_4x8_8x4(sel, b);
    for (unsigned r = 0; r < 4; ++r)
        for (unsigned col = 0; col < 4; ++col)
            CHECK(picked.lane(r * 4 + col) == static_cast<float>(b[(2 * r + 1) * 4 + col]));
    // The in-order sum rounds: 1 + 2^-24 + 2^-24 stays 1 (each partial sum is a tie to even).
    v32bfloat16 ones_row, col_b;
    ones_row[0] = ones_row[1] = ones_row[2] = bfloat16(1.0f);
    col_b[0] = bfloat16(1.0f), col_b[4] = col_b[8] = bfloat16(mulelem_pow2(-24));
    CHECK(mul_4x8_8x4(ones_row, col_b).lane(0) == 1.0f);
}

TEST_CASE("ups_to_v16accfloat / ups: bfloat16 lanes into float lanes exactly", "[aie_api][intrinsics]") {
    v16bfloat16 v;
    v[0] = bfloat16::from_bits(0x8000); // -0
    v[1] = bfloat16::from_bits(0x0001); // smallest denormal
    v[2] = bfloat16::from_bits(0x7F80); // +inf
    v[3] = bfloat16::from_bits(0xFF7F); // lowest finite
    for (unsigned i = 4; i < 16; ++i) v[i] = bfloat16(static_cast<float>(i) * -1.75f);
    const v16accfloat a = ups_to_v16accfloat(v), b = ups(v);
    for (unsigned i = 0; i < 16; ++i) {
        CHECK(std::bit_cast<std::uint32_t>(a.lane(i)) == (static_cast<std::uint32_t>(v[i].bits) << 16));
        CHECK(std::bit_cast<std::uint32_t>(b.lane(i)) == std::bit_cast<std::uint32_t>(a.lane(i)));
    }
}

// Tests for eltwise_mul_add_bf16 (scale_shift.cc's vector entry: truncated to bf16 at the core's reset
// rounding mode) and eltwise_mul_add_bf16_nearest (its scalar entry: nearest, ties to even)
// (kernels_ref/scale_shift.hpp).
#include <npusim/kernels/scale_shift.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

using namespace npusim::kernels;
using npusim::bfloat16;

namespace {

// The exact value v (a sum or product of two bf16, exact in double) to bf16, written independently of
// the kernel: the bf16 spacing at |v| is 2^(e - 8) with |v| = m 2^e, m in [0.5, 1); truncation keeps
// floor(|v| / spacing) spacings with v's sign, nearest rounds the quotient to even.
double scale_shift_expected(double v, bool truncate) {
    if (v == 0) return v;
    int e = 0;
    std::frexp(v, &e);
    const double spacing = std::ldexp(1.0, e - 8), q = std::fabs(v) / spacing;
    const double k = truncate ? std::floor(q) : std::nearbyint(q); // the default mode: ties to even
    return std::copysign(k * spacing, v);
}

} // namespace

TEST_CASE("eltwise_mul_add_bf16 truncates to bf16, the _nearest variant rounds to even", "[kernels][scale_shift]") {
    // hand-picked: 1 + 0.75 ulp (truncated down, rounded up), -1 - 0.75 ulp (the magnitude truncated:
    // -1, not floor's -1.0078125), ties at 1 + 0.5 ulp and 1.0078125 + 0.5 ulp (to even: 1, 1.015625),
    // a product past bf16's largest value but not float's (truncated: 0x7f7f; nearest: inf)
    std::vector<bfloat16> a(kScaleShiftElements, bfloat16(1.0f)), b(kScaleShiftElements, bfloat16(0.0f));
    const float pairs[][2] = {{1.0f, 0.005859375f},      {-1.0f, -0.005859375f}, {1.0f, 0.00390625f},
                              {1.0078125f, 0.00390625f}, {-3.0f, 0.5f},          {0.0f, -0.0f}};
    for (std::size_t i = 0; i < std::size(pairs); ++i) a[i] = bfloat16(pairs[i][0]), b[i] = bfloat16(pairs[i][1]);
    std::vector<bfloat16> t(kScaleShiftElements), n(kScaleShiftElements);
    eltwise_mul_add_bf16(a.data(), b.data(), t.data(), 0, kScaleShiftElements);
    eltwise_mul_add_bf16_nearest(a.data(), b.data(), n.data(), 0, kScaleShiftElements);
    CHECK(float(t[0]) == 1.0f);
    CHECK(float(n[0]) == 1.0078125f);
    CHECK(float(t[1]) == -1.0f);
    CHECK(float(n[1]) == -1.0078125f);
    CHECK(float(t[2]) == 1.0f);
    CHECK(float(n[2]) == 1.0f);
    CHECK(float(t[3]) == 1.0078125f);
    CHECK(float(n[3]) == 1.015625f);
    CHECK(float(t[4]) == -2.5f);
    CHECK(t[5].bits == 0x0000); // 0 + -0 = +0
    a[0] = bfloat16::from_bits(0x7f7e), b[0] = bfloat16(1.0078125f);
    eltwise_mul_add_bf16(a.data(), b.data(), t.data(), 1, kScaleShiftElements);
    eltwise_mul_add_bf16_nearest(a.data(), b.data(), n.data(), 1, kScaleShiftElements);
    CHECK(t[0].bits == 0x7f7f); // past bf16's largest value, below float's: truncated to it
    CHECK(n[0].bits == 0x7f80); // rounded up to inf
}

TEST_CASE("eltwise_mul_add_bf16: every element against an independent rounding of the exact value",
          "[kernels][scale_shift]") {
    std::vector<bfloat16> a(kScaleShiftElements), b(kScaleShiftElements);
    std::uint32_t s = 11;
    for (int i = 0; i < kScaleShiftElements; ++i) {
        s = s * 1664525u + 1013904223u;
        // sign, exponents 2^-5 .. 2^5 (sums and products exact in double and in float), any mantissa
        a[i] = bfloat16::from_bits(
            static_cast<std::uint16_t>(((s >> 31) << 15) | ((122u + (s >> 8) % 11u) << 7) | ((s >> 12) & 0x7fu)));
        b[i] = bfloat16::from_bits(static_cast<std::uint16_t>((((s >> 30) & 1u) << 15) |
                                                              ((122u + (s >> 19) % 11u) << 7) | ((s >> 1) & 0x7fu)));
    }
    for (const std::int32_t is_mul : {0, 1})
        for (const bool truncate : {true, false}) {
            std::vector<bfloat16> c(kScaleShiftElements);
            (truncate ? eltwise_mul_add_bf16 : eltwise_mul_add_bf16_nearest)(a.data(), b.data(), c.data(), is_mul,
                                                                             kScaleShiftElements);
            for (int i = 0; i < kScaleShiftElements; ++i) {
                const double x = float(a[i]), y = float(b[i]);
                INFO("element " << i << " is_mul " << is_mul << " truncate " << truncate);
                REQUIRE(double(float(c[i])) == scale_shift_expected(is_mul ? x * y : x + y, truncate));
            }
        }
}

TEST_CASE("eltwise_mul_add_bf16 errors name the function", "[kernels][scale_shift][errors]") {
    std::vector<bfloat16> v(kScaleShiftElements);
    CHECK_THROWS_WITH(eltwise_mul_add_bf16(v.data(), v.data(), v.data(), 1, 512),
                      Catch::Matchers::Contains("eltwise_mul_add_bf16: n must be 1024 (got 512"));
    CHECK_THROWS_WITH(eltwise_mul_add_bf16_nearest(v.data(), nullptr, v.data(), 1, 1024),
                      Catch::Matchers::Contains("eltwise_mul_add_bf16_nearest"));
    CHECK_THROWS_AS(eltwise_mul_add_bf16(v.data(), v.data(), v.data(), 1, 0), std::invalid_argument);
}

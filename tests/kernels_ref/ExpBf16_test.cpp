// The reference bf16 exp kernels (kernels_ref/src/exp_bf16.cpp) against an independent formulation:
// std::exp in double, and the bound each kernel's arithmetic allows.
#include <npusim/kernels/exp_bf16.hpp>
#include <npusim/kernels/softmax_lut.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

using npusim::bfloat16;
namespace k = npusim::kernels;

namespace {
std::vector<bfloat16> grid(float lo, float hi) { // every bf16 value in [lo, hi], padded to a multiple of 16
    std::vector<bfloat16> v;
    for (std::uint32_t b = 0; b < 65536; ++b) {
        const float f = bfloat16::to_float(static_cast<std::uint16_t>(b));
        if (f >= lo && f <= hi) v.push_back(bfloat16::from_bits(static_cast<std::uint16_t>(b)));
    }
    while (v.size() % 16 != 0) v.push_back(bfloat16(0.0f));
    return v;
}
} // namespace

TEST_CASE("exp_bf16_exp2 (AIE2P) is e^x within its log2e and bf16 rounding error", "[kernels][exp]") {
    // The kernel computes 2^(x * 1.4453125): log2e rounded to bf16 is 1.8e-3 too large relatively, so
    // the exact result is e^(x * (1 + d)) with d = 1.4453125 / log2(e) - 1, a relative error of
    // expm1(|x| d); the exp2 unit's input step (2^-11, truncated) and the bf16 rounding (8 significant
    // bits) multiply that by at most 2^(2^-11) and (1 + 2^-8). Over [-20, 20]: within
    // (1 + expm1(|x| d)) 2^(2^-11) (1 + 2^-8) - 1 (+ 1e-9 slack for the double evaluation), at most 4.1%.
    const double d = 1.4453125 / std::log2(std::exp(1.0)) - 1.0;
    const auto in = grid(-20.0f, 20.0f);
    std::vector<bfloat16> out(in.size());
    k::exp_bf16_exp2(in.data(), out.data(), static_cast<std::int32_t>(in.size()));
    for (std::size_t i = 0; i < in.size(); ++i) {
        const double x = static_cast<float>(in[i]);
        const double want = std::exp(x), got = static_cast<float>(out[i]);
        INFO("x = " << x);
        REQUIRE(std::fabs(got / want - 1.0) <=
                std::exp(std::fabs(x) * d) * std::exp2(std::ldexp(1.0, -11)) * (1.0 + std::ldexp(1.0, -8)) - 1.0 + 1e-9);
    }
}

TEST_CASE("exp_bf16_lut (AIE2) is the table exp, within 2% of e^x over [-10, 10]", "[kernels][exp]") {
    // Per element it is softmax_lut's table exp (tested against lut_based_ops.cpp's tables in
    // SoftmaxLut_test.cpp). Against std::exp: the input's 8.8 fixed point (error <= 2^-9 in x, i.e.
    // e^(2^-9) - 1 = 0.2% relatively), two table entries rounded to bf16 (2^-8 = 0.39% each) and a
    // truncated product (< 2^-7 = 0.78%): at most about 1.8%, checked as 2%.
    const auto in = grid(-10.0f, 10.0f);
    std::vector<bfloat16> out(in.size());
    k::exp_bf16_lut(in.data(), out.data(), static_cast<std::int32_t>(in.size()));
    for (std::size_t i = 0; i < in.size(); ++i) {
        const double x = static_cast<float>(in[i]);
        INFO("x = " << x);
        REQUIRE(out[i].bits == k::exp_lut_bf16(in[i]).bits);
        REQUIRE(std::fabs(static_cast<float>(out[i]) / std::exp(x) - 1.0) <= 0.02);
    }
}

TEST_CASE("exp_bf16 reference kernels reject bad sizes and null pointers", "[kernels][exp]") {
    std::vector<bfloat16> a(32), b(32);
    CHECK_THROWS_WITH(k::exp_bf16_lut(a.data(), b.data(), 24),
                      Catch::Contains("n must be a positive multiple of 16 (got 24)"));
    CHECK_THROWS_WITH(k::exp_bf16_exp2(a.data(), b.data(), 0), Catch::Contains("n must be a positive multiple of 16"));
    CHECK_THROWS_WITH(k::exp_bf16_exp2(nullptr, b.data(), 16), Catch::Contains("in"));
    CHECK(k::exp_bf16_cycles(1024) == 80);
}

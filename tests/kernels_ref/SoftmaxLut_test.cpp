// Tests for the AIE2 softmax reference (kernels_ref/softmax_lut.hpp): its exp tables against
// entries of mlir-aie's aie_runtime_lib/AIE2/lut_based_ops.cpp (exp_ilut_ab / exp_flut_ab, logical
// index = table position with the 128-bit bank copies removed), its exp against std::exp, and the
// softmax against a double-precision formulation with the maximum subtracted.
#include <npusim/kernels/softmax_lut.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

using namespace npusim::kernels;
using npusim::bfloat16;

TEST_CASE("softmax exp tables equal lut_based_ops.cpp's entries", "[kernels][softmax]") {
    // exp_ilut_ab: exp(0..7) = 16256, 16430, 16620, 16801, 16986, 17172, 17354, 17545; exp(89..127)
    // saturate at 32505 (exp(88)); exp(-4..-1) = 15510, 15692, 15883, 16060; exp(-128) = 0.
    const int ints[] = {16256, 16430, 16620, 16801, 16986, 17172, 17354, 17545};
    for (int i = 0; i < 8; ++i) CHECK(exp_lut_integer_entry(i) == ints[i]);
    for (int i = 88; i <= 127; ++i) CHECK(exp_lut_integer_entry(i) == 32505);
    CHECK(exp_lut_integer_entry(-4) == 15510);
    CHECK(exp_lut_integer_entry(-3) == 15692);
    CHECK(exp_lut_integer_entry(-2) == 15883);
    CHECK(exp_lut_integer_entry(-1) == 16060);
    CHECK(exp_lut_integer_entry(-128) == 0);
    // exp_flut_ab: exp(f / 256) for f = 0..3: 16256, 16257, 16257, 16258; f = 128..131: 16339,
    // 16340, 16341, 16342; f = 252..255: 16427, 16428, 16429, 16429.
    const int f0[] = {16256, 16257, 16257, 16258}, f128[] = {16339, 16340, 16341, 16342},
              f252[] = {16427, 16428, 16429, 16429};
    for (int k = 0; k < 4; ++k) {
        CHECK(exp_lut_fraction_entry(k) == f0[k]);
        CHECK(exp_lut_fraction_entry(128 + k) == f128[k]);
        CHECK(exp_lut_fraction_entry(252 + k) == f252[k]);
    }
    CHECK_THROWS_AS(exp_lut_integer_entry(128), std::invalid_argument);
    CHECK_THROWS_AS(exp_lut_fraction_entry(256), std::invalid_argument);
}

TEST_CASE("the table exp is within a few bf16 steps of std::exp", "[kernels][softmax]") {
    // Every bf16 value in [-8, 8]: two table entries rounded to nearest (half a bf16 step: 2^-8
    // relative each), the input rounded to 1/256 (|dx| <= 2^-9: 2^-9 relative in exp), and the
    // product truncated (less than a step, 2^-7, and never up).
    double worst = 0;
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
        const bfloat16 x = bfloat16::from_bits(static_cast<std::uint16_t>(b));
        const float xf = x;
        if (!(std::abs(xf) <= 8.0f)) continue;
        const double want = std::exp(static_cast<double>(xf));
        const double got = static_cast<float>(exp_lut_bf16(x));
        worst = std::max(worst, std::abs(got - want) / want);
        REQUIRE(got <= want * (1 + 0x1p-8) * (1 + 0x1p-8) * (1 + 0x1p-8)); // truncation only lowers it
    }
    CHECK(worst < 0x1p-8 + 0x1p-8 + 0x1p-9 + 0x1p-7);
    CHECK(worst > 0x1p-10); // not exact: it is the table method
    CHECK(static_cast<float>(exp_lut_bf16(bfloat16(0.0f))) == 1.0f);
}

TEST_CASE("softmax_lut_bf16 is the softmax within the kernel's bf16 error", "[kernels][softmax]") {
    std::mt19937 rng(8);
    std::uniform_real_distribution<float> u(-4.0f, 8.0f);
    for (std::int32_t n : {1024, 16, 256}) {
        std::vector<bfloat16> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
        for (auto& x : in) x = bfloat16(u(rng));
        softmax_lut_bf16(in.data(), out.data(), n);
        double mx = -1e30;
        for (auto x : in) mx = std::max(mx, static_cast<double>(static_cast<float>(x)));
        double sum = 0, got_sum = 0;
        for (auto x : in) sum += std::exp(static_cast<double>(static_cast<float>(x)) - mx);
        for (std::size_t i = 0; i < in.size(); ++i) {
            const double want = std::exp(static_cast<double>(static_cast<float>(in[i])) - mx) / sum;
            const double got = static_cast<float>(out[i]);
            got_sum += got;
            INFO("n " << n << " i " << i << " x " << static_cast<float>(in[i]));
            // exp (<= 2^-8 + 2^-8 + 2^-9 + 2^-7), the inverse rounded (2^-8), the product truncated (2^-7)
            REQUIRE(std::abs(got - want) <= 0.04 * want);
        }
        CHECK(got_sum == Approx(1.0).epsilon(0.04));
    }
    std::vector<bfloat16> buf(32);
    CHECK_THROWS_WITH(softmax_lut_bf16(buf.data(), buf.data(), 24),
                      "softmax_lut_bf16: n must be a positive multiple of 16 (got 24)");
    CHECK(softmax_lut_bf16_cycles(1024) == 6 * 64 + 32);
}

TEST_CASE("softmax_exp2_bf16 (AIE2P) is the softmax within its bf16 and log2e error", "[kernels][softmax]") {
    // The bf16 log2e (1.4453125 for 1.4426950) scales every exponent by 1.0018; over inputs spanning
    // 12 that moves an entry by up to e^(12 x 0.0018 x ...) ~ 2.2% relative to the others, on top of
    // the truncating conversions (2 x 2^-7) and the rounded inverse (2^-8).
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> u(-4.0f, 8.0f);
    std::vector<bfloat16> in(1024), out(1024);
    for (auto& x : in) x = bfloat16(u(rng));
    softmax_exp2_bf16(in.data(), out.data(), 1024);
    double mx = -1e30, sum = 0, got_sum = 0;
    for (auto x : in) mx = std::max(mx, static_cast<double>(static_cast<float>(x)));
    for (auto x : in) sum += std::exp(static_cast<double>(static_cast<float>(x)) - mx);
    double worst = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const double want = std::exp(static_cast<double>(static_cast<float>(in[i])) - mx) / sum;
        const double got = static_cast<float>(out[i]);
        got_sum += got;
        worst = std::max(worst, std::abs(got - want) / want);
    }
    CHECK(worst < 0.06);
    CHECK(worst > 0.001); // bf16 arithmetic, not the float softmax
    CHECK(got_sum == Approx(1.0).epsilon(0.04));
    // A shift of every input leaves the result unchanged up to the max's bf16 rounding: the kernel
    // subtracts the maximum (inputs near 100 would overflow the AIE2 table exp's range).
    std::vector<bfloat16> shifted(1024), out2(1024);
    for (std::size_t i = 0; i < in.size(); ++i) shifted[i] = bfloat16(static_cast<float>(in[i]) + 64.0f);
    softmax_exp2_bf16(shifted.data(), out2.data(), 1024);
    double sum2 = 0;
    for (auto x : out2) sum2 += static_cast<float>(x);
    CHECK(sum2 == Approx(1.0).epsilon(0.06));
    std::vector<bfloat16> buf(48);
    CHECK_THROWS_WITH(softmax_exp2_bf16(buf.data(), buf.data(), 48),
                      "softmax_exp2_bf16: n must be a positive multiple of 32 (got 48)");
    CHECK(softmax_exp2_bf16_cycles(1024) == 8 * 32 + 32);
}

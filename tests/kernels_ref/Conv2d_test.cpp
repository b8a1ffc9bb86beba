// Tests for the reference conv2dk1_i8 (kernels_ref/conv2d.hpp) against a matrix formulation:
// Eigen's int64 product of the pixels x input-channels matrix with the input x output-channels
// weight matrix, gathered from the YCXC8 / OIYXI8O8 layouts, then the rounding shift and int8
// saturation written out per element.
#include <npusim/kernels/conv2d.hpp>

#include <Eigen/Dense>
#include <cmath>
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

using namespace npusim::kernels;

namespace {
using MatI = Eigen::Matrix<std::int64_t, Eigen::Dynamic, Eigen::Dynamic>;
}

TEST_CASE("conv2dk1_i8 is the layout-mapped matrix product, shifted rounding ties away from zero and saturated",
          "[kernels][conv2d]") {
    std::mt19937 rng(21);
    struct Case {
        int width, ci, co, scale;
    };
    for (const Case c : {Case{32, 64, 64, 10}, Case{8, 8, 8, 0}, Case{12, 16, 24, 1}, Case{4, 32, 8, 7}}) {
        std::vector<std::int8_t> in(static_cast<std::size_t>(c.width * c.ci)), w(static_cast<std::size_t>(c.ci * c.co)),
            out(static_cast<std::size_t>(c.width * c.co), 0x55);
        for (auto& x : in) x = static_cast<std::int8_t>(rng() & 0xff);
        for (auto& x : w) x = static_cast<std::int8_t>(rng() & 0xff);
        MatI A(c.width, c.ci), W(c.ci, c.co);
        for (int x = 0; x < c.width; ++x)
            for (int i = 0; i < c.ci; ++i) A(x, i) = in[static_cast<std::size_t>((i / 8 * c.width + x) * 8 + i % 8)];
        for (int i = 0; i < c.ci; ++i)
            for (int o = 0; o < c.co; ++o)
                W(i, o) = w[static_cast<std::size_t>(((o / 8 * (c.ci / 8) + i / 8) * 8 + i % 8) * 8 + o % 8)];
        const MatI S = A * W;
        conv2dk1_i8(in.data(), w.data(), out.data(), c.width, c.ci, c.co, c.scale);
        for (int x = 0; x < c.width; ++x)
            for (int o = 0; o < c.co; ++o) {
                // ties away from zero (the vector kernel's symmetric_inf, conv2dk1_i8.cc:98-101):
                // sign(s) * floor(|s| / 2^scale + 1/2), via exact integer division of the magnitude
                const std::int64_t d = std::int64_t{1} << c.scale;
                const std::int64_t mag = S(x, o) < 0 ? -S(x, o) : S(x, o);
                const std::int64_t qm = c.scale == 0 ? mag : (2 * mag + d) / (2 * d);
                const std::int64_t q = S(x, o) < 0 ? -qm : qm;
                const std::int64_t want = q < -128 ? -128 : q > 127 ? 127 : q;
                INFO("w" << c.width << " ci" << c.ci << " co" << c.co << " scale " << c.scale << " x " << x << " o "
                         << o);
                REQUIRE(out[static_cast<std::size_t>((o / 8 * c.width + x) * 8 + o % 8)] == want);
            }
    }
}

TEST_CASE("conv2dk1_i8 refuses bad sizes, and its cost estimate", "[kernels][conv2d]") {
    std::vector<std::int8_t> buf(4096);
    CHECK_THROWS_WITH(conv2dk1_i8(buf.data(), buf.data(), buf.data(), 8, 12, 8, 1),
                      "conv2dk1_i8: input_channels must be a positive multiple of 8 (got 12)");
    CHECK_THROWS_WITH(conv2dk1_i8(buf.data(), buf.data(), buf.data(), 8, 8, 8, 32),
                      "conv2dk1_i8: scale must be in 0..31 (got 32)");
    CHECK_THROWS_AS(conv2dk1_i8(nullptr, buf.data(), buf.data(), 8, 8, 8, 1), std::invalid_argument);
    CHECK(conv2dk1_i8_cycles(32, 64, 64) == 512 + 8 * 8);
}

TEST_CASE("conv2dk1_u8 (IRON conv2dk1): int8 or uint8 activations, shifted half up and saturated to [0, 255]",
          "[kernels][conv2d]") {
    // aie2/conv2dk1.cc's vector kernels: positive_inf rounding, saturation to uint8 (:133-134, :258-259).
    // Written out per pixel and output channel from the layouts' index formulas.
    std::mt19937 rng(23);
    const int width = 8, ci = 16, co = 16;
    for (const int scale : {0, 1, 3, 9}) {
        std::vector<std::int8_t> in_s(width * ci), w(ci * co);
        std::vector<std::uint8_t> in_u(width * ci), out_s(width * co, 0x55), out_u(width * co, 0x55);
        for (auto& x : in_s) x = static_cast<std::int8_t>(rng() & 0xff);
        for (auto& x : in_u) x = static_cast<std::uint8_t>(rng() & 0xff);
        for (auto& x : w) x = static_cast<std::int8_t>(rng() & 0xff);
        conv2dk1_u8(in_s.data(), w.data(), out_s.data(), width, ci, co, scale);
        conv2dk1_u8(in_u.data(), w.data(), out_u.data(), width, ci, co, scale);
        int zeros = 0, clamped = 0;
        for (int x = 0; x < width; ++x)
            for (int o = 0; o < co; ++o) {
                std::int64_t ss = 0, su = 0;
                for (int i = 0; i < ci; ++i) {
                    const int wi = ((o / 8 * (ci / 8) + i / 8) * 8 + i % 8) * 8 + o % 8;
                    ss += std::int64_t{in_s[static_cast<std::size_t>((i / 8 * width + x) * 8 + i % 8)]} * w[static_cast<std::size_t>(wi)];
                    su += std::int64_t{in_u[static_cast<std::size_t>((i / 8 * width + x) * 8 + i % 8)]} * w[static_cast<std::size_t>(wi)];
                }
                auto want = [scale](std::int64_t s) { // floor(s / 2^scale + 1/2), clamped
                    const double q = std::floor(static_cast<double>(s) / std::ldexp(1.0, scale) + 0.5);
                    return static_cast<int>(q < 0 ? 0 : q > 255 ? 255 : q);
                };
                const auto at = static_cast<std::size_t>((o / 8 * width + x) * 8 + o % 8);
                INFO("width " << width << " scale " << scale << " x " << x << " o " << o << " sums " << ss << " " << su);
                REQUIRE(out_s[at] == want(ss));
                REQUIRE(out_u[at] == want(su));
                zeros += out_u[at] == 0;
                clamped += out_s[at] == 255;
            }
        if (scale <= 3) CHECK(zeros > 0);   // negative sums give 0 (a ReLU)
        if (scale <= 3) CHECK(clamped > 0); // large ones clamp at 255
    }
    std::vector<std::uint8_t> u(4096);
    std::vector<std::int8_t> s(4096);
    CHECK_THROWS_WITH(conv2dk1_u8(u.data(), s.data(), u.data(), 8, 8, 12, 1),
                      "conv2dk1_u8: output_channels must be a positive multiple of 8 (got 12)");
}

TEST_CASE("conv2dk1_skip_u8 (IRON conv2dk1_skip): two channel halves, int8 conv result plus skip, to uint8",
          "[kernels][conv2d]") {
    // aie2/conv2dk1_skip.cc's vector kernels: sum over input0's ci/2 channels then input1's, >> scale
    // half up saturated to int8, + skip, >> skip_scale half up saturated to [0, 255]
    std::mt19937 rng(29);
    const int width = 8, ci = 32, co = 16;
    auto half_up = [](std::int64_t v, int s) {
        return static_cast<std::int64_t>(std::floor(static_cast<double>(v) / std::ldexp(1.0, s) + 0.5));
    };
    for (const auto& [scale, skip_scale] : {std::pair{3, 1}, std::pair{10, 0}, std::pair{0, 2}}) {
        std::vector<std::uint8_t> in0(width * ci / 2), in1(width * ci / 2), skip_u(width * co), out_s(width * co),
            out_u(width * co);
        std::vector<std::int8_t> w(ci * co), skip_s(width * co);
        for (auto& x : in0) x = static_cast<std::uint8_t>(rng() % 12);
        for (auto& x : in1) x = static_cast<std::uint8_t>(rng() % 12);
        for (auto& x : w) x = static_cast<std::int8_t>(rng() & 0xff);
        for (auto& x : skip_s) x = static_cast<std::int8_t>(rng() & 0xff);
        for (auto& x : skip_u) x = static_cast<std::uint8_t>(rng() & 0xff);
        conv2dk1_skip_u8(in0.data(), in1.data(), w.data(), out_s.data(), skip_s.data(), width, ci, co, scale, skip_scale);
        conv2dk1_skip_u8(in0.data(), in1.data(), w.data(), out_u.data(), skip_u.data(), width, ci, co, scale, skip_scale);
        for (int x = 0; x < width; ++x)
            for (int o = 0; o < co; ++o) {
                std::int64_t s = 0;
                for (int i = 0; i < ci; ++i) { // channel i: input0's first ci / 2, then input1's
                    const auto& in = i < ci / 2 ? in0 : in1;
                    const int c = i % (ci / 2);
                    s += std::int64_t{in[static_cast<std::size_t>((c / 8 * width + x) * 8 + c % 8)]} *
                         w[static_cast<std::size_t>(((o / 8 * (ci / 8) + i / 8) * 8 + i % 8) * 8 + o % 8)];
                }
                const std::int64_t conv = std::clamp<std::int64_t>(half_up(s, scale), -128, 127);
                const auto at = static_cast<std::size_t>((o / 8 * width + x) * 8 + o % 8);
                INFO("scale " << scale << "/" << skip_scale << " x " << x << " o " << o);
                REQUIRE(out_s[at] == std::clamp<std::int64_t>(half_up(conv + skip_s[at], skip_scale), 0, 255));
                REQUIRE(out_u[at] == std::clamp<std::int64_t>(half_up(conv + skip_u[at], skip_scale), 0, 255));
            }
    }
    std::vector<std::uint8_t> u(4096);
    std::vector<std::int8_t> s(4096);
    CHECK_THROWS_WITH(conv2dk1_skip_u8(u.data(), u.data(), s.data(), u.data(), s.data(), 8, 24, 8, 1, 0),
                      Catch::Contains("input_channels must be a multiple of 16"));
    CHECK(conv2dk1_skip_cycles(32, 64, 64) == conv2dk1_i8_cycles(32, 64, 64) + 64);
}

TEST_CASE("conv2dk1_skip_init_u8: the halves' conv to int8 plus the skip input's projection to int8, to uint8",
          "[kernels][conv2d]") {
    // aie2/conv2dk1_skip_init.cc:258-456 (conv2dk1_skip_init_i8): both convolutions rounded half up and
    // saturated to int8, their sum >> skip_scale half up, saturated to [0, 255]
    std::mt19937 rng(31);
    const int width = 4, ci = 16, co = 8, cs = 24, scale = 5, skip_scale = 1, scale_skip = 6;
    auto half_up = [](std::int64_t v, int s) {
        return static_cast<std::int64_t>(std::floor(static_cast<double>(v) / std::ldexp(1.0, s) + 0.5));
    };
    std::vector<std::uint8_t> in0(width * ci / 2), in1(width * ci / 2), out(width * co);
    std::vector<std::int8_t> w((ci + cs) * co), skip(width * cs);
    for (auto& x : in0) x = static_cast<std::uint8_t>(rng() & 0xff);
    for (auto& x : in1) x = static_cast<std::uint8_t>(rng() & 0xff);
    for (auto& x : w) x = static_cast<std::int8_t>(rng() & 0xff);
    for (auto& x : skip) x = static_cast<std::int8_t>(rng() & 0xff);
    conv2dk1_skip_init_u8(in0.data(), in1.data(), w.data(), out.data(), skip.data(), width, ci, co, cs, scale, skip_scale,
                          scale_skip);
    for (int x = 0; x < width; ++x)
        for (int o = 0; o < co; ++o) {
            std::int64_t s = 0, p = 0;
            for (int i = 0; i < ci; ++i) {
                const auto& in = i < ci / 2 ? in0 : in1;
                const int c = i % (ci / 2);
                s += std::int64_t{in[static_cast<std::size_t>((c / 8 * width + x) * 8 + c % 8)]} *
                     w[static_cast<std::size_t>(((o / 8 * (ci / 8) + i / 8) * 8 + i % 8) * 8 + o % 8)];
            }
            for (int i = 0; i < cs; ++i) // the projection's weights start at ci * co, OIYXI8O8 over cs
                p += std::int64_t{skip[static_cast<std::size_t>((i / 8 * width + x) * 8 + i % 8)]} *
                     w[static_cast<std::size_t>(ci * co + ((o / 8 * (cs / 8) + i / 8) * 8 + i % 8) * 8 + o % 8)];
            const std::int64_t a = std::clamp<std::int64_t>(half_up(s, scale), -128, 127);
            const std::int64_t b = std::clamp<std::int64_t>(half_up(p, scale_skip), -128, 127);
            INFO("x " << x << " o " << o << " sums " << s << " " << p);
            REQUIRE(out[static_cast<std::size_t>((o / 8 * width + x) * 8 + o % 8)] ==
                    std::clamp<std::int64_t>(half_up(a + b, skip_scale), 0, 255));
        }
}

TEST_CASE("conv2dk1_even (bn_conv2dk1_relu / bn_conv2dk1_i8 -DREGULAR): the source's ties-to-even shift",
          "[kernels][conv2d]") {
    // bn_conv2dk1_relu.cc:1309-1312 and bn_conv2dk1_i8.cc:692-694 write the rounding as
    // (sum + 2^(scale-1) - 1 + ((sum >> scale) & 1)) >> scale; computed here as written
    // every width, as the scalar loops (mobilenet's bn6.. run 14, past a multiple of 4 or 8)
    std::mt19937 rng(37);
    const int ci = 16, co = 8;
    for (const int width : {8, 14, 3})
    for (const int scale : {1, 2, 4, 8}) {
        std::vector<std::int8_t> in_s(width * ci), w(ci * co), out_s8(width * co);
        std::vector<std::uint8_t> in_u(width * ci), out_u8(width * co);
        for (auto& x : in_s) x = static_cast<std::int8_t>(static_cast<int>(rng() % 17) - 8);
        for (auto& x : in_u) x = static_cast<std::uint8_t>(rng() % 9);
        for (auto& x : w) x = static_cast<std::int8_t>(static_cast<int>(rng() % 17) - 8);
        conv2dk1_even(in_s.data(), w.data(), out_u8.data(), width, ci, co, scale);
        conv2dk1_even(in_u.data(), w.data(), out_s8.data(), width, ci, co, scale);
        int ties = 0;
        for (int x = 0; x < width; ++x)
            for (int o = 0; o < co; ++o) {
                std::int64_t ss = 0, su = 0;
                for (int i = 0; i < ci; ++i) {
                    const auto wi = static_cast<std::size_t>(((o / 8 * (ci / 8) + i / 8) * 8 + i % 8) * 8 + o % 8);
                    const auto ii = static_cast<std::size_t>((i / 8 * width + x) * 8 + i % 8);
                    ss += std::int64_t{in_s[ii]} * w[wi];
                    su += std::int64_t{in_u[ii]} * w[wi];
                }
                auto even = [scale](std::int64_t s) {
                    return (s + (std::int64_t{1} << (scale - 1)) - 1 + ((s >> scale) & 1)) >> scale;
                };
                ties += (ss & ((std::int64_t{1} << scale) - 1)) == (std::int64_t{1} << (scale - 1));
                const auto at = static_cast<std::size_t>((o / 8 * width + x) * 8 + o % 8);
                INFO("width " << width << " scale " << scale << " x " << x << " o " << o << " sums " << ss << " " << su);
                REQUIRE(out_u8[at] == std::clamp<std::int64_t>(even(ss), 0, 255));
                REQUIRE(out_s8[at] == std::clamp<std::int64_t>(even(su), -128, 127));
            }
        if (scale <= 2) CHECK(ties > 0);
    }
    CHECK(conv2dk1_scalar_cycles(32, 64, 64) == 32u * 64u * 64u);
    std::vector<std::int8_t> b(4096);
    std::vector<std::uint8_t> u(4096);
    CHECK_THROWS_WITH(conv2dk1_even(b.data(), b.data(), u.data(), 8, 8, 8, 0), "conv2dk1_even: scale must be in 1..31 (got 0)");
}

TEST_CASE("conv2dk1_skip_even (bn_conv2dk1_skip -DREGULAR): to even, + skip, to even, int8", "[kernels][conv2d]") {
    // bn_conv2dk1_skip.cc:736-800 as written: both shifts (v + 2^(s-1) - 1 + ((v >> s) & 1)) >> s
    std::mt19937 rng(41);
    const int ci = 16, co = 8;
    auto even = [](std::int64_t v, int s) { return (v + (std::int64_t{1} << (s - 1)) - 1 + ((v >> s) & 1)) >> s; };
    for (const int width : {8, 14, 5})
    for (const auto& [scale, skip_scale] : {std::pair{3, 1}, std::pair{6, 2}, std::pair{2, 0}}) {
        std::vector<std::uint8_t> in(width * ci), skip_u(width * co);
        std::vector<std::int8_t> w(ci * co), skip_s(width * co), out_s(width * co), out_u(width * co);
        for (auto& x : in) x = static_cast<std::uint8_t>(rng() % 16);
        for (auto& x : w) x = static_cast<std::int8_t>(rng() & 0xff);
        for (auto& x : skip_s) x = static_cast<std::int8_t>(rng() & 0xff);
        for (auto& x : skip_u) x = static_cast<std::uint8_t>(rng() & 0xff);
        conv2dk1_skip_even(in.data(), w.data(), out_s.data(), skip_s.data(), width, ci, co, scale, skip_scale);
        conv2dk1_skip_even(in.data(), w.data(), out_u.data(), skip_u.data(), width, ci, co, scale, skip_scale);
        for (int x = 0; x < width; ++x)
            for (int o = 0; o < co; ++o) {
                std::int64_t s = 0;
                for (int i = 0; i < ci; ++i)
                    s += std::int64_t{in[static_cast<std::size_t>((i / 8 * width + x) * 8 + i % 8)]} *
                         w[static_cast<std::size_t>(((o / 8 * (ci / 8) + i / 8) * 8 + i % 8) * 8 + o % 8)];
                const std::int64_t c = std::clamp<std::int64_t>(even(s, scale), -128, 127);
                const auto at = static_cast<std::size_t>((o / 8 * width + x) * 8 + o % 8);
                auto fin = [&](std::int64_t v) {
                    return std::clamp<std::int64_t>(skip_scale > 0 ? even(v, skip_scale) : v, -128, 127);
                };
                INFO("width " << width << " scales " << scale << " " << skip_scale << " x " << x << " o " << o);
                REQUIRE(out_s[at] == fin(c + skip_s[at]));
                REQUIRE(out_u[at] == fin(c + skip_u[at]));
            }
    }
}

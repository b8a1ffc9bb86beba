// Tests for the reference conv2dk1_i8 (kernels_ref/conv2d.hpp) against a matrix formulation:
// Eigen's int64 product of the pixels x input-channels matrix with the input x output-channels
// weight matrix, gathered from the YCXC8 / OIYXI8O8 layouts, then the rounding shift and int8
// saturation written out per element.
#include <npusim/kernels/conv2d.hpp>

#include <Eigen/Dense>
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

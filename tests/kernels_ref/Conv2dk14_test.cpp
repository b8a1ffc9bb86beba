// Tests for the reference conv2dk14_i8 (kernels_ref/conv2dk14.hpp) against a matrix formulation:
// Eigen's int64 product of the tiles x (pixels * rgba) matrix with the (pixels * rgba) x channels
// weight matrix, both gathered from the kernel's layouts, then the ties-away-from-zero shift written
// as a division of the magnitude and the int8 saturation.
#include <npusim/kernels/conv2dk14.hpp>

#include <Eigen/Dense>
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

using namespace npusim::kernels;

namespace {
using K14Mat = Eigen::Matrix<std::int64_t, Eigen::Dynamic, Eigen::Dynamic>;

std::int64_t k14_ties_away(std::int64_t s, int scale) {
    const std::int64_t d = std::int64_t{1} << scale, mag = s < 0 ? -s : s;
    const std::int64_t q = scale == 0 ? mag : (2 * mag + d) / (2 * d);
    const std::int64_t r = s < 0 ? -q : q;
    return r < -128 ? -128 : r > 127 ? 127 : r;
}
} // namespace

TEST_CASE("conv2dk14_i8 is the layout-mapped product of tiles and weights, ties away from zero, saturated",
          "[kernels][conv2d]") {
    std::mt19937 rng(41);
    struct C {
        int kw, tiles, co, scale;
        unsigned mask;
    };
    for (const C c : {C{14, 16, 16, 14, 0xff}, C{14, 8, 8, 0, 0x01}, C{2, 8, 16, 1, 0x03}, C{4, 24, 8, 5, 0x07}}) {
        const int px = c.kw * c.kw, w = c.tiles * c.kw;
        std::vector<std::uint8_t> in(static_cast<std::size_t>(c.tiles * px * 4));
        std::vector<std::int8_t> wt(static_cast<std::size_t>(c.co * px * 4)),
            out(static_cast<std::size_t>(c.tiles * c.co), 0x55);
        for (auto& v : in) v = static_cast<std::uint8_t>(rng() & c.mask);
        for (auto& v : wt) v = static_cast<std::int8_t>(rng() & 0xff);
        K14Mat A(c.tiles, px * 4), B(px * 4, c.co);
        for (int t = 0; t < c.tiles; ++t)
            for (int p = 0; p < px; ++p)
                for (int v = 0; v < 4; ++v)
                    A(t, p * 4 + v) =
                        in[static_cast<std::size_t>((((t / 8) * (px / 2) + p / 2) * 8 + t % 8) * 8 + (p % 2) * 4 + v)];
        for (int p = 0; p < px; ++p)
            for (int v = 0; v < 4; ++v)
                for (int o = 0; o < c.co; ++o)
                    B(p * 4 + v, o) =
                        wt[static_cast<std::size_t>((((o / 8) * (px / 2) + p / 2) * 2 + p % 2) * 32 + v * 8 + o % 8)];
        const K14Mat S = A * B;
        conv2dk14_i8(in.data(), wt.data(), out.data(), w, 4, c.co, c.kw, c.scale);
        for (int t = 0; t < c.tiles; ++t)
            for (int o = 0; o < c.co; ++o) {
                INFO("kw " << c.kw << " tiles " << c.tiles << " co " << c.co << " scale " << c.scale << " tile " << t
                           << " channel " << o);
                REQUIRE(out[static_cast<std::size_t>(((o / 8) * (c.tiles / 8) + t / 8) * 64 + (t % 8) * 8 + o % 8)] ==
                        k14_ties_away(S(t, o), c.scale));
            }
    }
}

TEST_CASE("conv2dk14_i8 edges: negative ties away from zero, saturation both ways, refusals, cost",
          "[kernels][conv2d]") {
    // kernel 2x2 (2 pixel pairs), 8 tiles, 8 channels: one input value (tile t, pixel 0, R) and one
    // weight (pixel 0, R, channel 0) carry data, so channel 0 of tile t is in * w
    auto one = [](std::uint8_t v, std::int8_t wv, int scale) {
        std::vector<std::uint8_t> in(8 * 4 * 4, 0);
        std::vector<std::int8_t> wt(8 * 4 * 4, 0), out(64, 0x55);
        for (int t = 0; t < 8; ++t) in[static_cast<std::size_t>(t * 8)] = v;
        wt[0] = wv;
        conv2dk14_i8(in.data(), wt.data(), out.data(), 16, 4, 8, 2, scale);
        return int{out[0]};
    };
    CHECK(one(3, 1, 1) == 2); // 1.5 -> 2
    CHECK(one(3, -1, 1) == -2); // -1.5 -> -2 (half up would give -1)
    CHECK(one(1, -1, 1) == -1); // -0.5 -> -1
    CHECK(one(5, -1, 2) == -1); // -1.25 -> -1
    CHECK(one(255, 127, 0) == 127);
    CHECK(one(255, -128, 0) == -128);
    CHECK(one(255, -128, 8) == -128); // -127.5 -> -128
    std::vector<std::uint8_t> in(4096);
    std::vector<std::int8_t> wt(4096), out(4096);
    CHECK_THROWS_WITH(conv2dk14_i8(in.data(), wt.data(), out.data(), 42, 4, 8, 3, 0),
                      "conv2dk14_i8: kernel_width must be positive and even (got 3)");
    CHECK_THROWS_WITH(
        conv2dk14_i8(in.data(), wt.data(), out.data(), 56, 4, 8, 14, 0),
        "conv2dk14_i8: width must be a positive multiple of 8 * kernel_width (tiles in groups of 8; got 56)");
    CHECK_THROWS_WITH(conv2dk14_i8(in.data(), wt.data(), out.data(), 16, 4, 12, 2, 0),
                      "conv2dk14_i8: output_channels must be a positive multiple of 8 (got 12)");
    CHECK_THROWS_WITH(conv2dk14_i8(in.data(), wt.data(), out.data(), 16, 4, 8, 2, 40),
                      "conv2dk14_i8: scale must be in 0..31 (got 40)");
    // 224 wide, 16 channels: 2 tile groups x 2 channel groups, 98 pixel pairs each, + 4 stores
    CHECK(conv2dk14_cycles(224, 16, 14, 1) == 4 * 98 + 4);
    CHECK(conv2dk14_cycles(224, 16, 14, 2) == 4 * 98 * 2 + 4);
    // at most the generation's int8 peak: 512 MACs per cycle on AIE2P, 256 on AIE2
    const double macs = 16.0 * 16 * 196 * 4;
    CHECK(macs / static_cast<double>(conv2dk14_cycles(224, 16, 14, 1)) <= 512.0);
    CHECK(macs / static_cast<double>(conv2dk14_cycles(224, 16, 14, 2)) <= 256.0);
}

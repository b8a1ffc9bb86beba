// Tests for the reference conv2dk3_u8 (kernels_ref/conv2dk3.hpp) against a padded-image formulation:
// the three rows are unpacked from YCXC8 into a [3][width + 2][ci] image with zero columns at both
// ends (and a zero row for the top row's line0 and the bottom row's line2), the weights from
// OIYXI8O8 into [co][ci][3][3], and every output is the plain 3x3 dot product, then the half-up
// shift written as a floor division and the [0, 255] saturation.
#include <npusim/kernels/conv2dk3.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

using namespace npusim::kernels;

namespace {

struct K3Case {
    int width, ci, co, co_total, offset, check, scale;
};

// floor(s / 2^scale + 1/2) without shifts: floor((2s + 2^scale) / 2^(scale + 1))
std::int64_t k3_floor_half_up(std::int64_t s, int scale) {
    if (scale == 0) return s;
    const std::int64_t d = std::int64_t{2} << scale, n = 2 * s + (std::int64_t{1} << scale);
    return n >= 0 ? n / d : -((-n + d - 1) / d);
}

std::vector<std::uint8_t> k3_expected(const K3Case& c, const std::vector<std::uint8_t> (&lines)[3],
                                      const std::vector<std::int8_t>& w) {
    const int pw = c.width + 2;
    std::vector<std::int64_t> img(static_cast<std::size_t>(3 * pw * c.ci), 0);
    for (int r = 0; r < 3; ++r) {
        if ((r == 0 && c.check == 0) || (r == 2 && c.check == 2)) continue;
        for (int x = 0; x < c.width; ++x)
            for (int i = 0; i < c.ci; ++i)
                img[static_cast<std::size_t>((r * pw + x + 1) * c.ci + i)] =
                    lines[r][static_cast<std::size_t>((i / 8 * c.width + x) * 8 + i % 8)];
    }
    std::vector<std::uint8_t> out(static_cast<std::size_t>(c.width * c.co));
    for (int o = 0; o < c.co; ++o)
        for (int x = 0; x < c.width; ++x) {
            std::int64_t s = 0;
            const int wo = o + c.offset;
            for (int i = 0; i < c.ci; ++i)
                for (int ky = 0; ky < 3; ++ky)
                    for (int kx = 0; kx < 3; ++kx) {
                        const std::size_t wat = static_cast<std::size_t>(
                            ((((wo / 8) * (c.ci / 8) + i / 8) * 3 + ky) * 3 + kx) * 64 + (i % 8) * 8 + wo % 8);
                        s += img[static_cast<std::size_t>((ky * pw + x + kx) * c.ci + i)] * w[wat];
                    }
            const std::int64_t q = k3_floor_half_up(s, c.scale);
            out[static_cast<std::size_t>((o / 8 * c.width + x) * 8 + o % 8)] = static_cast<std::uint8_t>(q < 0     ? 0
                                                                                                         : q > 255 ? 255
                                                                                                                   : q);
        }
    return out;
}

} // namespace

TEST_CASE("conv2dk3_u8 is the zero-padded 3x3 dot product, shifted half up and saturated to [0, 255]",
          "[kernels][conv2d]") {
    std::mt19937 rng(31);
    for (const K3Case c :
         {K3Case{32, 32, 16, 32, 16, 1, 11}, K3Case{32, 32, 16, 32, 0, 0, 9}, K3Case{32, 16, 8, 8, 0, 2, 7},
          K3Case{8, 8, 8, 16, 8, 1, 0}, K3Case{4, 8, 16, 16, 0, 1, 1}, K3Case{12, 24, 8, 24, 16, 2, 12}}) {
        std::vector<std::uint8_t> lines[3];
        for (auto& l : lines) {
            l.resize(static_cast<std::size_t>(c.width * c.ci));
            for (auto& v : l) v = static_cast<std::uint8_t>(rng() & 0xff);
        }
        std::vector<std::int8_t> w(static_cast<std::size_t>(9 * c.ci * c.co_total));
        for (auto& v : w) v = static_cast<std::int8_t>(rng() & 0xff);
        std::vector<std::uint8_t> out(static_cast<std::size_t>(c.width * c.co), 0x55);
        conv2dk3_u8(lines[0].data(), lines[1].data(), lines[2].data(), w.data(), out.data(), c.width, c.ci, c.co, 3, 3,
                    c.check, c.scale, c.offset);
        INFO("w" << c.width << " ci" << c.ci << " co" << c.co << " offset " << c.offset << " check " << c.check
                 << " scale " << c.scale);
        CHECK(out == k3_expected(c, lines, w));
    }
}

TEST_CASE("conv2dk3_u8 edges: ties half up, negative sums to 0, saturation at 255, the zero border",
          "[kernels][conv2d]") {
    // one input channel and one output channel carry data: the sum at x is
    // line1[x] * w(center) + line1[x - 1] * w(left tap) (+ the other rows' taps when used)
    const int width = 4, ci = 8, co = 8;
    auto run = [&](std::vector<std::uint8_t> l1, std::int8_t centre, std::int8_t left, std::int8_t top, int check,
                   int scale) {
        std::vector<std::uint8_t> line0(width * ci, 0), line1(width * ci, 0), line2(width * ci, 0),
            out(width * co, 0x55);
        for (int x = 0; x < width; ++x) {
            line1[x * 8] = l1[static_cast<std::size_t>(x)];
            line0[x * 8] = 200; // the row above, channel 0
        }
        std::vector<std::int8_t> w(9 * ci * co, 0);
        w[(1 * 3 + 1) * 64] = centre; // ky 1, kx 1, ic 0, oc 0
        w[(1 * 3 + 0) * 64] = left; // ky 1, kx 0
        w[(0 * 3 + 1) * 64] = top; // ky 0, kx 1
        conv2dk3_u8(line0.data(), line1.data(), line2.data(), w.data(), out.data(), width, ci, co, 3, 3, check, scale,
                    0);
        return std::vector<int>{out[0], out[8], out[16], out[24]};
    };
    // scale 1: 1 -> 0.5 -> 1, 3 -> 1.5 -> 2, 5 -> 2.5 -> 3 (ties up); middle row, no other taps
    CHECK(run({1, 3, 5, 2}, 1, 0, 0, 1, 1) == std::vector<int>{1, 2, 3, 1});
    // negative sums: -1 -> -0.5 -> 0, -3 -> -1.5 -> -1 -> saturated to 0
    CHECK(run({1, 3, 5, 2}, -1, 0, 0, 1, 1) == std::vector<int>{0, 0, 0, 0});
    // saturation: 255 * 127 at scale 0
    CHECK(run({255, 0, 1, 2}, 127, 0, 0, 1, 0) == std::vector<int>{255, 0, 127, 254});
    // the left tap: x = 0 reads the zero border; x reads line1[x - 1]
    CHECK(run({10, 20, 30, 40}, 0, 1, 0, 1, 0) == std::vector<int>{0, 10, 20, 30});
    // the row above: used for a middle row (200 each), not for the top row
    CHECK(run({10, 20, 30, 40}, 1, 0, 1, 1, 0) == std::vector<int>{210, 220, 230, 240});
    CHECK(run({10, 20, 30, 40}, 1, 0, 1, 0, 0) == std::vector<int>{10, 20, 30, 40});
}

TEST_CASE("conv2dk3_u8 refuses bad arguments, and its cost estimate", "[kernels][conv2d]") {
    std::vector<std::uint8_t> l(4096), o(4096);
    std::vector<std::int8_t> w(8192);
    auto call = [&](int width, int ci, int co, int kw, int check, int scale, int offset) {
        conv2dk3_u8(l.data(), l.data(), l.data(), w.data(), o.data(), width, ci, co, kw, 3, check, scale, offset);
    };
    CHECK_THROWS_WITH(call(8, 12, 8, 3, 1, 1, 0),
                      "conv2dk3_u8: input_channels must be a positive multiple of 8 (got 12)");
    CHECK_THROWS_WITH(call(8, 8, 8, 5, 1, 1, 0), "conv2dk3_u8: kernel_width and kernel_height must be 3 (got 5 x 3)");
    CHECK_THROWS_WITH(call(8, 8, 8, 3, 3, 1, 0),
                      "conv2dk3_u8: check must be 0 (top), 1 (middle) or 2 (bottom) (got 3)");
    CHECK_THROWS_WITH(call(8, 8, 8, 3, 1, 32, 0), "conv2dk3_u8: scale must be in 0..31 (got 32)");
    CHECK_THROWS_WITH(call(8, 8, 8, 3, 1, 1, 4),
                      "conv2dk3_u8: channel_offset must be a non-negative multiple of 8 (got 4)");
    CHECK_THROWS_WITH(call(0, 8, 8, 3, 1, 1, 0), "conv2dk3_u8: width must be > 0 (got 0)");
    CHECK_THROWS_AS(conv2dk3_u8(nullptr, l.data(), l.data(), w.data(), o.data(), 8, 8, 8, 3, 3, 1, 1, 0),
                    std::invalid_argument);
    // 32 wide, 32 in, 16 out: 8 x 2 blocks of 4 pixels x 8 channels, 4 input groups, 3 rows x 3 taps
    CHECK(conv2dk3_cycles(32, 32, 16, 1) == 16 * 4 * 9 + 16);
    CHECK(conv2dk3_cycles(32, 32, 16, 0) == 16 * 4 * 6 + 16);
    // never above AIE2's int8 peak of 256 MACs per cycle
    for (const int check : {0, 1, 2})
        for (const int ci : {8, 64, 256}) {
            const double macs = 32.0 * ci * 64 * (check == 1 ? 9 : 6);
            CHECK(macs / static_cast<double>(conv2dk3_cycles(32, ci, 64, check)) <= 256.0);
        }
}

TEST_CASE("conv2dk3_dw (bn_conv2dk3_dw): per-channel zero-padded 3x3 sums, to even, clamped, stride 1 and 2",
          "[kernels][conv2d]") {
    std::mt19937 rng(35);
    for (const int stride : {1, 2})
        for (const int check : {0, 1, 2})
            for (const int scale : {1, 2, 7}) {
                const int w = 12, c = 16, ow = w / stride;
                std::vector<std::uint8_t> rows[3];
                for (auto& r : rows) {
                    r.resize(static_cast<std::size_t>(w * c));
                    for (auto& v : r) v = static_cast<std::uint8_t>(rng() & (scale == 1 ? 0x03 : 0xff));
                }
                std::vector<std::int8_t> wt(static_cast<std::size_t>(9 * c));
                for (auto& v : wt) v = static_cast<std::int8_t>(rng() & 0xff);
                std::vector<std::uint8_t> out(static_cast<std::size_t>(ow * c), 0x55);
                (stride == 1 ? conv2dk3_dw_stride1_u8 : conv2dk3_dw_stride2_u8)(rows[0].data(), rows[1].data(),
                                                                                rows[2].data(), wt.data(), out.data(),
                                                                                w, c, c, 3, 3, check, scale, 0);
                for (int ch = 0; ch < c; ++ch)
                    for (int x = 0; x < ow; ++x) {
                        // the padded image: a zero column each side, a zero row outside the image
                        std::int64_t s = 0;
                        for (int ky = 0; ky < 3; ++ky)
                            for (int kx = 0; kx < 3; ++kx) {
                                const int px = stride * x + kx - 1;
                                const bool inside =
                                    px >= 0 && px < w && !(ky == 0 && check == 0) && !(ky == 2 && check == 2);
                                const std::int64_t a =
                                    inside ? rows[ky][static_cast<std::size_t>((ch / 8 * w + px) * 8 + ch % 8)] : 0;
                                s += a * wt[static_cast<std::size_t>((ch / 8 * 9 + ky * 3 + kx) * 8 + ch % 8)];
                            }
                        // to even, written with exact long double halves
                        const long double exact = static_cast<long double>(s) / static_cast<long double>(1LL << scale);
                        const long double fl = std::floor(exact);
                        std::int64_t q = static_cast<std::int64_t>(fl);
                        if (exact - fl > 0.5L || (exact - fl == 0.5L && (q % 2 != 0))) ++q;
                        const std::int64_t want = q < 0 ? 0 : q > 255 ? 255 : q;
                        INFO("stride " << stride << " check " << check << " scale " << scale << " ch " << ch << " x "
                                       << x);
                        REQUIRE(out[static_cast<std::size_t>((ch / 8 * ow + x) * 8 + ch % 8)] == want);
                    }
            }
    std::vector<std::uint8_t> l(4096), o(4096);
    std::vector<std::int8_t> wts(4096);
    CHECK_THROWS_WITH(
        conv2dk3_dw_stride1_u8(l.data(), l.data(), l.data(), wts.data(), o.data(), 8, 8, 8, 3, 3, 1, 0, 0),
        "conv2dk3_dw_stride1_u8: scale must be in 1..31 (got 0)");
    CHECK_THROWS_WITH(
        conv2dk3_dw_stride2_u8(l.data(), l.data(), l.data(), wts.data(), o.data(), 7, 8, 8, 3, 3, 1, 1, 0),
        "conv2dk3_dw_stride2_u8: width must be even (got 7)");
    CHECK(conv2dk3_dw_cycles(16, 64, 1) == 16 * 64 * 9);
}

TEST_CASE("conv2dk3_stride2_even (bn_conv2dk3): int8 rows, every second pixel, to even, clamped", "[kernels][conv2d]") {
    std::mt19937 rng(37);
    for (const int check : {0, 1, 2})
        for (const int scale : {1, 4, 10}) {
            const int w = 16, ci = 16, co = 8, wco = 16, offset = 8, ow = w / 2;
            std::vector<std::int8_t> rows[3];
            for (auto& r : rows) {
                r.resize(static_cast<std::size_t>(w * ci));
                for (auto& v : r)
                    v = static_cast<std::int8_t>(scale == 1 ? static_cast<int>(rng() % 5) - 2
                                                            : static_cast<int>(rng() & 0xff) - 128);
            }
            std::vector<std::int8_t> wt(static_cast<std::size_t>(9 * ci * wco));
            for (auto& v : wt) v = static_cast<std::int8_t>(rng() & 0xff);
            std::vector<std::uint8_t> out(static_cast<std::size_t>(ow * co), 0x55);
            conv2dk3_stride2_even(rows[0].data(), rows[1].data(), rows[2].data(), wt.data(), out.data(), w, ci, co, 3,
                                  3, check, scale, offset);
            for (int o = 0; o < co; ++o)
                for (int x = 0; x < ow; ++x) {
                    std::int64_t s = 0;
                    const int wo = o + offset;
                    for (int ky = 0; ky < 3; ++ky)
                        for (int kx = 0; kx < 3; ++kx) {
                            const int px = 2 * x + kx - 1;
                            if (px < 0 || px >= w || (ky == 0 && check == 0) || (ky == 2 && check == 2)) continue;
                            for (int i = 0; i < ci; ++i)
                                s += std::int64_t{rows[ky][static_cast<std::size_t>((i / 8 * w + px) * 8 + i % 8)]} *
                                     wt[static_cast<std::size_t>(((((wo / 8) * (ci / 8) + i / 8) * 3 + ky) * 3 + kx) *
                                                                     64 +
                                                                 (i % 8) * 8 + wo % 8)];
                        }
                    const long double exact = static_cast<long double>(s) / static_cast<long double>(1LL << scale);
                    const long double fl = std::floor(exact);
                    std::int64_t q = static_cast<std::int64_t>(fl);
                    if (exact - fl > 0.5L || (exact - fl == 0.5L && (q % 2 != 0))) ++q;
                    INFO("check " << check << " scale " << scale << " o " << o << " x " << x);
                    REQUIRE(out[static_cast<std::size_t>((o / 8 * ow + x) * 8 + o % 8)] == (q < 0     ? 0
                                                                                            : q > 255 ? 255
                                                                                                      : q));
                }
        }
    CHECK(conv2dk3_stride2_cycles(16, 64, 64, 0) == 16u * 64 * 64 * 6);
}

TEST_CASE("conv2dk3_dw_out_split_u8 (bn_conv2dk3_dw_out_split): the stride-1 depthwise row, groups split in two",
          "[kernels][conv2d]") {
    std::mt19937 rng(37);
    for (const int c : {16, 24, 8}) // 24: one group to output1, two to output2; 8: all to output2
        for (const int w : {2, 7})
            for (const int check : {0, 1, 2})
                for (const int scale : {1, 8}) {
                    std::vector<std::uint8_t> rows[3];
                    for (auto& r : rows) {
                        r.resize(static_cast<std::size_t>(w * c));
                        for (auto& v : r) v = static_cast<std::uint8_t>(rng() & (scale == 1 ? 0x03 : 0xff));
                    }
                    std::vector<std::int8_t> wt(static_cast<std::size_t>(9 * c));
                    for (auto& v : wt) v = static_cast<std::int8_t>(rng() & 0xff);
                    const int first = c / 16; // output1's groups
                    std::vector<std::uint8_t> o1(static_cast<std::size_t>(w * c), 0x55), o2(o1.size(), 0x66);
                    conv2dk3_dw_out_split_u8(rows[0].data(), rows[1].data(), rows[2].data(), wt.data(), o1.data(),
                                             o2.data(), w, 1, c, 3, 3, check, scale, 0);
                    for (int ch = 0; ch < c; ++ch)
                        for (int x = 0; x < w; ++x) {
                            std::int64_t s = 0;
                            for (int ky = 0; ky < 3; ++ky)
                                for (int kx = 0; kx < 3; ++kx) {
                                    const int px = x + kx - 1;
                                    if (px < 0 || px >= w || (ky == 0 && check == 0) || (ky == 2 && check == 2))
                                        continue;
                                    s += std::int64_t{rows[ky][static_cast<std::size_t>((ch / 8 * w + px) * 8 + ch % 8)]} *
                                         wt[static_cast<std::size_t>((ch / 8 * 9 + ky * 3 + kx) * 8 + ch % 8)];
                                }
                            const long double exact = static_cast<long double>(s) / static_cast<long double>(1LL << scale);
                            const long double fl = std::floor(exact);
                            std::int64_t q = static_cast<std::int64_t>(fl);
                            if (exact - fl > 0.5L || (exact - fl == 0.5L && (q % 2 != 0))) ++q;
                            const std::int64_t want = q < 0 ? 0 : q > 255 ? 255 : q;
                            const int g = ch / 8;
                            const auto& dst = g < first ? o1 : o2;
                            const int dg = g < first ? g : g - first;
                            INFO("c " << c << " w " << w << " check " << check << " scale " << scale << " ch " << ch);
                            REQUIRE(dst[static_cast<std::size_t>((dg * w + x) * 8 + ch % 8)] == want);
                        }
                    // nothing past each half's groups is written
                    for (std::size_t i = static_cast<std::size_t>(first * w * 8); i < o1.size(); ++i) REQUIRE(o1[i] == 0x55);
                    for (std::size_t i = static_cast<std::size_t>((c / 8 - first) * w * 8); i < o2.size(); ++i)
                        REQUIRE(o2[i] == 0x66);
                }
    std::vector<std::uint8_t> l(256), o(256);
    std::vector<std::int8_t> wts(256);
    CHECK_THROWS_WITH(conv2dk3_dw_out_split_u8(l.data(), l.data(), l.data(), wts.data(), o.data(), o.data(), 1, 8, 16,
                                               3, 3, 1, 4, 0),
                      "conv2dk3_dw_out_split_u8: width must be at least 2 (got 1)");
    CHECK_THROWS_WITH(conv2dk3_dw_out_split_u8(l.data(), l.data(), l.data(), wts.data(), o.data(), nullptr, 4, 8, 16,
                                               3, 3, 1, 4, 0),
                      "conv2dk3_dw_out_split_u8: pointer argument 'output2' is null");
    CHECK_THROWS_WITH(conv2dk3_dw_out_split_u8(l.data(), l.data(), l.data(), wts.data(), o.data(), o.data(), 4, 8, 12,
                                               3, 3, 1, 4, 0),
                      "conv2dk3_dw_out_split_u8: output_channels must be a positive multiple of 8 (got 12)");
    CHECK_THROWS_WITH(conv2dk3_dw_out_split_u8(l.data(), l.data(), l.data(), wts.data(), o.data(), o.data(), 4, 8, 16,
                                               3, 3, 3, 4, 0),
                      "conv2dk3_dw_out_split_u8: check must be 0 (top), 1 (middle) or 2 (bottom) (got 3)");
}

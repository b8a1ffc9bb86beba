// Tests for the reference vision line kernels (kernels_ref/vision.hpp), each against a formulation
// of its own: rational arithmetic in double with an explicit rounding, whole-image stencils with
// padded borders, and hand-computed values.
#include <npusim/kernels/vision.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

using namespace npusim::kernels;

namespace {

std::vector<std::uint8_t> random_bytes(std::size_t n, std::mt19937& rng) {
    std::vector<std::uint8_t> v(n);
    for (auto& x : v) x = static_cast<std::uint8_t>(rng() & 0xff);
    return v;
}

// round half up of a real value, clipped to 0..255
std::uint8_t round_clip(double v) { return static_cast<std::uint8_t>(std::clamp(std::floor(v + 0.5), 0.0, 255.0)); }

} // namespace

TEST_CASE("rgba2gray_line is BT.601 in Q15 rounded half up", "[kernels][vision]") {
    std::mt19937 rng(1);
    const int width = 96;
    auto rgba = random_bytes(4 * width, rng);
    // hand-computed: white stays 255, pure red (9798 * 255 / 32768 = 76.25) is 76, pure green 150
    // (149.69), pure blue 29 (29.07)
    const std::uint8_t fixed[4][4] = {{255, 255, 255, 0}, {255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}};
    for (int i = 0; i < 4; ++i) std::copy(fixed[i], fixed[i] + 4, rgba.begin() + 4 * i);
    std::vector<std::uint8_t> gray(width);
    rgba2gray_line(rgba.data(), gray.data(), width);
    CHECK(gray[0] == 255);
    CHECK(gray[1] == 76);
    CHECK(gray[2] == 150);
    CHECK(gray[3] == 29);
    for (int x = 0; x < width; ++x) {
        const double y = (9798.0 * rgba[4 * x] + 19235.0 * rgba[4 * x + 1] + 3736.0 * rgba[4 * x + 2]) / 32768.0;
        REQUIRE(gray[x] == round_clip(y));
    }
}

TEST_CASE("gray2rgba_line replicates grey with alpha 255", "[kernels][vision]") {
    std::mt19937 rng(2);
    const auto gray = random_bytes(64, rng);
    std::vector<std::uint8_t> rgba(256, 7);
    gray2rgba_line(gray.data(), rgba.data(), 64);
    for (int x = 0; x < 64; ++x) {
        const std::vector<std::uint8_t> px(rgba.begin() + 4 * x, rgba.begin() + 4 * x + 4);
        REQUIRE(px == std::vector<std::uint8_t>{gray[x], gray[x], gray[x], 255});
    }
}

TEST_CASE("threshold_line implements the five OpenCV threshold types with a strict compare", "[kernels][vision]") {
    std::vector<std::uint8_t> in(256), out(256);
    for (int i = 0; i < 256; ++i) in[i] = static_cast<std::uint8_t>(i);
    for (int t : {0, 10, 50, 128, 255})
        for (int type = 0; type <= 5; ++type) {
            threshold_line(in.data(), out.data(), 256, static_cast<std::uint8_t>(t), 200,
                           static_cast<std::uint8_t>(type));
            for (int v = 0; v < 256; ++v) {
                int want = 0;
                if (type == 0) want = v <= t ? 0 : 200;
                if (type == 1) want = v <= t ? 200 : 0;
                if (type == 2 || type == 5) want = std::min(v, t); // 5: the kernel's default branch
                if (type == 3) want = v <= t ? 0 : v;
                if (type == 4) want = v <= t ? v : 0;
                INFO("t " << t << " type " << type << " v " << v);
                REQUIRE(out[v] == want);
            }
        }
}

TEST_CASE("filter2d_line is a 3x3 stencil of the Q12 kernel's high bytes with replicated borders",
          "[kernels][vision]") {
    std::mt19937 rng(3);
    const int width = 64;
    std::vector<std::vector<std::uint8_t>> img(3);
    for (auto& l : img) l = random_bytes(width, rng);
    // The Laplacian [[0,1,0],[1,-4,1],[0,1,0]] in Q12 (whole multiples of 256: nothing dropped) on the
    // middle line, against the whole-image stencil on an edge-padded image (numpy.pad mode="edge"),
    // clipped as cv::filter2D's u8 result.
    const std::int16_t lap[9] = {0, 4096, 0, 4096, -16384, 4096, 0, 4096, 0};
    std::vector<std::uint8_t> out(width);
    filter2d_line(img[0].data(), img[1].data(), img[2].data(), out.data(), width, lap);
    std::vector<int> padded(width + 2);
    for (int x = 0; x < width + 2; ++x) padded[x] = img[1][std::clamp(x - 1, 0, width - 1)];
    for (int x = 0; x < width; ++x) {
        const int v = -4 * padded[x + 1] + padded[x] + padded[x + 2] + img[0][x] + img[2][x];
        REQUIRE(out[x] == std::clamp(v, 0, 255));
    }
    // Random coefficients: each truncated to a multiple of 256 (its high byte, toward -inf), the sum
    // over 4096 rounded down (floor), saturated.
    for (int trial = 0; trial < 20; ++trial) {
        std::int16_t k[9];
        for (auto& c : k) c = static_cast<std::int16_t>(static_cast<int>(rng() % 65536) - 32768);
        filter2d_line(img[0].data(), img[1].data(), img[2].data(), out.data(), width, k);
        for (int x = 0; x < width; ++x) {
            double sum = 0;
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c)
                    sum +=
                        std::floor(k[3 * r + c] / 256.0) * 256.0 * double(img[r][std::clamp(x + c - 1, 0, width - 1)]);
            REQUIRE(out[x] == std::clamp(std::floor(sum / 4096.0), 0.0, 255.0));
        }
    }
    CHECK_THROWS_AS(filter2d_line(img[0].data(), img[1].data(), img[2].data(), out.data(), 48, lap),
                    std::invalid_argument);
    CHECK_THROWS_WITH(filter2d_line(img[0].data(), img[1].data(), img[2].data(), out.data(), 48, lap),
                      "filter2d_line: width must be a multiple of 32 and at least 64 (got 48)");
    CHECK_THROWS_WITH(filter2d_line(img[0].data(), img[1].data(), img[2].data(), out.data(), 32, lap),
                      "filter2d_line: width must be a multiple of 32 and at least 64 (got 32)");
}

TEST_CASE("filter2d_line: from the third 32-pixel block on, a block's first pixel takes the pixel two back",
          "[kernels][vision]") {
    // filter2d.cc:144-145 refills the carried register after shifting it: a kernel that copies the
    // left neighbour shows which pixel each output reads.
    const int width = 160;
    std::vector<std::uint8_t> line(width), out(width);
    for (int x = 0; x < width; ++x) line[x] = static_cast<std::uint8_t>(x + 1);
    const std::int16_t left_only[9] = {0, 0, 0, 4096, 0, 0, 0, 0, 0};
    filter2d_line(line.data(), line.data(), line.data(), out.data(), width, left_only);
    for (int x = 0; x < width; ++x) {
        INFO("x " << x);
        const int want = x == 0 ? line[0] : (x % 32 == 0 && x >= 64) ? line[x - 2] : line[x - 1];
        REQUIRE(out[x] == want);
    }
}

TEST_CASE("add_weighted_line is a saturating Q14 weighted sum with gamma added before the shift", "[kernels][vision]") {
    std::mt19937 rng(4);
    const int n = 256;
    const auto a = random_bytes(n, rng), b = random_bytes(n, rng);
    std::vector<std::uint8_t> out(n);
    const int weights[][3] = {{16384, 16384, 0}, {8192, 8192, 255}, {-16384, 16384, 3}, {12345, -2345, 17}};
    for (const auto& w : weights) {
        add_weighted_line(a.data(), b.data(), out.data(), n, static_cast<std::int16_t>(w[0]),
                          static_cast<std::int16_t>(w[1]), static_cast<std::uint8_t>(w[2]));
        for (int i = 0; i < n; ++i) {
            const double v = std::floor((a[i] * double(w[0]) + b[i] * double(w[1]) + w[2]) / 16384.0);
            REQUIRE(out[i] == std::clamp(v, 0.0, 255.0));
        }
    }
    // alpha = beta = 1.0: the saturating sum edge_detect uses
    add_weighted_line(a.data(), b.data(), out.data(), n, 16384, 16384, 0);
    for (int i = 0; i < n; ++i) REQUIRE(out[i] == std::min(255, a[i] + b[i]));
    // a half (8192 each) of 1 + 0 rounds down; gamma 8192 / 2^14 is not a whole step
    const std::uint8_t one = 1, zero = 0;
    add_weighted_line(&one, &zero, out.data(), 1, 8192, 8192, 255);
    CHECK(out[0] == 0);
}

TEST_CASE("vision kernel cost estimates", "[kernels][vision]") {
    CHECK(rgba2gray_line_cycles(1920) == 240);
    CHECK(gray2rgba_line_cycles(1920) == 240);
    CHECK(threshold_line_cycles(1920) == 60);
    CHECK(filter2d_line_cycles(1920) == 540);
    CHECK(add_weighted_line_cycles(7680) == 480);
    CHECK_THROWS_AS(filter2d_line_cycles(-1), std::invalid_argument);
}

TEST_CASE("rgba2hue_line is the integer hue on a 0..255 circle, halved rounding up", "[kernels][vision]") {
    // hand-computed: red 0, yellow (255,255,0) 43 (85 / 2 rounded up), green 85, cyan 128, blue
    // 170, magenta (r is the maximum first: -85, (-84 >> 1) = -42 stored as u8) 214, grey and
    // black 0, (200, 100, 50): mx = r, 85 * 50 / 150 = 28 -> 14
    const std::vector<std::vector<int>> px{{255, 0, 0},   {255, 255, 0}, {0, 255, 0}, {0, 255, 255}, {0, 0, 255},
                                           {255, 0, 255}, {77, 77, 77},  {0, 0, 0},   {200, 100, 50}};
    const std::vector<int> want{0, 43, 85, 128, 170, 214, 0, 0, 14};
    std::vector<std::uint8_t> rgba;
    for (const auto& p : px)
        for (int c : {p[0], p[1], p[2], 9}) rgba.push_back(static_cast<std::uint8_t>(c));
    std::vector<std::uint8_t> hue(px.size());
    rgba2hue_line(rgba.data(), hue.data(), static_cast<std::int32_t>(px.size()));
    for (std::size_t i = 0; i < px.size(); ++i) {
        INFO(i);
        CHECK(hue[i] == want[i]);
    }
    // Random pixels against the angle formulation in double: 42.5 * (sector + (x - y) / range)
    // over 255 / 360 of a turn, the sector's quotient truncated toward zero as C divides.
    std::mt19937 rng(6);
    const int n = 4096;
    const auto img = random_bytes(4 * n, rng);
    hue.resize(n);
    rgba2hue_line(img.data(), hue.data(), n);
    for (int i = 0; i < n; ++i) {
        const double r = img[4 * i], g = img[4 * i + 1], b = img[4 * i + 2];
        const double mx = std::max({r, g, b}), mn = std::min({r, g, b});
        double h2 = 0; // hue on 0..510
        if (mx != 0 && mx != mn) {
            if (mx == r)
                h2 = std::trunc(85.0 * (g - b) / (mx - mn));
            else if (mx == g)
                h2 = 170.0 + std::trunc(85.0 * (b - r) / (mx - mn));
            else
                h2 = 340.0 + std::trunc(85.0 * (r - g) / (mx - mn));
        }
        const int expect = static_cast<int>(std::floor((h2 + 1.0) / 2.0)) & 0xff;
        INFO("pixel " << i);
        REQUIRE(hue[i] == expect);
    }
}

TEST_CASE("bitwise_or_line and bitwise_and_line", "[kernels][vision]") {
    std::mt19937 rng(7);
    const auto a = random_bytes(256, rng), b = random_bytes(256, rng);
    std::vector<std::uint8_t> o(256), n(256);
    bitwise_or_line(a.data(), b.data(), o.data(), 256);
    bitwise_and_line(a.data(), b.data(), n.data(), 256);
    for (int i = 0; i < 256; ++i) {
        // per bit: OR is set when either is, AND when both are
        for (int bit = 0; bit < 8; ++bit) {
            const bool x = (a[i] >> bit) & 1, y = (b[i] >> bit) & 1;
            REQUIRE(((o[i] >> bit) & 1) == (x || y ? 1 : 0));
            REQUIRE(((n[i] >> bit) & 1) == (x && y ? 1 : 0));
        }
    }
    CHECK(rgba2hue_line_cycles(1920) == 480);
    CHECK(bitwise_line_cycles(7680) == 240);
}

// rgba2hueLine_vector (kernels_ref/aie/rgba2hue.cc, the AIE-API build of aie_kernels/aie2/rgba2hue.cc's
// AIE2 vector path) against the vector path's arithmetic written plainly here, and its difference
// from the scalar formula (npusim::kernels::rgba2hue_line, rgba2hue_aie_scalar, which upstream's
// color_detect golden _rgba2hue_ref ports and compares exactly).
#include <npusim/aie_kernels.hpp>
#include <npusim/kernels/vision.hpp>

#include <aie_api/aie.hpp> // only for resetting the core modes

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace {

// The vector path per pixel: d = max - min, inv = floor(85 * 2^9 / d) (lut_inv_16b; d = 0: 43520),
// candidates (c * 2^9 + (x - y) * inv) floor-shifted by 10 and wrapped to 8 bits.
std::uint8_t vector_hue(int r, int g, int b) {
    const int mx = std::max({r, g, b}), mn = std::min({r, g, b}), d = mx - mn;
    if (d == 0) return 0;
    const std::int64_t inv = 43520 / d;
    auto cand = [&](std::int64_t c, int x, int y) {
        return static_cast<std::uint8_t>(((c * 512 + (x - y) * inv) >> 10) & 0xFF);
    };
    if (mx == g) return cand(171, b, r);
    if (mx == r) return cand(1, g, b);
    return cand(341, r, g);
}

std::vector<std::uint8_t> test_pixels() {
    std::vector<std::uint8_t> px;
    auto add = [&](int r, int g, int b, int a) {
        px.insert(px.end(), {static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(g), static_cast<std::uint8_t>(b),
                             static_cast<std::uint8_t>(a)});
    };
    for (int r = 0; r < 256; r += 3)
        for (int g = 0; g < 256; g += 5)
            for (int b = 0; b < 256; b += 7) add(r, g, b, (r + g + b) & 0xFF);
    const int edges[] = {0, 1, 2, 127, 128, 254, 255};
    for (int r : edges)
        for (int g : edges)
            for (int b : edges) add(r, g, b, 255);
    std::mt19937 rng(3);
    while (px.size() % 128 != 0)
        add(static_cast<int>(rng() & 0xFF), static_cast<int>(rng() & 0xFF), static_cast<int>(rng() & 0xFF), 0);
    return px;
}

} // namespace

TEST_CASE("rgba2hueLine_vector computes the AIE2 vector path's hue (table inverse, SRS by 10, wrap)",
          "[aie_kernels][rgba2hue]") {
    const npusim::aie_api::ScopedCoreModes keep_modes; // the modes set here end with the test
    const auto px = test_pixels();
    const auto n = static_cast<std::int32_t>(px.size() / 4);
    std::vector<std::uint8_t> got(static_cast<std::size_t>(n)), scalar(static_cast<std::size_t>(n));
    npusim::aie_api::reset_core_modes(); // upstream sets no mode: floor, no saturation
    npusim::aie_kernels::rgba2hueLine_vector(px.data(), got.data(), n);
    npusim::kernels::rgba2hue_line(px.data(), scalar.data(), n);
    std::size_t differ = 0;
    for (std::int32_t i = 0; i < n; ++i) {
        const int r = px[4 * i], g = px[4 * i + 1], b = px[4 * i + 2];
        INFO("pixel " << i << " rgb " << r << " " << g << " " << b);
        REQUIRE(got[static_cast<std::size_t>(i)] == vector_hue(r, g, b));
        // against the scalar formula: never more than one step lower on the hue circle
        const int delta = (scalar[static_cast<std::size_t>(i)] - got[static_cast<std::size_t>(i)] + 256) % 256;
        REQUIRE((delta == 0 || delta == 1));
        differ += delta != 0;
    }
    // The difference is real (the floored inverse), so the vector build cannot stand in for the
    // reference under color_detect's exact golden: about a quarter of the pixels differ.
    CHECK(differ > px.size() / 4 / 10);
}

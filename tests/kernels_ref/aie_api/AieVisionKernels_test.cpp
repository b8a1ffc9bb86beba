// The project's AIE-API vision kernels (kernels_ref/aie: threshold, rgba2gray / gray2rgba,
// addWeighted, filter2d) against scalar references written plainly here, bit for bit, on random
// lines with edge values (split from AieKernels_test.cpp, whose helpers they share).
#include <npusim/aie_kernels.hpp>

#include "AieTestData.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

namespace k = npusim::aie_kernels;
using namespace npusim::test::aie_test_data;

TEST_CASE("aie thresholdLine, all threshold types", "[aie_kernels][threshold]") {
    std::mt19937 rng(8);
    for (int width : {64, 1920, 640, 100, 7}) {
        auto in = random_ints<std::uint8_t>(static_cast<std::size_t>(width), rng);
        for (std::uint8_t type = 0; type <= 4; ++type) {
            for (auto [t, mx] : {std::pair<int, int>{10, 255}, {0, 200}, {255, 1}, {127, 0}, {50, 255}}) {
                std::vector<std::uint8_t> out(in.size(), 0xCD);
                k::thresholdLine(in.data(), out.data(), width, static_cast<std::uint8_t>(t),
                                 static_cast<std::uint8_t>(mx), type);
                for (std::size_t i = 0; i < in.size(); ++i) {
                    const int x = in[i];
                    int e = 0;
                    switch (type) {
                    case 0: e = x > t ? mx : 0; break;
                    case 1: e = x > t ? 0 : mx; break;
                    case 2: e = x > t ? t : x; break;
                    case 3: e = x > t ? x : 0; break;
                    default: e = x > t ? 0 : x; break;
                    }
                    INFO("width " << width << " type " << int(type) << " t " << t << " i " << i);
                    REQUIRE(int(out[i]) == e);
                }
            }
        }
    }
}

TEST_CASE("aie rgba2grayLine / gray2rgbaLine", "[aie_kernels][color]") {
    std::mt19937 rng(9);
    for (int width : {32, 64, 1920, 640, 50, 5}) {
        auto rgba = random_ints<std::uint8_t>(static_cast<std::size_t>(4 * width), rng);
        for (int i = 0; i < 4 && i < width; ++i) // white, black and pure channels
            for (int c = 0; c < 4; ++c)
                rgba[static_cast<std::size_t>(4 * i + c)] = i == 0 ? 255 : (i == 1 ? 0 : (c + 2 == i ? 255 : 0));
        std::vector<std::uint8_t> gray(static_cast<std::size_t>(width), 0xCD);
        scramble_modes();
        k::rgba2grayLine(rgba.data(), gray.data(), width);
        for (int x = 0; x < width; ++x) {
            const auto p = static_cast<std::size_t>(4 * x);
            const std::int64_t e = (9798 * rgba[p] + 19235 * rgba[p + 1] + 3736 * rgba[p + 2] + (1 << 14)) >> 15;
            REQUIRE(int(gray[static_cast<std::size_t>(x)]) == e);
        }
        CHECK(gray[0] == 255);
        CHECK(gray[1] == 0);
        std::vector<std::uint8_t> back(static_cast<std::size_t>(4 * width), 0xCD);
        k::gray2rgbaLine(gray.data(), back.data(), width);
        for (int x = 0; x < width; ++x) {
            const auto p = static_cast<std::size_t>(4 * x);
            const auto g = gray[static_cast<std::size_t>(x)];
            REQUIRE(back[p] == g);
            REQUIRE(back[p + 1] == g);
            REQUIRE(back[p + 2] == g);
            REQUIRE(back[p + 3] == 255);
        }
    }
}

TEST_CASE("aie addWeightedLine: saturating Q14 weighted sum, gamma added before the shift at floor",
          "[aie_kernels][addweighted]") {
    std::mt19937 rng(10);
    struct W {
        int alpha, beta, gamma;
    };
    const W weights[] = {{16384, 16384, 0},   {8192, 8192, 0},     {-16384, 16384, 3},
                         {32767, 32767, 255}, {-32768, -32768, 0}, {1, 1, 0},
                         {8192, 0, 1},        {12345, -2345, 17},  {16384, -16384, 128}};
    for (int n : {128, 1920 * 4, 100}) {
        auto a = random_ints<std::uint8_t>(static_cast<std::size_t>(n), rng);
        auto b = random_ints<std::uint8_t>(static_cast<std::size_t>(n), rng);
        for (const W& w : weights) {
            std::vector<std::uint8_t> out(a.size());
            scramble_modes();
            k::addWeightedLine(a.data(), b.data(), out.data(), n, static_cast<std::int16_t>(w.alpha),
                               static_cast<std::int16_t>(w.beta), static_cast<std::uint8_t>(w.gamma));
            for (std::size_t i = 0; i < a.size(); ++i) {
                const std::int64_t s = w.gamma + std::int64_t{a[i]} * w.alpha + std::int64_t{b[i]} * w.beta;
                INFO("alpha " << w.alpha << " beta " << w.beta << " gamma " << w.gamma << " a " << int(a[i]) << " b "
                              << int(b[i]));
                REQUIRE(out[i] == clamp_u8(shr(s, 14)));
            }
        }
    }
}

TEST_CASE("aie filter2dLine: 3x3 filter of the Q12 kernel's high bytes with replicated borders",
          "[aie_kernels][filter2d]") {
    std::mt19937 rng(11);
    const std::int16_t laplacian[9] = {0, 4096, 0, 4096, -16384, 4096, 0, 4096, 0};
    for (int width : {64, 96, 160, 1920}) {
        for (int trial = 0; trial < 6; ++trial) {
            std::vector<std::int16_t> kern(laplacian, laplacian + 9);
            if (trial >= 2) {
                auto r = random_ints<std::int16_t>(9, rng, false);
                kern.assign(r.begin(), r.end());
            }
            if (trial == 5) // small weights: taps of -8 .. 7 (the high bytes), many sums on a multiple of 16
                for (auto& c : kern) c = static_cast<std::int16_t>(static_cast<int>(rng() % 4096) - 2048);
            std::vector<std::vector<std::uint8_t>> lines(3);
            for (auto& l : lines) l = random_ints<std::uint8_t>(static_cast<std::size_t>(width), rng, trial == 1);
            std::vector<std::uint8_t> out(static_cast<std::size_t>(width), 0xCD);
            scramble_modes();
            k::filter2dLine(lines[0].data(), lines[1].data(), lines[2].data(), out.data(), width, kern.data());
            for (int x = 0; x < width; ++x) {
                std::int64_t sum = 0;
                for (int r = 0; r < 3; ++r)
                    for (int c = 0; c < 3; ++c) {
                        // the left neighbour of the first pixel of the third and later 32-pixel blocks
                        // is two pixels back (mlir-aie aie2/filter2d.cc:144-145 at 3ca0193)
                        const int back = (c == 0 && x % 32 == 0 && x >= 64) ? 2 : 1;
                        const int xx = std::clamp(x + c - back, 0, width - 1);
                        const std::int64_t tap = kern[static_cast<std::size_t>(3 * r + c)] >> 8; // the high byte
                        sum += tap * lines[static_cast<std::size_t>(r)][static_cast<std::size_t>(xx)];
                    }
                INFO("width " << width << " trial " << trial << " x " << x);
                REQUIRE(out[static_cast<std::size_t>(x)] == clamp_u8(shr(sum, 4)));
            }
        }
    }
}

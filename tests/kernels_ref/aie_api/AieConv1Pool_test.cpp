// The AIE-API builds of the post-stage 1x1 kernels (kernels_ref/aie/bn_conv2dk1_pool.cc) against the
// references (kernels_ref/conv2dk1_pool.hpp), bit for bit: the fused pool over whole images of
// several widths (a last 4-pixel group short or full), chunks and scales (ties at scale 1, both
// clamps), its last-row average for every pool sum from 0 to 67320 (preset outputs with zero and
// with saturating weights), the middle rows' 16-bit wrap and the padding; the uint16 fully
// connected layer at odd and even widths, padded weight rows, full-range activations and ties.
#include <npusim/aie_kernels.hpp>
#include <npusim/kernels/conv2dk1_pool.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

namespace {

template <class T>
std::vector<T> aie_pool_random(std::size_t n, std::mt19937& rng, int lo, int hi) {
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(d(rng));
    return v;
}

} // namespace

TEST_CASE("aie conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8 equals the reference conv2dk1_xy_pool_padded_u16",
          "[aie_kernels][conv2d]") {
    std::mt19937 rng(59);
    for (const int w : {7, 1, 4, 9})
        for (const int scale : {1, 5, 10}) {
            const int ci = 24, co = 48, split = 3, padd = 64, tile = co / split;
            const auto wts = aie_pool_random<std::int8_t>(static_cast<std::size_t>(co * ci), rng, -128, 127);
            std::vector<std::uint16_t> want(static_cast<std::size_t>(padd) + 8, 0x6666), got = want;
            for (int y = 0; y < w; ++y) {
                const auto row = aie_pool_random<std::int8_t>(static_cast<std::size_t>(w * ci), rng,
                                                              scale == 1 ? -2 : -128, scale == 1 ? 2 : 127);
                for (int wi = 0; wi < split; ++wi) {
                    npusim::kernels::conv2dk1_xy_pool_padded_u16(row.data(), wts.data() + wi * tile * ci, want.data(),
                                                                 w, ci, co, padd, scale, y, split, wi);
                    npusim::aie_kernels::conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8(
                        row.data(), wts.data() + wi * tile * ci, got.data(), w, ci, co, padd, scale, y, split, wi);
                    INFO("width " << w << " scale " << scale << " row " << y << " chunk " << wi);
                    REQUIRE(got == want);
                }
            }
        }
}

TEST_CASE("aie conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8: the last row's average and a middle row's wrap for "
          "every pool sum up to 67320",
          "[aie_kernels][conv2d]") {
    // 65536 channels of one 8-channel input: output[c] = c before the call; zero weights add nothing,
    // saturating ones (8 * 127 * 127 >> 1, clamped) add 255 a pixel, 1785 over 7 pixels
    const int w = 7, ci = 8, co = 65536;
    const std::vector<std::int8_t> in(static_cast<std::size_t>(w * ci), 127);
    for (const int weight : {0, 127})
        for (const int y : {w - 1, 3}) {
            const std::vector<std::int8_t> wts(static_cast<std::size_t>(co) * ci, static_cast<std::int8_t>(weight));
            std::vector<std::uint16_t> want(static_cast<std::size_t>(co));
            for (int c = 0; c < co; ++c) want[static_cast<std::size_t>(c)] = static_cast<std::uint16_t>(c);
            std::vector<std::uint16_t> got = want;
            npusim::kernels::conv2dk1_xy_pool_padded_u16(in.data(), wts.data(), want.data(), w, ci, co, co, 1, y, 1, 0);
            npusim::aie_kernels::conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8(in.data(), wts.data(), got.data(), w,
                                                                                 ci, co, co, 1, y, 1, 0);
            INFO("weights " << weight << " row " << y);
            CHECK(got == want);
            if (weight == 127 && y == w - 1) CHECK(want[65535] == 1374); // 67320 / 49 = 1373.88: nearest
        }
}

TEST_CASE("aie post_L2_conv2dk1_relu_i16_ui16_pad equals the reference conv2dk1_fc_relu_pad_u16",
          "[aie_kernels][conv2d]") {
    std::mt19937 rng(60);
    for (const int w : {1, 2, 5})
        for (const auto& [ci, pad] : {std::pair{8, 8}, std::pair{40, 64}, std::pair{96, 96}})
            for (const int scale : {1, 8, 13}) {
                const int co = 16, hi = scale == 1 ? 2 : scale == 8 ? 255 : 65535;
                const auto in = aie_pool_random<std::uint16_t>(static_cast<std::size_t>(w * ci), rng, 0, hi);
                const auto wts = aie_pool_random<std::int8_t>(static_cast<std::size_t>(co * pad), rng, -128, 127);
                std::vector<std::uint16_t> want(static_cast<std::size_t>(w * co) + 8, 0x6666), got = want;
                npusim::kernels::conv2dk1_fc_relu_pad_u16(in.data(), wts.data(), want.data(), w, ci, pad, co, scale);
                npusim::aie_kernels::post_L2_conv2dk1_relu_i16_ui16_pad(in.data(), wts.data(), got.data(), w, ci, pad,
                                                                        co, scale);
                INFO("width " << w << " channels " << ci << "/" << pad << " scale " << scale);
                CHECK(got == want);
            }
}

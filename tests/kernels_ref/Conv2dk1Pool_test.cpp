// Tests for the reference post-stage kernels (kernels_ref/conv2dk1_pool.hpp): the fused 1x1 + ReLU +
// 7x7 average pool is run row by row over a whole image and compared with sums written here, its
// average taken in exact integers (the tenths digit of acc / 49 as floor(10 (acc mod 49) / 49)), which
// is also compared with the reference's float rounding for every pool sum below 2^19; the uint16
// fully connected layer is compared with sums written here. Rounding is half to even, written as a
// comparison of twice the remainder with the divisor; the data include ties, both clamps, the
// channel padding, the other chunks' channels left alone and the low 16 bits a middle row stores.
#include <npusim/kernels/conv2dk1_pool.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

using namespace npusim::kernels;

namespace {

// sum / 2^scale, nearest, ties to even, clamped to [0, 255]
std::int64_t pool_test_relu(std::int64_t sum, int scale) {
    const std::int64_t d = std::int64_t{1} << scale;
    std::int64_t q = sum / d, r = sum % d;
    if (r < 0) { // floor division
        --q;
        r += d;
    }
    if (2 * r > d || (2 * r == d && q % 2 != 0)) ++q;
    return q < 0 ? 0 : q > 255 ? 255 : q;
}

// The source's last-row rounding in exact integers: a tenths digit of 5 goes to the even side of
// the integer part (up when it is odd), anything else to the nearest integer.
std::uint32_t pool_test_average(std::uint32_t acc) {
    const std::uint32_t q = acc / 49, tenths = 10 * (acc % 49) / 49;
    if (tenths == 5) return q % 2 == 0 ? q : q + 1;
    return 2 * (acc % 49) > 49 ? q + 1 : q;
}

template <class T>
std::vector<T> pool_test_random(std::size_t n, std::mt19937& rng, int lo, int hi) {
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(d(rng));
    return v;
}

} // namespace

TEST_CASE("xy_pool_average49: the source's float rounding, equal to its integer form below 2^19", "[kernels][conv2d]") {
    CHECK(xy_pool_average49(0) == 0);
    CHECK(xy_pool_average49(117) == 2); // 2.387
    CHECK(xy_pool_average49(126) == 2); // 2.571: tenths 5, 2 is even
    CHECK(xy_pool_average49(127) == 2); // 2.592: tenths 5
    CHECK(xy_pool_average49(130) == 3); // 2.653
    CHECK(xy_pool_average49(172) == 4); // 3.510: tenths 5, 3 is odd
    CHECK(xy_pool_average49(12495) == 255);
    for (std::uint32_t acc = 0; acc < (1u << 19); ++acc)
        if (xy_pool_average49(acc) != pool_test_average(acc)) FAIL("acc " << acc);
}

TEST_CASE("conv2dk1_xy_pool_padded_u16 pools a 7x7 image's rectified 1x1 sums, per chunk, padded", "[kernels][conv2d]") {
    std::mt19937 rng(57);
    for (const int scale : {1, 6, 9}) {
        const int w = 7, ci = 16, co = 32, split = 2, padd = 48, tile = co / split;
        const auto wts = pool_test_random<std::int8_t>(static_cast<std::size_t>(co * ci), rng, -128, 127);
        std::vector<std::vector<std::int8_t>> rows;
        for (int y = 0; y < w; ++y)
            rows.push_back(pool_test_random<std::int8_t>(static_cast<std::size_t>(w * ci), rng,
                                                         scale == 1 ? -2 : -128, scale == 1 ? 2 : 127));
        std::vector<std::uint16_t> out(static_cast<std::size_t>(padd) + 8, 0x7777);
        for (int wi = 0; wi < split; ++wi)
            for (int y = 0; y < w; ++y)
                conv2dk1_xy_pool_padded_u16(rows[static_cast<std::size_t>(y)].data(), wts.data() + wi * tile * ci,
                                            out.data(), w, ci, co, padd, scale, y, split, wi);
        int ties = 0;
        for (int o = 0; o < co; ++o) {
            std::uint32_t acc = 0;
            for (int y = 0; y < w; ++y)
                for (int x = 0; x < w; ++x) {
                    std::int64_t s = 0;
                    for (int c = 0; c < ci; ++c)
                        s += std::int64_t{rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(
                                 (c / 8) * w * 8 + x * 8 + c % 8)]} *
                             wts[static_cast<std::size_t>((o / 8) * ci * 8 + (c / 8) * 64 + (c % 8) * 8 + o % 8)];
                    ties += s % (std::int64_t{1} << scale) == (std::int64_t{1} << (scale - 1)) ? 1 : 0;
                    acc += static_cast<std::uint32_t>(pool_test_relu(s, scale));
                }
            INFO("scale " << scale << " channel " << o << " pool sum " << acc);
            CHECK(out[static_cast<std::size_t>(o)] == pool_test_average(acc));
        }
        if (scale == 1) CHECK(ties > 0);
        for (int c = co; c < padd; ++c) CHECK(out[static_cast<std::size_t>(c)] == 0);
        for (int c = padd; c < padd + 8; ++c) CHECK(out[static_cast<std::size_t>(c)] == 0x7777);
    }
}

TEST_CASE("conv2dk1_xy_pool_padded_u16: a middle row adds to the stored sum and keeps its low 16 bits, other "
          "chunks untouched",
          "[kernels][conv2d]") {
    const int w = 3, ci = 8, co = 16, split = 2;
    std::vector<std::int8_t> in(static_cast<std::size_t>(w * ci), 100), wts(static_cast<std::size_t>(8 * ci), 100);
    std::vector<std::uint16_t> out(16, 0);
    for (int i = 0; i < 16; ++i) out[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(65530 + (i % 4));
    // each pixel: 8 * 100 * 100 = 80000 >> 1, clamped to 255; three pixels add 765
    conv2dk1_xy_pool_padded_u16(in.data(), wts.data(), out.data(), w, ci, co, 0, 1, 1, split, 1);
    for (int i = 0; i < 8; ++i) CHECK(out[static_cast<std::size_t>(i)] == 65530 + (i % 4));
    for (int i = 8; i < 16; ++i) CHECK(out[static_cast<std::size_t>(i)] == ((65530 + (i % 4) + 765) & 0xffff));
    // row 0 starts from zero whatever the output holds
    conv2dk1_xy_pool_padded_u16(in.data(), wts.data(), out.data(), w, ci, co, 0, 1, 0, split, 0);
    for (int i = 0; i < 8; ++i) CHECK(out[static_cast<std::size_t>(i)] == 765);
}

TEST_CASE("conv2dk1_fc_relu_pad_u16: uint16 rows over padded weight rows, to even, clamped", "[kernels][conv2d]") {
    std::mt19937 rng(58);
    for (const int scale : {1, 7, 12})
        for (const int w : {1, 3}) {
            const int ci = 24, pad = 40, co = 16, hi = scale == 1 ? 2 : scale == 7 ? 255 : 65535;
            const auto in = pool_test_random<std::uint16_t>(static_cast<std::size_t>(w * ci), rng, 0, hi);
            const auto wts = pool_test_random<std::int8_t>(static_cast<std::size_t>(co * pad), rng, -128, 127);
            std::vector<std::uint16_t> out(static_cast<std::size_t>(w * co), 0x7777);
            conv2dk1_fc_relu_pad_u16(in.data(), wts.data(), out.data(), w, ci, pad, co, scale);
            for (int o = 0; o < co; ++o)
                for (int x = 0; x < w; ++x) {
                    std::int64_t s = 0;
                    for (int c = 0; c < ci; ++c)
                        s += std::int64_t{in[static_cast<std::size_t>((c / 8) * w * 8 + x * 8 + c % 8)]} *
                             wts[static_cast<std::size_t>((o / 8) * pad * 8 + (c / 8) * 64 + (c % 8) * 8 + o % 8)];
                    INFO("scale " << scale << " width " << w << " channel " << o << " pixel " << x << " sum " << s);
                    CHECK(out[static_cast<std::size_t>((o / 8) * w * 8 + x * 8 + o % 8)] == pool_test_relu(s, scale));
                }
        }
}

TEST_CASE("conv2dk1_pool kernels refuse bad arguments and sums past int32, and their cost estimates", "[kernels][conv2d]") {
    std::vector<std::int8_t> i8(4096, 1);
    std::vector<std::uint16_t> u16(4096, 0), o16(4096, 0);
    CHECK_THROWS_WITH(conv2dk1_xy_pool_padded_u16(i8.data(), i8.data(), o16.data(), 7, 8, 16, 16, 0, 0, 1, 0),
                      "conv2dk1_xy_pool_padded_u16: scale must be in 1..31 (got 0)");
    CHECK_THROWS_WITH(conv2dk1_xy_pool_padded_u16(i8.data(), i8.data(), o16.data(), 7, 8, 24, 24, 1, 0, 2, 0),
                      "conv2dk1_xy_pool_padded_u16: output_channels must be a positive multiple of 8 * output_split "
                      "(got 24, output_split 2)");
    CHECK_THROWS_WITH(conv2dk1_xy_pool_padded_u16(i8.data(), i8.data(), o16.data(), 1025, 8, 8, 8, 1, 0, 1, 0),
                      "conv2dk1_xy_pool_padded_u16: width must be in 1..1024 (got 1025)");
    CHECK_THROWS_WITH(conv2dk1_xy_pool_padded_u16(i8.data(), i8.data(), o16.data(), 7, 12, 8, 8, 1, 0, 1, 0),
                      "conv2dk1_xy_pool_padded_u16: input_channels must be a positive multiple of 8 (got 12)");
    CHECK_THROWS_WITH(conv2dk1_xy_pool_padded_u16(i8.data(), i8.data(), o16.data(), 7, 8, 8, 8, 1, 0, 1, -1),
                      "conv2dk1_xy_pool_padded_u16: weight_index must be >= 0 (got -1)");
    CHECK_THROWS_WITH(conv2dk1_fc_relu_pad_u16(u16.data(), i8.data(), o16.data(), 1, 16, 8, 8, 1),
                      "conv2dk1_fc_relu_pad_u16: input_channels_pad must be a multiple of 8 at least input_channels "
                      "(got 8, input_channels 16)");
    CHECK_THROWS_WITH(conv2dk1_fc_relu_pad_u16(u16.data(), i8.data(), o16.data(), 1, 8, 8, 8, 32),
                      "conv2dk1_fc_relu_pad_u16: scale must be in 1..31 (got 32)");
    // 65535 * 127 * 264 = 2197257480 > 2^31 - 1: refused; 256 channels fit (2130673920)
    std::vector<std::uint16_t> big(264, 65535);
    std::vector<std::int8_t> w127(264 * 8, 127);
    CHECK_THROWS_WITH(conv2dk1_fc_relu_pad_u16(big.data(), w127.data(), o16.data(), 1, 264, 264, 8, 1),
                      Catch::StartsWith("conv2dk1_fc_relu_pad_u16: the sum of output channel 0 at pixel 0 leaves the "
                                        "source's int32 accumulator (final sum 2197257480"));
    CHECK_NOTHROW(conv2dk1_fc_relu_pad_u16(big.data(), w127.data(), o16.data(), 1, 256, 264, 8, 8));
    CHECK(o16[0] == 255);
    // the rounding term alone can leave int32: 2130673920 + 2^30 at scale 31
    CHECK_THROWS(conv2dk1_fc_relu_pad_u16(big.data(), w127.data(), o16.data(), 1, 256, 264, 8, 31));
    // [est] one multiply-accumulate a cycle: far below AIE2's 256 int8 MACs a cycle
    CHECK(conv2dk1_xy_pool_cycles(7, 80, 960, 1280, 8) == 120u * 7 * 80 + 120 + 320);
    CHECK(conv2dk1_fc_cycles(1, 1280, 8) == 8u * 1281);
    CHECK(120.0 * 7 * 80 / static_cast<double>(conv2dk1_xy_pool_cycles(7, 80, 960, 1280, 8)) <= 1.0);
    CHECK(conv2dk1_xy_pool_cycles(-1, 8, 8, 0, 0) == 8);
}

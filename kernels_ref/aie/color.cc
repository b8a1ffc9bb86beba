// rgba2grayLine and gray2rgbaLine: colour-space conversions on u8 lines, 32 pixels per step.
//   rgba2gray: split the interleaved channels with unzip/filter, weight them in an acc32 accumulator
//              (BT.601 weights in Q15) and shift back by 15 rounding half up (positive_inf).
//   gray2rgba: zip the grey values with themselves and with an alpha register.
// Lines whose width is not a multiple of 32 finish through padded register copies.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

constexpr unsigned kPixels = 32;
constexpr int kGrayShift = 15;
constexpr int16 kWeightR = 9798, kWeightG = 19235, kWeightB = 3736; // 0.299, 0.587, 0.114 in Q15

inline aie::vector<uint8, kPixels> gray_of(const uint8* rgba) {
    const aie::vector<uint8, 64> lo = aie::load_v<64>(rgba); // pixels 0..15
    const aie::vector<uint8, 64> hi = aie::load_v<64>(rgba + 64); // pixels 16..31
    // chunk 1: even bytes are R,B,R,B,...; odd bytes G,A,G,A,...
    const auto [rb, ga] = aie::interleave_unzip(lo, hi, 1);
    const aie::vector<uint8, kPixels> r = aie::filter_even(rb, 1);
    const aie::vector<uint8, kPixels> b = aie::filter_odd(rb, 1);
    const aie::vector<uint8, kPixels> g = aie::filter_even(ga, 1);
    aie::accum<acc32, kPixels> acc = aie::mul(r, kWeightR);
    acc = aie::mac(acc, g, kWeightG);
    acc = aie::mac(acc, b, kWeightB);
    return acc.to_vector<uint8>(kGrayShift);
}

inline void rgba_of(const aie::vector<uint8, kPixels>& y, uint8* rgba) {
    const aie::vector<uint8, kPixels> alpha = aie::broadcast<uint8, kPixels>(255);
    const auto [yy_lo, yy_hi] = aie::interleave_zip(y, y, 1); // y0 y0 y1 y1 ...
    const auto [ya_lo, ya_hi] = aie::interleave_zip(y, alpha, 1); // y0 255 y1 255 ...
    const auto [p0, p1] = aie::interleave_zip(yy_lo, ya_lo, 2); // y0 y0 y0 255 ...
    const auto [p2, p3] = aie::interleave_zip(yy_hi, ya_hi, 2);
    aie::store_v(rgba, p0);
    aie::store_v(rgba + 32, p1);
    aie::store_v(rgba + 64, p2);
    aie::store_v(rgba + 96, p3);
}

} // namespace

namespace npusim::aie_kernels {

void rgba2grayLine(const std::uint8_t* __restrict rgba, std::uint8_t* __restrict gray, std::int32_t width) {
    event0();
    aie::set_rounding(aie::rounding_mode::positive_inf);
    aie::set_saturation(aie::saturation_mode::saturate);
    int32_t x = 0;
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_MIN_ITERATION_COUNT(6)
    for (; x + static_cast<int32_t>(kPixels) <= width; x += kPixels) aie::store_v(gray + x, gray_of(rgba + 4 * x));
    if (x < width) {
        uint8 in[4 * kPixels] = {};
        uint8 out[kPixels];
        std::memcpy(in, rgba + 4 * x, static_cast<std::size_t>(4 * (width - x)));
        aie::store_v(out, gray_of(in));
        std::memcpy(gray + x, out, static_cast<std::size_t>(width - x));
    }
    event1();
}

void gray2rgbaLine(const std::uint8_t* __restrict gray, std::uint8_t* __restrict rgba, std::int32_t width) {
    event0();
    int32_t x = 0;
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_MIN_ITERATION_COUNT(4)
    for (; x + static_cast<int32_t>(kPixels) <= width; x += kPixels)
        rgba_of(aie::load_v<kPixels>(gray + x), rgba + 4 * x);
    if (x < width) {
        uint8 in[kPixels] = {};
        uint8 out[4 * kPixels];
        std::memcpy(in, gray + x, static_cast<std::size_t>(width - x));
        rgba_of(aie::load_v<kPixels>(in), out);
        std::memcpy(rgba + 4 * x, out, static_cast<std::size_t>(4 * (width - x)));
    }
    event1();
}

} // namespace npusim::aie_kernels

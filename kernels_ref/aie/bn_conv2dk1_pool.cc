// The post-stage 1x1 kernels of the bottleneck library (IRON bn_conv2dk1_relu_xy_pool_padded /
// bn_fc_relu_ui16_pad; semantics in kernels_ref/conv2dk1_pool.hpp).
//
// conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8: 4 pixels x 8 input channels of a row are one
// row-major 4x8 block in the [ci/8][x][8] layout and a weight group's 8 inputs x 8 outputs one 8x8
// block, so each step is an aie::mmul<4, 8, 8, int8, int8> (acc32); a row's last group shorter than
// 4 pixels is copied into a zeroed block first. The block goes to uint8 at `scale` to even
// (conv_even) with saturation (the clamp to [0, 255]), and its valid pixels are added to 8 running
// pool sums. The last row's average is taken in integers: acc = 49 q + r; the source's float
// tenths digit is floor(10 r / 49), a 5 there keeps an even q and raises an odd one, anything else
// rounds to nearest ((2 acc + 49) / 98; acc / 49 is never a half). That equals the source's float
// arithmetic while acc < 2^19 (the library keeps widths <= 1024; tests/kernels_ref checks every acc).
//
// post_L2_conv2dk1_relu_i16_ui16_pad: two pixels x 8 input channels are one 2x8 uint16 block, the
// weights' 8x8 groups sit input_channels_pad * 8 apart per output group: aie::mmul<2, 8, 8, uint16,
// int8> (acc32; the reference refuses sums outside int32), then to uint8 to even with saturation,
// stored widened to uint16. An odd last pixel runs with a zero second row.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

uint16 pool_average49(uint32 acc) {
    const uint32 q = acc / 49, tenths = 10 * (acc % 49) / 49;
    if (tenths == 5) return static_cast<uint16>(q % 2 == 0 ? q : q + 1);
    return static_cast<uint16>((2 * acc + 49) / 98);
}

// The 8 pool sums of weight group g over the row's pixels.
void pool_group(const int8* input, const int8* wg, int32_t width, int32_t groups, int32_t scale, uint32 sums[8]) {
    using MM = aie::mmul<4, 8, 8, int8, int8>;
    for (int32_t x0 = 0; x0 < width; x0 += 4) {
        const int32_t pixels = width - x0 < 4 ? width - x0 : 4;
        MM acc = aie::zeros<acc32, MM::size_C>();
        for (int32_t ig = 0; ig < groups; ++ig) {
            const int8* block = input + (ig * width + x0) * 8;
            aie::vector<int8, MM::size_A> a;
            if (pixels == 4) {
                a = aie::load_v<MM::size_A>(block);
            } else {
                a = aie::zeros<int8, MM::size_A>();
                for (int32_t l = 0; l < pixels * 8; ++l) a[l] = block[l];
            }
            acc.mac(a, aie::load_v<MM::size_B>(wg + ig * MM::size_B));
        }
        const aie::vector<uint8, MM::size_C> r = acc.template to_vector<uint8>(scale);
        for (int32_t p = 0; p < pixels; ++p)
            for (int o8 = 0; o8 < 8; ++o8) sums[o8] += r[p * 8 + o8];
    }
}

} // namespace

namespace npusim::aie_kernels {

void conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8(const std::int8_t* input, const std::int8_t* weights,
                                                     std::uint16_t* output, std::int32_t width,
                                                     std::int32_t input_channels, std::int32_t output_channels,
                                                     std::int32_t output_channels_padd, std::int32_t scale,
                                                     std::int32_t y_index, std::int32_t output_split,
                                                     std::int32_t weight_index) {
    event0();
    aie::set_rounding(aie::rounding_mode::conv_even);
    aie::set_saturation(aie::saturation_mode::saturate);
    const int32_t groups = input_channels / 8, tile_groups = output_channels / output_split / 8;
    for (int32_t g = 0; g < tile_groups; ++g) {
        uint32 sums[8] = {};
        pool_group(input, weights + g * groups * 64, width, groups, scale, sums);
        uint16* out = output + (tile_groups * weight_index + g) * 8;
        for (int o8 = 0; o8 < 8; ++o8) {
            const uint32 acc = (y_index != 0 ? uint32{out[o8]} : 0u) + sums[o8];
            out[o8] = y_index == width - 1 ? pool_average49(acc) : static_cast<uint16>(acc);
        }
    }
    for (int32_t c = output_channels; c < output_channels_padd; ++c) output[c] = 0;
    event1();
}

void post_L2_conv2dk1_relu_i16_ui16_pad(const std::uint16_t* input, const std::int8_t* weights, std::uint16_t* output,
                                        std::int32_t width, std::int32_t input_channels,
                                        std::int32_t input_channels_pad, std::int32_t output_channels,
                                        std::int32_t scale) {
    event0();
    aie::set_rounding(aie::rounding_mode::conv_even);
    aie::set_saturation(aie::saturation_mode::saturate);
    using MM = aie::mmul<2, 8, 8, uint16, int8>;
    const int32_t groups = input_channels / 8;
    for (int32_t og = 0; og < output_channels / 8; ++og) {
        const int8* wg = weights + og * (input_channels_pad / 8) * 64;
        for (int32_t x = 0; x < width; x += 2) {
            const bool pair = x + 1 < width;
            MM acc = aie::zeros<acc32, MM::size_C>();
            for (int32_t ig = 0; ig < groups; ++ig) {
                const uint16* block = input + (ig * width + x) * 8;
                const aie::vector<uint16, MM::size_A> a =
                    pair ? aie::load_v<MM::size_A>(block)
                         : aie::concat(aie::load_v<8>(block), aie::zeros<uint16, 8>());
                acc.mac(a, aie::load_v<MM::size_B>(wg + ig * MM::size_B));
            }
            const aie::vector<uint8, MM::size_C> r = acc.template to_vector<uint8>(scale);
            for (int32_t l = 0; l < (pair ? 16 : 8); ++l) output[(og * width + x) * 8 + l] = r[l];
        }
    }
    event1();
}

} // namespace npusim::aie_kernels

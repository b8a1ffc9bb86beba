// conv2dk3_ui8: 3x3 convolution of three uint8 input rows into one uint8 output row, int8 weights.
// In the YCXC8 layout 4 consecutive pixels x 8 input channels are one 32-byte 4x8 row-major block,
// and the weights of one tap (ky, kx) for 8 input x 8 output channels one 8x8 block (OIYXI8O8), so
// each tap of each 4-pixel group is an aie::mmul<4, 8, 8, uint8, int8> (acc32). The tap kx = 1 uses
// the group's own block; kx = 0 needs the pixels one to the left (the block shifted up by one pixel,
// its first pixel the last of the previous block, zero at the left edge) and kx = 2 those one to
// the right (shifted down, the next block's first pixel, zero at the right edge). Rows outside the
// image (the top row's line0, the bottom row's line2) are skipped. The sums are shifted by `scale`
// rounding half up (positive_inf) and saturated to [0, 255].
//
// conv2dk3_dw_stride1/2_relu_ui8_ui8 (the bottleneck's depthwise 3x3): each channel convolved alone.
// Two output pixels x 8 channels are 16 lanes; with the row copied between one zero pixel on each
// side, tap kx of pixels x, x + 1 is the 16 bytes at padded pixel x + kx, multiplied lane by lane
// with the tap's 8 weights twice (acc32), shifted by `scale` to even (conv_even) and saturated to
// [0, 255]. Stride 2 keeps every second pixel of the stride-1 row (output x is centred on input 2x).
// The out_split build (bn_conv2dk3_dw_out_split) sends the stride-1 row's first half of channel groups
// to output1 and the rest to output2.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

using MM3 = aie::mmul<4, 8, 8, uint8, int8>;

// The 4-pixel x 8-channel operand of tap kx for pixel group xg of one 8-channel row of a line.
template <class T>
aie::vector<T, 32> k3_tap(const T* row, int32_t xg, int32_t groups, int kx) {
    const aie::vector<T, 32> zero = aie::zeros<T, 32>();
    const aie::vector<T, 32> curr = aie::load_v<32>(row + xg * 32);
    if (kx == 1) return curr;
    if (kx == 0) return aie::shuffle_up_fill(curr, xg > 0 ? aie::load_v<32>(row + (xg - 1) * 32) : zero, 8);
    return aie::shuffle_down_fill(curr, xg + 1 < groups ? aie::load_v<32>(row + (xg + 1) * 32) : zero, 8);
}

// The widest row the depthwise and stride-2 builds take (the kernel library refuses wider ones).
constexpr int32_t kDwMaxWidth = 256;

// One 8-channel group of a row of `width` pixels, depthwise: `full` gets all `width` outputs.
void dw_group(const uint8* const lines[3], int ky_first, int ky_end, const int8* w_group, uint8* full, int32_t width,
              int32_t group, int32_t scale) {
    uint8 padded[3][(kDwMaxWidth + 4) * 8] = {};
    for (int ky = ky_first; ky < ky_end; ++ky)
        for (int32_t i = 0; i < width * 8; ++i) padded[ky][8 + i] = lines[ky][group * width * 8 + i];
    for (int32_t x = 0; x < width; x += 2) {
        aie::accum<acc32, 16> acc = aie::zeros<acc32, 16>();
        for (int ky = ky_first; ky < ky_end; ++ky)
            for (int kx = 0; kx < 3; ++kx) {
                aie::vector<int8, 16> wv;
                for (unsigned l = 0; l < 16; ++l) wv[l] = w_group[(ky * 3 + kx) * 8 + l % 8];
                acc = aie::mac(acc, aie::load_v<16>(&padded[ky][(x + kx) * 8]), wv);
            }
        const aie::vector<uint8, 16> o = acc.template to_vector<uint8>(scale);
        for (unsigned l = 0; l < 16 && x * 8 + static_cast<int32_t>(l) < width * 8; ++l) full[x * 8 + l] = o[l];
    }
}

void conv_dw(const uint8* line0, const uint8* line1, const uint8* line2, const int8* weights, uint8* output,
             int32_t width, int32_t channels, int32_t check, int32_t scale, int stride) {
    aie::set_rounding(aie::rounding_mode::conv_even);
    aie::set_saturation(aie::saturation_mode::saturate);
    const uint8* lines[3] = {line0, line1, line2};
    const int ky_first = check == 0 ? 1 : 0, ky_end = check == 2 ? 2 : 3;
    const int32_t out_w = width / stride;
    uint8 full[(kDwMaxWidth + 2) * 8];
    for (int32_t g = 0; g < channels / 8; ++g) {
        dw_group(lines, ky_first, ky_end, weights + g * 9 * 8, full, width, g, scale);
        for (int32_t x = 0; x < out_w; ++x)
            for (int c = 0; c < 8; ++c) output[(g * out_w + x) * 8 + c] = full[x * stride * 8 + c];
    }
}

// bn_conv2dk3's stride-2 convolution (int8 rows): the stride-1 walk of conv2dk3_ui8 with int8
// operands (mmul<4, 8, 8, int8, int8>) into a full-width row, then every second pixel kept (output x
// is centred on input 2x); to even (conv_even) and saturated to [0, 255].
void conv_stride2(const int8* line0, const int8* line1, const int8* line2, const int8* weights, uint8* output,
                  int32_t width, int32_t ci, int32_t co, int32_t check, int32_t scale, int32_t channel_offset) {
    using MM = aie::mmul<4, 8, 8, int8, int8>;
    aie::set_rounding(aie::rounding_mode::conv_even);
    aie::set_saturation(aie::saturation_mode::saturate);
    const int8* lines[3] = {line0, line1, line2};
    const int ky_first = check == 0 ? 1 : 0, ky_end = check == 2 ? 2 : 3;
    const int32_t ic8_count = ci / 8, x_groups = width / 4, out_w = width / 2;
    uint8 full[kDwMaxWidth * 8];
    for (int32_t oc8 = 0; oc8 < co / 8; ++oc8) {
        const int8* w_oc = weights + (oc8 + channel_offset / 8) * ic8_count * 9 * MM::size_B;
        for (int32_t xg = 0; xg < x_groups; ++xg) {
            MM acc;
            acc = aie::zeros<acc32, MM::size_C>();
            for (int32_t ic8 = 0; ic8 < ic8_count; ++ic8)
                for (int ky = ky_first; ky < ky_end; ++ky)
                    for (int kx = 0; kx < 3; ++kx)
                        acc.mac(k3_tap(lines[ky] + ic8 * width * 8, xg, x_groups, kx),
                                aie::load_v<MM::size_B>(w_oc + ((ic8 * 3 + ky) * 3 + kx) * MM::size_B));
            aie::store_v(full + xg * MM::size_C, acc.template to_vector<uint8>(scale));
        }
        for (int32_t x = 0; x < out_w; ++x)
            for (int c = 0; c < 8; ++c) output[(oc8 * out_w + x) * 8 + c] = full[2 * x * 8 + c];
    }
}

// The stride-1 depthwise row, each 8-channel group written to output1 while it is below half the
// channels' groups, to output2 after.
void conv_dw_out_split(const uint8* line0, const uint8* line1, const uint8* line2, const int8* weights, uint8* out1,
                       uint8* out2, int32_t width, int32_t channels, int32_t check, int32_t scale) {
    // the upstream build is scalar and leaves the core's modes alone: swap them in and restore them
    const aie::rounding_mode old_rounding = aie::swap_rounding(aie::rounding_mode::conv_even);
    const aie::saturation_mode old_saturation = aie::swap_saturation(aie::saturation_mode::saturate);
    const uint8* lines[3] = {line0, line1, line2};
    const int ky_first = check == 0 ? 1 : 0, ky_end = check == 2 ? 2 : 3;
    const int32_t first_groups = channels / 2 / 8;
    uint8 full[(kDwMaxWidth + 2) * 8];
    for (int32_t g = 0; g < channels / 8; ++g) {
        dw_group(lines, ky_first, ky_end, weights + g * 9 * 8, full, width, g, scale);
        uint8* dst = g < first_groups ? out1 + g * width * 8 : out2 + (g - first_groups) * width * 8;
        for (int32_t i = 0; i < width * 8; ++i) dst[i] = full[i];
    }
    aie::set_rounding(old_rounding);
    aie::set_saturation(old_saturation);
}

} // namespace

namespace npusim::aie_kernels {

void conv2dk3_stride2_i8(const std::int8_t* line0, const std::int8_t* line1, const std::int8_t* line2,
                         const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                         std::int32_t input_channels, std::int32_t output_channels, std::int32_t, std::int32_t,
                         std::int32_t check, std::int32_t scale, std::int32_t channel_offset) {
    event0();
    conv_stride2(line0, line1, line2, weights, output, width, input_channels, output_channels, check, scale,
                 channel_offset);
    event1();
}

void conv2dk3_dw_stride1_relu_ui8_ui8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                                      const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                                      std::int32_t, std::int32_t output_channels, std::int32_t, std::int32_t,
                                      std::int32_t check, std::int32_t scale, std::int32_t) {
    event0();
    conv_dw(line0, line1, line2, weights, output, width, output_channels, check, scale, 1);
    event1();
}

void conv2dk3_dw_stride2_relu_ui8_ui8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                                      const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                                      std::int32_t, std::int32_t output_channels, std::int32_t, std::int32_t,
                                      std::int32_t check, std::int32_t scale, std::int32_t) {
    event0();
    conv_dw(line0, line1, line2, weights, output, width, output_channels, check, scale, 2);
    event1();
}

void conv2dk3_dw_out_split_ui8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                               const std::int8_t* weights, std::uint8_t* output1, std::uint8_t* output2,
                               std::int32_t width, std::int32_t, std::int32_t output_channels, std::int32_t,
                               std::int32_t, std::int32_t check, std::int32_t scale, std::int32_t) {
    event0();
    conv_dw_out_split(line0, line1, line2, weights, output1, output2, width, output_channels, check, scale);
    event1();
}

void conv2dk3_ui8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                  const std::int8_t* weights, std::uint8_t* output, std::int32_t width, std::int32_t input_channels,
                  std::int32_t output_channels, std::int32_t kernel_width, std::int32_t kernel_height,
                  std::int32_t check, std::int32_t scale, std::int32_t channel_offset) {
    (void)kernel_width; // 3x3 only, as the source it mirrors
    (void)kernel_height;
    event0();
    aie::set_rounding(aie::rounding_mode::positive_inf);
    aie::set_saturation(aie::saturation_mode::saturate);
    const uint8* lines[3] = {line0, line1, line2};
    const int ky_first = check == 0 ? 1 : 0; // top: no row above
    const int ky_end = check == 2 ? 2 : 3; // bottom: no row below
    const int32_t ic8_count = input_channels / 8;
    const int32_t x_groups = width / 4;
    for (int32_t oc8 = 0; oc8 < output_channels / 8; ++oc8) {
        const int8* w_oc = weights + (oc8 + channel_offset / 8) * ic8_count * 9 * MM3::size_B;
        for (int32_t xg = 0; xg < x_groups; ++xg) {
            MM3 acc;
            acc = aie::zeros<acc32, MM3::size_C>();
            for (int32_t ic8 = 0; ic8 < ic8_count; ++ic8)
                for (int ky = ky_first; ky < ky_end; ++ky) {
                    const uint8* row = lines[ky] + ic8 * width * 8;
                    for (int kx = 0; kx < 3; ++kx)
                        acc.mac(k3_tap(row, xg, x_groups, kx),
                                aie::load_v<MM3::size_B>(w_oc + ((ic8 * 3 + ky) * 3 + kx) * MM3::size_B));
                }
            aie::store_v(output + oc8 * width * 8 + xg * MM3::size_C, acc.template to_vector<uint8>(scale));
        }
    }
    event1();
}

} // namespace npusim::aie_kernels

// conv2dk3_ui8: 3x3 convolution of three uint8 input rows into one uint8 output row, int8 weights.
// In the YCXC8 layout 4 consecutive pixels x 8 input channels are one 32-byte 4x8 row-major block,
// and the weights of one tap (ky, kx) for 8 input x 8 output channels one 8x8 block (OIYXI8O8), so
// each tap of each 4-pixel group is an aie::mmul<4, 8, 8, uint8, int8> (acc32). The tap kx = 1 uses
// the group's own block; kx = 0 needs the pixels one to the left (the block shifted up by one pixel,
// its first pixel the last of the previous block, zero at the left edge) and kx = 2 those one to
// the right (shifted down, the next block's first pixel, zero at the right edge). Rows outside the
// image (the top row's line0, the bottom row's line2) are skipped. The sums are shifted by `scale`
// rounding half up (positive_inf) and saturated to [0, 255].
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

using MM3 = aie::mmul<4, 8, 8, uint8, int8>;

// The 4-pixel x 8-channel operand of tap kx for pixel group xg of one 8-channel row of a line.
aie::vector<uint8, 32> k3_tap(const uint8* row, int32_t xg, int32_t groups, int kx) {
    const aie::vector<uint8, 32> zero = aie::zeros<uint8, 32>();
    const aie::vector<uint8, 32> curr = aie::load_v<32>(row + xg * 32);
    if (kx == 1) return curr;
    if (kx == 0) return aie::shuffle_up_fill(curr, xg > 0 ? aie::load_v<32>(row + (xg - 1) * 32) : zero, 8);
    return aie::shuffle_down_fill(curr, xg + 1 < groups ? aie::load_v<32>(row + (xg + 1) * 32) : zero, 8);
}

} // namespace

namespace npusim::aie_kernels {

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

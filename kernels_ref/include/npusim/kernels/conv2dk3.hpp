#pragma once
// conv2dk3_u8: 3x3 convolution producing one output row from three input rows (mlir-aie
// aie_kernels/aie2/conv2dk3.cc's vector conv2dk3_ui8, :838-1370, the kernel IRON's
// aie.iron.kernels.conv2dk3(act_dtype=uint8) builds; ml/bottleneck, ml/resnet/layers_conv2_x).
// Layouts (as conv2dk1's, kernels_ref/conv2d.hpp):
//   line0..2 YCXC8  [ci/8][x][ci%8]   (the rows y-1, y, y+1 of the input)
//   weights  OIYXI8O8 [co_total/8][ci/8][ky][kx][ci%8][co%8]   (ky, kx in 0..2)
//   output   YCXC8  [co/8][x][co%8]
// out[x][o] = sat_u8(sum over ky, kx, i of line_ky[x - 1 + kx][i] * w[o + channel_offset][i][ky][kx],
// shifted by `scale` rounding half up): the source sets positive_inf rounding and saturation
// (conv2dk3.cc:850-853) and stores acc.to_vector<uint8>(scale). Pixels outside the row are zero
// (the zero border, conv2dk3.cc:923-950 without BORDER_REPLICATE), and so is the row above the
// image when `check` is 0 (top: line0 unused) and the row below when `check` is 2 (bottom: line2
// unused); 1 is a middle row. channel_offset (a multiple of 8) selects which weights' output
// channels this call computes: a weights buffer for more output channels than one call produces is
// shared by workers computing slices of them.
// Preconditions (std::invalid_argument): non-null pointers, width > 0, channels positive multiples
// of 8, kernel_width == kernel_height == 3 (the source's loops and weight strides assume 3x3),
// check in 0..2, 0 <= scale <= 31, channel_offset a non-negative multiple of 8. The weights must hold
// (channel_offset + co) * ci * 9 values; the kernel library's binding checks that per call.
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

void conv2dk3_u8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                 const std::int8_t* weights, std::uint8_t* output, std::int32_t width, std::int32_t input_channels,
                 std::int32_t output_channels, std::int32_t kernel_width, std::int32_t kernel_height,
                 std::int32_t check, std::int32_t scale, std::int32_t channel_offset);

// [est] conv2dk3_ui8's vector walk: one aie::mmul<4, 8, 8, uint8, int8> (256 MACs) per cycle for
// each 4-pixel group, 8 input x 8 output channels and kernel tap of the rows used (3, or 2 at the
// top and bottom: `check`), plus 1 cycle per 4-pixel x 8-channel output block for the SRS and store.
// 256 MACs per cycle is AIE2's int8 peak (model::matmul_mac_peak), half AIE2P's.
std::uint64_t conv2dk3_cycles(std::int32_t width, std::int32_t input_channels, std::int32_t output_channels,
                              std::int32_t check);

/// The bottleneck's stride-2 3x3 convolution IRON's bn_conv2dk3 builds (mlir-aie aie_kernels/aie2/
/// bottleneck/bn_conv2dk3.cc, no flags: conv2dk3_stride2_i8, :32-145): conv2dk3_u8's layouts and rows
/// with int8 activations, output x centred on input pixel 2x (width / 2 outputs, the left one reading
/// the zero border), the sum rounded half to even ((sum + 2^(scale-1) - 1 + ((sum >> scale) & 1)) >>
/// scale) and saturated to [0, 255]. Preconditions as conv2dk3_u8's, with width even and scale >= 1.
void conv2dk3_stride2_even(const std::int8_t* line0, const std::int8_t* line1, const std::int8_t* line2,
                           const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                           std::int32_t input_channels, std::int32_t output_channels, std::int32_t kernel_width,
                           std::int32_t kernel_height, std::int32_t check, std::int32_t scale,
                           std::int32_t channel_offset);

// [est] conv2dk3_stride2_i8 is a plain scalar loop: one multiply-accumulate per cycle on the scalar
// unit (as the other bottleneck loops), output pixels x input x output channels x taps of the rows used.
std::uint64_t conv2dk3_stride2_cycles(std::int32_t output_width, std::int32_t input_channels,
                                      std::int32_t output_channels, std::int32_t check);

/// The bottleneck depthwise 3x3 convolutions IRON's bn_conv2dk3_dw builds (mlir-aie aie_kernels/aie2/
/// bottleneck/bn_conv2dk3_dw.cc with -DREGULAR -DSCALAR -DSTRIDE1 / -DSTRIDE2: conv2dk3_dw_stride1_relu_ui8_ui8
/// :242-350, conv2dk3_dw_stride2_relu_ui8_ui8 :163-248): each of the output_channels channels c is the
/// 3x3 convolution of input channel c alone with its own weights, layout [c/8][ky][kx][c%8]
/// (OIYXI8O8 with one input channel), the rows and the zero border as conv2dk3_u8's (`check`), the
/// sum shifted by `scale` rounding half to even ((sum + 2^(scale-1) - 1 + ((sum >> scale) & 1)) >>
/// scale) and saturated to [0, 255] (the ReLU). stride2 computes every second pixel: output x is
/// centred on input pixel 2x, width / 2 outputs. Lines [c/8][x][c%8] of `width` pixels, output
/// [c/8][x][c%8] of width (or width / 2) pixels. input_channels and channel_offset are not used
/// (as upstream). Preconditions (std::invalid_argument): non-null pointers, width > 0 (even for
/// stride 2), output_channels a positive multiple of 8, kernel 3 x 3, check 0..2, 1 <= scale <= 31.
void conv2dk3_dw_stride1_u8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                            const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                            std::int32_t input_channels, std::int32_t output_channels, std::int32_t kernel_width,
                            std::int32_t kernel_height, std::int32_t check, std::int32_t scale,
                            std::int32_t channel_offset);
void conv2dk3_dw_stride2_u8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                            const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                            std::int32_t input_channels, std::int32_t output_channels, std::int32_t kernel_width,
                            std::int32_t kernel_height, std::int32_t check, std::int32_t scale,
                            std::int32_t channel_offset);

/// The bottleneck depthwise 3x3 whose output is split in two, IRON's bn_conv2dk3_dw_out_split (mlir-aie
/// aie_kernels/aie2/bottleneck/bn_conv2dk3_dw.cc with -DSCALAR -DBN13|14 -DSTRIDE1_OUT_SPLIT:
/// conv2dk3_ui8_out_split_scalar :29-156, wrappers bn13/bn14_conv2dk3_ui8_out_split :397-446): the
/// stride-1 depthwise sums of conv2dk3_dw_stride1_u8 (each channel alone, weights [c/8][ky][kx][c%8],
/// zero border, the rows `check` names), to even at `scale`, clamped to [0, 255] (:69-71), with channel
/// group g (8 channels) written to output1 at group g when g < (output_channels / 2) / 8 and to
/// output2 at group g - (output_channels / 2) / 8 otherwise (:73-80), each [g][x][c%8] of `width`
/// pixels. input_channels, kernel_height and channel_offset are not used (as upstream). Preconditions
/// (std::invalid_argument): as conv2dk3_dw_stride1_u8's, with width >= 2 (the source's left border
/// reads pixel 1 and its right border pixel width - 2, :49-60, :82-93).
void conv2dk3_dw_out_split_u8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                              const std::int8_t* weights, std::uint8_t* output1, std::uint8_t* output2,
                              std::int32_t width, std::int32_t input_channels, std::int32_t output_channels,
                              std::int32_t kernel_width, std::int32_t kernel_height, std::int32_t check,
                              std::int32_t scale, std::int32_t channel_offset);

// [est] the depthwise kernels are plain scalar loops: one multiply-accumulate per cycle on the scalar
// unit (as the other bottleneck loops, conv2d.hpp), output pixels x channels x taps of the rows used.
std::uint64_t conv2dk3_dw_cycles(std::int32_t output_width, std::int32_t channels, std::int32_t check);

} // namespace npusim::kernels

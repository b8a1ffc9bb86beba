#pragma once
// The two cascade halves of a 1x1 convolution split by input channels (mlir-aie
// aie_kernels/aie2/bottleneck at 3ca0193; IRON conv.py bn_conv2dk1_partial_put_i8 /
// bn_conv2dk1_partial_get_relu_i8, MobileNet V3's bn13 / bn14):
//   put (bn_conv2dk1_i8.cc:180-236, -DBN13_1_PARTIAL_PUT_I8_CAS_WIDTH_NEW): for each of the first 7
//     pixels and the 8 output channels of group `oc`, sums the first ci / input_split input channels
//     times the weights, and puts the 8 sums on the cascade as lanes 0-7 of one v16acc64 (lups of a
//     v16int32, shift 0);
//   get (bn_conv2dk1_relu.cc:216-300, -DBN13_1_PARTIAL_GET_I8_CAS_WIDTH_NEW): sums the next
//     ci / input_split channels the same way, gets one v16acc64 per pixel, adds its lanes 0-7 (lsrs,
//     shift 0), rounds the total shifted by `scale` half to even
//     ((s + 2^(scale-1) - 1 + ((s >> scale) & 1)) >> scale), clamps it to [0, 255] (the ReLU) and
//     stores it at output channel group oc + (co / (8 * output_split)) * weight_index.
// Layouts (as conv2dk1's, kernels_ref/conv2d.hpp): input [ci/8][x][ci%8] int8; weights: the call's
// chunk, [oc][chunk/8][ci%8][co%8] (a group of 8 output channels after `oc` such groups); output
// [co/8][x][co%8] uint8. Both halves process pixels 0..6 whatever the width (pixel_limit = 7, the
// 7x7 maps of bn13 / bn14) and ignore x_start. The sums are int32 in the source (at most
// ci * 128 * 128 in magnitude, so they fit for any channel count the kernel library accepts).
//
// Cascade words: a v16acc64 crosses as two 512-bit words, lanes 0-7 then 8-15, each lane 64 bits
// little-endian (the AIE-API layer's put_mcd / get_scd_v16acc64, aie_api/detail/cascade.hpp); put
// sends lanes 8-15 as zero (upstream leaves them undefined), get reads the low 32 bits of lanes 0-7
// (lsrs with shift 0 under the core's reset modes, saturation off). Words move through the
// callbacks (cascade_matmul.hpp's CascadePut / CascadeGet): the simulator passes npusim's
// cascade_put / cascade_get.
//
// Preconditions (std::invalid_argument): non-null pointers, width >= 7, input_split >= 1 (>= 2 for
// get, which reads the second chunk), ci a positive multiple of 8 * input_split, output_split >= 1,
// oc >= 0, scale in 1..31 (the formula shifts by scale - 1), the output group in [0, co / 8).
// The weights must hold (oc + 1) * 8 * (ci / input_split) values; the kernel library checks that.
#include <npusim/kernels/cascade_matmul.hpp>

#include <cstdint>

namespace npusim::kernels {

inline constexpr std::int32_t kPartialConvPixels = 7;

void conv2dk1_partial_put_i8(const std::int8_t* input, const std::int8_t* weights, std::int32_t width,
                             std::int32_t input_channels, std::int32_t output_channels, std::int32_t input_split,
                             std::int32_t weight_index, std::int32_t x_start, std::int32_t oc, CascadePut put);

void conv2dk1_partial_get_relu_i8(const std::int8_t* input, const std::int8_t* weights, std::uint8_t* output,
                                  std::int32_t width, std::int32_t input_channels, std::int32_t output_channels,
                                  std::int32_t scale, std::int32_t input_split, std::int32_t output_split,
                                  std::int32_t weight_index, std::int32_t x_start, std::int32_t oc, CascadeGet get);

// The input-split pair (IRON bn_conv2dk1_input_split_partial_put_ui8 /
// bn_conv2dk1_input_split_partial_skip_get, MobileNet V3's bn13 / bn14 projection after the split
// depthwise): each half reads a uint8 input of its own (one half of the depthwise output's channels)
// and sums its FIRST ci / input_split channels:
//   put_ui8 (bn_conv2dk1_i8.cc:32-87, -DBN13_1_INPUT_SPLIT_PARTIAL_PUT_UI8_UI8_CAS_WIDTH_NEW): as
//     conv2dk1_partial_put_i8 with uint8 activations;
//   get_skip_i8 (bn_conv2dk1_skip.cc:32-131 / :133-232, -DBN13|14_1_INPUT_SPLIT_PARTIAL_GET_UI8_I8_I8_CAS_WIDTH_NEW):
//     its own sums plus lanes 0-7 of the v16acc64 it gets (lsrs, shift 0), to even at `scale`,
//     clamped to [-128, 127] (:100-103), plus the int8 skip value at the output's place, then to even
//     at `skip_scale` when it is positive (:109-112), clamped to [-128, 127] (:119-122), stored at
//     output group oc + output_channels / (8 * output_split) * weight_index; skip and output are
//     [co/8][x][co%8] int8. skip_scale 0 leaves the sum unscaled (the source's else branch,
//     :113-115, shifts 1 by -1, which C leaves undefined; npusim's conv2dk1_skip references read 0
//     the same way).
// Preconditions as the i8 halves', with input_split >= 1 for both (the get reads the first chunk),
// scale in 1..31, skip_scale in 0..31 and a non-null skip.
void conv2dk1_partial_put_ui8(const std::uint8_t* input, const std::int8_t* weights, std::int32_t width,
                              std::int32_t input_channels, std::int32_t output_channels, std::int32_t input_split,
                              std::int32_t weight_index, std::int32_t x_start, std::int32_t oc, CascadePut put);

void conv2dk1_partial_get_skip_i8(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output,
                                  const std::int8_t* skip, std::int32_t width, std::int32_t input_channels,
                                  std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale,
                                  std::int32_t input_split, std::int32_t output_split, std::int32_t weight_index,
                                  std::int32_t x_start, std::int32_t oc, CascadeGet get);

/// [est] one scalar multiply-accumulate per cycle (the halves are scalar loops, as the scalar cascade
/// matmul): 7 pixels * 8 channels * (ci / input_split) cycles per call; the get adds 7 * 8 cycles
/// for the rounding and stores. A non-positive split counts as 1.
std::uint64_t conv2dk1_partial_cycles(std::int32_t input_channels, std::int32_t input_split, bool get);

/// [est] conv2dk1_partial_get_skip_i8: the get's cycles plus 7 * 8 for the skip add and its rounding.
std::uint64_t conv2dk1_partial_skip_cycles(std::int32_t input_channels, std::int32_t input_split);

} // namespace npusim::kernels

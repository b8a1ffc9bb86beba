#pragma once
// conv2dk1_i8: 1x1 convolution of one image row, int8 activations, weights and output (mlir-aie
// aie_kernels/aie2/conv2dk1_i8.cc with -DINT8_ACT, IRON aie.iron.kernels.conv2dk1_i8; ml/conv2d).
// Layouts as aie.utils.ml's DataShaper makes them for the example:
//   input   YCXC8   [ci/8][x][ci%8]                 (one row y of the [y][ci/8][x][8] tensor)
//   weights OIYXI8O8 [co/8][ci/8][ci%8][co%8]        (1x1 kernel: y = x = 0)
//   output  YCXC8   [co/8][x][co%8]
// out = sat_i8(sum_ci in * w shifted right by scale, rounding ties away from zero): the arithmetic of
// the vector kernel IRON builds (-DINT8_ACT without -DSCALAR; conv2dk1_i8.cc:98-101 sets
// symmetric_inf rounding and saturation, then to_vector<int8>(scale)). The source's scalar variant
// (conv2dk1_i8_scalar, :54) rounds ties up instead, so it differs on negative ties; IRON does not
// build it. npusim's AIE-API build (kernels_ref/aie/conv2dk1_i8.cc, symmetric_inf) computes the same
// bits. scale 0: the sum itself, saturated.
// Preconditions (std::invalid_argument): non-null pointers, width > 0, channels positive multiples
// of 8, 0 <= scale <= 31.
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

void conv2dk1_i8(const std::int8_t* input, const std::int8_t* weights, std::int8_t* output, std::int32_t width,
                 std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale);

/// conv2dk1 (IRON aie.iron.kernels.conv2dk1, mlir-aie aie_kernels/aie2/conv2dk1.cc's vector kernels
/// conv2dk1_i8 with -DINT8_ACT and conv2dk1_ui8 without): the same 1x1 convolution with int8 or uint8
/// activations and a uint8 output: each sum shifted by `scale` rounding half up (the source sets
/// positive_inf, conv2dk1.cc:133-134 and :258-259) and saturated to [0, 255] (saturate: negative
/// sums give 0, a ReLU). Same layouts and preconditions as conv2dk1_i8.
void conv2dk1_u8(const std::int8_t* input, const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                 std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale);
void conv2dk1_u8(const std::uint8_t* input, const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                 std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale);

/// conv2dk1_skip (IRON aie.iron.kernels.conv2dk1_skip, aie2/conv2dk1_skip.cc's vector kernels
/// conv2dk1_skip_i8 with -DINT8_ACT, int8 skip, and conv2dk1_skip_ui8 without, uint8 skip): a 1x1
/// convolution whose ci input channels come as two uint8 halves (input0 the first ci / 2, input1
/// the rest, each [ci/16][x][8]; weights as conv2dk1's for all ci), each sum shifted by `scale` half
/// up and saturated to int8, plus the skip value (output layout), that sum shifted by `skip_scale`
/// half up and saturated to [0, 255] (positive_inf and saturate, conv2dk1_skip.cc:234-237,
/// :296-309). ci a positive multiple of 16, co of 8.
void conv2dk1_skip_u8(const std::uint8_t* input0, const std::uint8_t* input1, const std::int8_t* weights,
                      std::uint8_t* output, const std::int8_t* skip, std::int32_t width, std::int32_t input_channels,
                      std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale);
void conv2dk1_skip_u8(const std::uint8_t* input0, const std::uint8_t* input1, const std::int8_t* weights,
                      std::uint8_t* output, const std::uint8_t* skip, std::int32_t width, std::int32_t input_channels,
                      std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale);

/// conv2dk1_skip_init (IRON aie.iron.kernels.conv2dk1_skip_init with int8 activations, aie2/
/// conv2dk1_skip_init.cc's vector conv2dk1_skip_init_i8, :258-456): conv2dk1_skip_u8's convolution
/// of the two uint8 halves (weights: the first ci * co of `weights`), plus a 1x1 projection of the
/// int8 skip input ([ci_skip/8][x][8], its OIYXI8O8 weights right after, at weights + ci * co),
/// shifted by `scale_skip_conv` half up and saturated to int8; the two int8 results are added and
/// shifted by `skip_scale` half up, saturated to [0, 255]. ci a multiple of 16, ci_skip and co of 8.
void conv2dk1_skip_init_u8(const std::uint8_t* input0, const std::uint8_t* input1, const std::int8_t* weights,
                           std::uint8_t* output, const std::int8_t* skip, std::int32_t width,
                           std::int32_t input_channels, std::int32_t output_channels,
                           std::int32_t input_channels_skip, std::int32_t scale, std::int32_t skip_scale,
                           std::int32_t scale_skip_conv);

/// The bottleneck 1x1 convolutions IRON builds with -DREGULAR (mlir-aie aie_kernels/aie2/bottleneck/):
/// bn_conv2dk1_relu.cc's conv2dk1_relu_i8_ui8 (int8 activations, uint8 output saturated to [0, 255],
/// :1285-1315, :2027-2034) and bn_conv2dk1_i8.cc's conv2dk1_ui8_i8 (uint8 activations, int8 output
/// saturated to [-128, 127], :667-697, :904-911). Both are plain C loops that round the shifted sum
/// half to even ((sum + 2^(scale-1) - 1 + ((sum >> scale) & 1)) >> scale). Same layouts as conv2dk1_i8;
/// scale 1..31 (the formula shifts by scale - 1).
void conv2dk1_even(const std::int8_t* input, const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                   std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale);
void conv2dk1_even(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output, std::int32_t width,
                   std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale);

/// bn_conv2dk1_skip.cc's -DREGULAR -DSCALAR builds (IRON bn_conv2dk1_skip): conv2dk1_skip_ui8_i8_i8
/// (int8 skip) and, with -DUNSIGNED_SKIP, conv2dk1_skip_ui8_ui8_i8 (uint8 skip), :657-800: uint8
/// activations, the sum shifted by `scale` to even and saturated to int8, plus the skip value, that
/// shifted by `skip_scale` to even, saturated to int8. scale 1..31; skip_scale 0..31, where 0 (which
/// upstream shifts by 1 << -1, undefined) is no shift.
void conv2dk1_skip_even(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output,
                        const std::int8_t* skip, std::int32_t width, std::int32_t input_channels,
                        std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale);
void conv2dk1_skip_even(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output,
                        const std::uint8_t* skip, std::int32_t width, std::int32_t input_channels,
                        std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale);

// [est] the scalar bottleneck kernels: one multiply-accumulate per cycle on the scalar unit (as the
// scalar cascade matmul, cascade_matmul.hpp), width * ci * co cycles.
std::uint64_t conv2dk1_scalar_cycles(std::int32_t width, std::int32_t input_channels, std::int32_t output_channels);

// [est] the vector kernel issues one aie::mmul<4, 8, 8, int8, int8> (256 MACs) per cycle on AIE2:
// width * ci * co / 256 cycles, plus 1 cycle per 4-pixel x 8-channel output block for the SRS and store.
std::uint64_t conv2dk1_i8_cycles(std::int32_t width, std::int32_t input_channels, std::int32_t output_channels);

// [est] conv2dk1_skip: the same mmul walk (conv2dk1_i8_cycles), plus 1 cycle per 4-pixel x 8-channel
// block for the skip load, add and second SRS.
std::uint64_t conv2dk1_skip_cycles(std::int32_t width, std::int32_t input_channels, std::int32_t output_channels);

} // namespace npusim::kernels

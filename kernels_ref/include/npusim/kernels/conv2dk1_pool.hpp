#pragma once
// The two post-stage 1x1 kernels of MobileNet V3's head (mlir-aie aie_kernels/aie2/bottleneck/
// bn_conv2dk1_relu.cc at 3ca0193; IRON conv.py bn_conv2dk1_relu_xy_pool_padded / bn_fc_relu_ui16_pad):
//
// conv2dk1_xy_pool_padded_u16 (-DSCALAR -DCONV_XYPOOL_FUSED_LARGE_PADDED -DINT8_ACT:
// fused_conv2dk1_xy_pool_i8_large_padded_scalar, :1486-1550, wrapper :1986-1997): one image row y
// (y_index) of a 1x1 convolution + ReLU whose pixels are summed into a global average pool, for the
// output_channels / output_split channels of weight chunk `weight_index`:
//   - for each of those channels o (local group g = o / 8 of the chunk, written at channel
//     o + (output_channels / output_split / 8) * 8 * weight_index, :1499-1500, :1509, :1539, :1542):
//     acc = (y_index != 0 ? output[channel] : 0) (:1508-1509, a uint32 from the uint16 output), then
//     for each pixel x: sum = sum over the input channels of input[ci/8][x][ci%8] * weights[g][ci/8]
//     [ci%8][o%8] (the chunk's layout, :1511-1521, int32), rounded half to even at `scale`
//     ((sum + 2^(scale-1) - 1 + ((sum >> scale) & 1)) >> scale, :1523-1524), clamped to [0, 255]
//     (:1525) and added to acc (:1527);
//   - the last row (y_index == width - 1, :1531) stores the average over 7 x 7 pixels as the source
//     computes it in float: avg = acc / 49.0f; if the tenths digit (int)(avg * 10) % 10 is 5, the
//     integer part if even, else the integer part + 1 (so 2.57 gives 2 and 3.52 gives 4); otherwise
//     (int)(avg + 0.5f) (:1532-1539). Any other row stores (uint16_t)acc (:1540-1542: the low 16
//     bits);
//   - then output[output_channels .. output_channels_padd) = 0 (:1547-1550; absolute indices,
//     whatever the chunk).
// Layouts: input [ci/8][x][ci%8] int8 (one row); weights [o/8][ci/8][ci%8][o%8] of the chunk's
// output_channels / output_split channels; output [channel] uint16.
//
// conv2dk1_fc_relu_pad_u16 (-DSCALAR -DPOSTL2_PAD -DUINT16_ACT: conv2dk1_ui16_scalar_pad, :1184-1230,
// wrapper :1929-1940): a 1x1 convolution of a uint16 row with int8 weights whose rows are
// input_channels_pad long: out[o/8][x][o%8] = clamp(round_even(sum over the first input_channels
// channels of input[ci/8][x][ci%8] * weights[o/8][ci/8][ci%8][o%8], scale), 0, 255), the weights'
// group o/8 starting at (o/8) * input_channels_pad * 8 (:1209-1216); the same rounding and clamp
// (:1218-1222), stored as uint16 (:1224).
//
// Preconditions (std::invalid_argument): non-null pointers; width >= 1; input_channels a positive
// multiple of 8; scale in 1..31 (the source shifts by scale - 1). Pool: width <= 1024 (the pool sum
// then stays below 2^19), input_channels <= 32768 (the int32 sum and its rounding term cannot
// overflow), output_split >= 1 with output_channels a positive multiple of 8 * output_split,
// weight_index >= 0. FC: input_channels_pad a multiple of 8 at least input_channels, output_channels
// a positive multiple of 8, and every partial sum (and the final one plus its rounding term)
// within int32 (the source's int32 `sum`: uint16 activations can overflow it; the reference refuses
// the inputs that do rather than guess what the hardware computes). The buffers must hold what the
// indices above reach; the kernel library checks that per call.
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

void conv2dk1_xy_pool_padded_u16(const std::int8_t* input, const std::int8_t* weights, std::uint16_t* output,
                                 std::int32_t width, std::int32_t input_channels, std::int32_t output_channels,
                                 std::int32_t output_channels_padd, std::int32_t scale, std::int32_t y_index,
                                 std::int32_t output_split, std::int32_t weight_index);

void conv2dk1_fc_relu_pad_u16(const std::uint16_t* input, const std::int8_t* weights, std::uint16_t* output,
                              std::int32_t width, std::int32_t input_channels, std::int32_t input_channels_pad,
                              std::int32_t output_channels, std::int32_t scale);

/// The pool's last-row rounding of a 7 x 7 pixel sum, as the source computes it in float (:1531-1539).
std::uint16_t xy_pool_average49(std::uint32_t acc);

/// [est] the source's scalar loops, one multiply-accumulate per cycle (as the other bottleneck
/// loops): (output_channels / output_split) * width * input_channels, plus one cycle per pooled
/// channel and per padded channel. Non-positive values count as 0 (a split as 1).
std::uint64_t conv2dk1_xy_pool_cycles(std::int32_t width, std::int32_t input_channels, std::int32_t output_channels,
                                      std::int32_t output_channels_padd, std::int32_t output_split);

/// [est] width * output_channels * input_channels multiply-accumulates, one a cycle, plus one cycle
/// per output for the rounding and store.
std::uint64_t conv2dk1_fc_cycles(std::int32_t width, std::int32_t input_channels, std::int32_t output_channels);

} // namespace npusim::kernels

#pragma once
// The convolution kernels of the built-in library (mlir-aie python/iron/kernels/conv.py at 3ca0193):
// IRON's names, argument types and defaults, bound to the reference kernels (kernels_ref/conv2d.hpp)
// or, with KernelSet::aie, the AIE-API builds (kernels_ref/aie/). The bottleneck's split stage
// (bn_conv2dk3_dw_out_split and the input-split cascade halves) is declared in KernelLibraryConvSplit.hpp;
// with it every conv.py factory is in npusim's library (conv2dk3's int8 build and conv2dk1_skip_init's
// uint8 build are named refusals).
#include "npusim/frontend/Kernel.hpp"
#include "npusim/harness/KernelSet.hpp"
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>
#include <optional>

namespace npusim::harness::iron_kernels {

/// conv.py conv2dk1_i8(input_width=32, input_channels=64, output_channels=64) (:145-166, built with
/// -DINT8_ACT): conv2dk1_i8(in: i8[w*ci], wts: i8[ci*co], out: i8[w*co], width: i32, ci: i32, co: i32,
/// scale: i32), one image row in the YCXC8 layout (kernels_ref/conv2d.hpp). The channels must be
/// multiples of 8 and the width of 4 (the 8-channel layout and the 4 x 8 x 8 mmul of the vector
/// kernel): a DesignError names the parameter otherwise.
iron::Kernel conv2dk1_i8(std::int64_t input_width = 32, std::int64_t input_channels = 64,
                         std::int64_t output_channels = 64, KernelSet ks = KernelSet::reference);

/// conv.py conv2dk1(input_width=32, input_channels=64, output_channels=64, act_dtype=int8) (:24-55):
/// conv2dk1_i8 (-DINT8_ACT) or conv2dk1_ui8 (in: act[w*ci], wts: i8[ci*co], out: u8[w*co], width,
/// ci, co, scale: i32) of aie2/conv2dk1.cc: kernels::conv2dk1_u8 (half up, saturated to [0, 255]).
/// act_dtype other than int8 / uint8: conv.py's ValueError (_common.py:103-119).
iron::Kernel conv2dk1(std::int64_t input_width = 32, std::int64_t input_channels = 64,
                      std::int64_t output_channels = 64, DType act_dtype = DType::i8,
                      KernelSet ks = KernelSet::reference);

/// conv.py conv2dk1_skip(input_width=32, input_channels=64, output_channels=64, act_dtype=int8)
/// (:98-134): conv2dk1_skip_i8 (int8 skip) or conv2dk1_skip_ui8 (uint8 skip) of aie2/conv2dk1_skip.cc:
/// (in0: u8[w*ci/2], in1: u8[w*ci/2], wts: i8[ci*co], out: u8[w*co], skip: act[w*co], width, ci, co,
/// scale, skip_scale: i32); kernels::conv2dk1_skip_u8. input_channels a multiple of 16.
iron::Kernel conv2dk1_skip(std::int64_t input_width = 32, std::int64_t input_channels = 64,
                           std::int64_t output_channels = 64, DType act_dtype = DType::i8,
                           KernelSet ks = KernelSet::reference);

/// conv.py conv2dk1_skip_init(input_width=32, input_channels=64, output_channels=64, act_dtype=int8,
/// skip_input_channels=None) (:197-252): conv2dk1_skip_init_i8 of aie2/conv2dk1_skip_init.cc (in0, in1:
/// u8[w*ci/2], wts: i8[(ci + cs)*co], out: u8[w*co], skip: i8[w*cs], width, ci, co, cs, scale,
/// skip_scale, scale_skip_conv: i32); kernels::conv2dk1_skip_init_u8. skip_input_channels < 0 means
/// None (= input_channels). act_dtype uint8 is refused: upstream's conv2dk1_skip_init_ui8 has its
/// call commented out (conv2dk1_skip_init.cc:912-919) and computes nothing.
iron::Kernel conv2dk1_skip_init(std::int64_t input_width = 32, std::int64_t input_channels = 64,
                                std::int64_t output_channels = 64, DType act_dtype = DType::i8,
                                std::int64_t skip_input_channels = -1, KernelSet ks = KernelSet::reference);

/// conv.py bn_conv2dk1_relu(input_width=32, input_channels=64, output_channels=64) (:237-266, built
/// -DREGULAR -DINT8_ACT): conv2dk1_relu_i8_ui8(in: i8[w*ci], wts: i8[ci*co], out: u8[w*co], width, ci,
/// co, scale: i32) of aie2/bottleneck/bn_conv2dk1_relu.cc; bn_conv2dk1_i8(...) (:290-318, -DREGULAR
/// -DSCALAR): conv2dk1_ui8_i8(in: u8[w*ci], wts, out: i8[w*co], ...) of bn_conv2dk1_i8.cc.
/// kernels::conv2dk1_even (ties to even); [est] scalar cost (kernels::conv2dk1_scalar_cycles).
/// Any positive input_width (upstream's scalar loops visit every pixel, e.g. mobilenet's 14); the
/// channel counts positive multiples of 8. bn_conv2dk1_skip takes the same shapes.
iron::Kernel bn_conv2dk1_relu(std::int64_t input_width = 32, std::int64_t input_channels = 64,
                              std::int64_t output_channels = 64, KernelSet ks = KernelSet::reference);
iron::Kernel bn_conv2dk1_i8(std::int64_t input_width = 32, std::int64_t input_channels = 64,
                            std::int64_t output_channels = 64, KernelSet ks = KernelSet::reference);

/// conv.py bn_conv2dk1_skip(input_width=32, input_channels=64, output_channels=64, skip_dtype=uint8)
/// (:319-362, -DREGULAR -DSCALAR [-DUNSIGNED_SKIP]): conv2dk1_skip_ui8_ui8_i8 (uint8 skip) or
/// conv2dk1_skip_ui8_i8_i8 (int8 skip) of bn_conv2dk1_skip.cc (in: u8[w*ci], wts: i8[ci*co], out:
/// i8[w*co], skip[w*co], width, ci, co, scale, skip_scale: i32); kernels::conv2dk1_skip_even.
iron::Kernel bn_conv2dk1_skip(std::int64_t input_width = 32, std::int64_t input_channels = 64,
                              std::int64_t output_channels = 64, DType skip_dtype = DType::u8,
                              KernelSet ks = KernelSet::reference);

/// conv.py conv2dk3(input_width=32, input_channels=64, output_channels=64, act_dtype=int8,
/// weight_output_channels=None) (:57-99): conv2dk3_ui8 of aie2/conv2dk3.cc (line0, line1, line2:
/// u8[w*ci], wts: i8[9*ci*wco], out: u8[w*co], width, ci, co, kernel_width, kernel_height, check,
/// scale, channel_offset: i32); kernels::conv2dk3_u8, [est] kernels::conv2dk3_cycles.
/// weight_output_channels < 0 means None (= output_channels). Each call checks that channel_offset +
/// output_channels fits the weights. Refused, naming why: act_dtype=int8 (upstream's -DINT8_ACT build
/// does not compile) and an input_width other than 32 (the vector kernel computes 32 pixels).
iron::Kernel conv2dk3(std::int64_t input_width = 32, std::int64_t input_channels = 64,
                      std::int64_t output_channels = 64, DType act_dtype = DType::i8,
                      std::int64_t weight_output_channels = -1, KernelSet ks = KernelSet::reference);

/// conv.py conv2dk14(input_width=224, input_channels=16, output_channels=16, kernel_width=14)
/// (:165-194): conv2dk14_i8 of aie2p/conv2dk14.cc (in: u8[tiles*kw*kw*4], wts: i8[co*kw*kw*4], out:
/// i8[co*tiles*8], width, ci, co, kernel_width, scale: i32), tiles = input_width / kernel_width;
/// kernels::conv2dk14_i8. The output type is conv.py's, 8 times what the kernel writes (co * tiles).
/// IRON resolves the aie2p source on either generation; the [est] cost is
/// kernels::conv2dk14_cycles for `arch`. Refused, naming why: a kernel_width other than 14 and tiles
/// not a multiple of 16 (the vector kernel's fixed second tile group and tile pairs).
iron::Kernel conv2dk14(std::int64_t input_width = 224, std::int64_t input_channels = 16,
                       std::int64_t output_channels = 16, std::int64_t kernel_width = 14,
                       model::Arch arch = model::Arch::AIE2P, KernelSet ks = KernelSet::reference);

/// conv.py bn_conv2dk3_dw(input_width=32, input_channels=64, output_channels=64, stride=1) (:363-399,
/// -DREGULAR -DSCALAR -DSTRIDE<stride>): conv2dk3_dw_stride<stride>_relu_ui8_ui8 of bottleneck/
/// bn_conv2dk3_dw.cc (line0..2: u8[w*ci], wts: i8[9*ci], out: u8[(w/stride)*co], then the 8 i32 of
/// conv2dk3); kernels::conv2dk3_dw_stride1_u8 / _stride2_u8, [est] kernels::conv2dk3_dw_cycles. A
/// stride other than 1 or 2 is conv.py's ValueError; output_channels above input_channels (the
/// kernel reads input channel c for output c), an odd width at stride 2 and rows wider than 256
/// pixels (npusim's build) are DesignErrors. Each call checks its width and channels are the factory's.
iron::Kernel bn_conv2dk3_dw(std::int64_t input_width = 32, std::int64_t input_channels = 64,
                            std::int64_t output_channels = 64, std::int64_t stride = 1,
                            KernelSet ks = KernelSet::reference);

/// conv.py bn_conv2dk3(input_width=32, input_channels=64, output_channels=64) (:266-290, no flags):
/// conv2dk3_stride2_i8 of bottleneck/bn_conv2dk3.cc (line0..2: i8[w*ci], wts: i8[9*ci*co], out:
/// u8[(w/2)*co], then the 8 i32 of conv2dk3); kernels::conv2dk3_stride2_even, [est]
/// kernels::conv2dk3_stride2_cycles. input_width a multiple of 4 up to 256 (npusim's build); each call
/// checks its width and channels are the factory's and its channel_offset 0.
iron::Kernel bn_conv2dk3(std::int64_t input_width = 32, std::int64_t input_channels = 64,
                         std::int64_t output_channels = 64, KernelSet ks = KernelSet::reference);

/// conv.py bn_conv2dk1_partial_put_i8(input_width=7, input_channels=80, weight_count=4800, *,
/// block_index=13) (:454-496, -DBN<b>_1_PARTIAL_PUT_I8_CAS_WIDTH_NEW): bn<b>_1_conv2dk1_i8_ui8_partial_width_put_new
/// of bottleneck/bn_conv2dk1_i8.cc (in: i8[w*ci], wts: i8[weight_count], then width, ci, co,
/// input_split, weight_index, x_start, oc: i32); kernels::conv2dk1_partial_put_i8, whose words reach
/// the worker's cascade output (a CascadeFlow to the get half's worker), [est]
/// kernels::conv2dk1_partial_cycles. block_index other than 13 / 14: conv.py's ValueError
/// (:445-451). Each call checks its width and channels are the factory's and its weight group
/// lies in the weights.
iron::Kernel bn_conv2dk1_partial_put_i8(std::int64_t input_width = 7, std::int64_t input_channels = 80,
                                        std::int64_t weight_count = 4800, std::int64_t block_index = 13,
                                        KernelSet ks = KernelSet::reference);

/// conv.py bn_conv2dk1_partial_get_relu_i8(input_width=7, input_channels=80, output_channels=480,
/// weight_count=4800, *, block_index=13) (:499-539, -DBN<b>_1_PARTIAL_GET_I8_CAS_WIDTH_NEW):
/// bn<b>_1_conv2dk1_i8_ui8_partial_width_get_new of bottleneck/bn_conv2dk1_relu.cc (in: i8[w*ci],
/// wts: i8[weight_count], out: u8[w*co], then width, ci, co, scale, input_split, output_split,
/// weight_index, x_start, oc: i32); kernels::conv2dk1_partial_get_relu_i8 reading the worker's
/// cascade input. Each call checks as the put half's, and its scale and output group.
iron::Kernel bn_conv2dk1_partial_get_relu_i8(std::int64_t input_width = 7, std::int64_t input_channels = 80,
                                             std::int64_t output_channels = 480, std::int64_t weight_count = 4800,
                                             std::int64_t block_index = 13, KernelSet ks = KernelSet::reference);

/// conv.py bn_conv2dk1_relu_xy_pool_padded(input_width=7, input_channels=80, output_channels=1280,
/// weight_chunk_count=None) (:402-443, -DSCALAR -DCONV_XYPOOL_FUSED_LARGE_PADDED -DINT8_ACT):
/// conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8 of bottleneck/bn_conv2dk1_relu.cc (in: i8[w*ci],
/// wts: i8[weight_chunk_count, else ci*co], out: u16[co], then width, ci, output_channels,
/// output_channels_padd, scale, y_index, output_split, weight_index: i32): one row of a 1x1 + ReLU
/// summed into a 7x7 average pool, for one weight chunk, with channel padding;
/// kernels::conv2dk1_xy_pool_padded_u16, [est] kernels::conv2dk1_xy_pool_cycles. input_width in
/// 1..1024 (npusim's build), channels multiples of 8 up to 4096. Each call checks its width and
/// channels are the factory's, and that the chunk's outputs, the padding and the chunk's weights lie
/// in the buffers.
iron::Kernel bn_conv2dk1_relu_xy_pool_padded(std::int64_t input_width = 7, std::int64_t input_channels = 80,
                                             std::int64_t output_channels = 1280,
                                             std::optional<std::int64_t> weight_chunk_count = std::nullopt,
                                             KernelSet ks = KernelSet::reference);

/// conv.py bn_fc_relu_ui16_pad(input_channels=1280, output_channels=16, weight_chunk_count=None)
/// (:669-706, -DSCALAR -DPOSTL2_PAD -DUINT16_ACT): post_L2_conv2dk1_relu_i16_ui16_pad of
/// bottleneck/bn_conv2dk1_relu.cc (in: u16[ci], wts: i8[weight_chunk_count, else ci*co], out: u16[co],
/// then width, input_channels, input_channels_pad, output_channels, scale: i32): the fully connected
/// layer + ReLU over weight rows input_channels_pad long; kernels::conv2dk1_fc_relu_pad_u16 (which
/// refuses sums past int32), [est] kernels::conv2dk1_fc_cycles. Channels multiples of 8 up to 4096.
/// Each call checks the row it reads and writes fits the factory's buffers and its weights the chunk.
iron::Kernel bn_fc_relu_ui16_pad(std::int64_t input_channels = 1280, std::int64_t output_channels = 16,
                                 std::optional<std::int64_t> weight_chunk_count = std::nullopt,
                                 KernelSet ks = KernelSet::reference);

} // namespace npusim::harness::iron_kernels

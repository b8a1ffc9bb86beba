#pragma once
// The built-in library's split bottleneck stage of MobileNet V3's bn13 / bn14 (mlir-aie
// python/iron/kernels/conv.py at 3ca0193, :542-668): the depthwise 3x3 whose output goes to two
// buffers, and the input-split cascade pair of the 1x1 projection that reads them (one half on each
// core, joined by a CascadeFlow, the get half adding the skip). IRON's names, argument types and
// defaults, bound to the reference kernels (kernels_ref/conv2dk3.hpp, conv2dk1_partial.hpp) or, with
// KernelSet::aie, the AIE-API builds (kernels_ref/aie/). block_index other than 13 / 14 is conv.py's
// ValueError (_validate_bn_block_index, :446-451).
#include "npusim/frontend/Kernel.hpp"
#include "npusim/harness/KernelSet.hpp"

#include <cstdint>

namespace npusim::harness::iron_kernels {

/// conv.py bn_conv2dk3_dw_out_split(input_width=7, input_channels=480, output_split_channels=240, *,
/// block_index=13) (:542-584, -DSCALAR -DBN<b> -DSTRIDE1_OUT_SPLIT): bn<b>_conv2dk3_ui8_out_split of
/// bottleneck/bn_conv2dk3_dw.cc (line0..2: u8[w*ci], wts: i8[9*ci], out1, out2: u8[w*split], then
/// width, ci, co, kernel_width, kernel_height, check, scale, channel_offset: i32);
/// kernels::conv2dk3_dw_out_split_u8, [est] kernels::conv2dk3_dw_cycles. input_width in 2..256
/// (the kernel's borders read two pixels; npusim's build holds 256), the channels positive multiples
/// of 8 (DesignErrors). Each call checks its width is the factory's, its output_channels fit the
/// lines and weights (at most input_channels; the call's input_channels is not used, as upstream)
/// and each half fits an output buffer, and its kernel size, check and scale.
iron::Kernel bn_conv2dk3_dw_out_split(std::int64_t input_width = 7, std::int64_t input_channels = 480,
                                      std::int64_t output_split_channels = 240, std::int64_t block_index = 13,
                                      KernelSet ks = KernelSet::reference);

/// conv.py bn_conv2dk1_input_split_partial_put_ui8(input_width=7, input_channels=240, weight_count=9600,
/// *, block_index=13) (:587-624, -DBN<b>_1_INPUT_SPLIT_PARTIAL_PUT_UI8_UI8_CAS_WIDTH_NEW):
/// bn<b>_1_conv2dk1_ui8_ui8_input_split_partial_width_put_new of bottleneck/bn_conv2dk1_i8.cc (in:
/// u8[w*ci], wts: i8[weight_count], then width, ci, co, input_split, weight_index, x_start, oc: i32);
/// kernels::conv2dk1_partial_put_ui8 putting to the worker's cascade output, [est]
/// kernels::conv2dk1_partial_cycles. input_channels is the buffer's (one half of the split); a call
/// passes the whole count and input_split, and reads input_channels / input_split channels: each call
/// checks its width is the factory's, that chunk fits the input, and its weight group the weights.
iron::Kernel bn_conv2dk1_input_split_partial_put_ui8(std::int64_t input_width = 7, std::int64_t input_channels = 240,
                                                     std::int64_t weight_count = 9600, std::int64_t block_index = 13,
                                                     KernelSet ks = KernelSet::reference);

/// conv.py bn_conv2dk1_input_split_partial_skip_get(input_width=7, input_channels=240, output_channels=80,
/// weight_count=9600, *, block_index=13) (:626-668, -DBN<b>_1_INPUT_SPLIT_PARTIAL_GET_UI8_I8_I8_CAS_WIDTH_NEW):
/// bn_<b>_2_conv2dk1_ui8_i8_i8_scalar_input_split_partial_width_get_new of bottleneck/bn_conv2dk1_skip.cc
/// (in: u8[w*ci], wts: i8[weight_count], out: i8[w*co], skip: i8[w*co], then width, ci, co, scale,
/// skip_scale, input_split, output_split, weight_index, x_start, oc: i32);
/// kernels::conv2dk1_partial_get_skip_i8 reading the worker's cascade input, [est]
/// kernels::conv2dk1_partial_skip_cycles. Each call checks as the put half's, and its output_channels
/// (the factory's), scale, skip_scale and output group.
iron::Kernel bn_conv2dk1_input_split_partial_skip_get(std::int64_t input_width = 7, std::int64_t input_channels = 240,
                                                      std::int64_t output_channels = 80,
                                                      std::int64_t weight_count = 9600, std::int64_t block_index = 13,
                                                      KernelSet ks = KernelSet::reference);

} // namespace npusim::harness::iron_kernels

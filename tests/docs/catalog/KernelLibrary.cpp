// The built-in kernel library's errors (harness/src/KernelLibrary*.cpp): IRON's aie.iron.kernels
// factories and their checks. Part of the harness's entries (add_harness calls it in its place).
#include "Designs.hpp"

#include "npusim/harness/KernelLibrary.hpp"
#include "npusim/harness/KernelLibraryConv.hpp"
#include "npusim/harness/KernelLibraryLinalg.hpp"
#include "npusim/harness/KernelLibraryMatvec.hpp"
#include "npusim/harness/KernelLibraryVision.hpp"

namespace npusim::errcat {

namespace {

// A call of conv2dk3 (32 pixels, 8 channels in and out) on one row whose weights Buffer holds 8
// output channels, with `args` (width, ci, co, channel_offset) among the call's arguments.
void conv2dk3_catalog_call(std::vector<std::int64_t> args) {
    const auto k = harness::iron_kernels::conv2dk3(32, 8, 8, DType::u8);
    const iron::Buffer wts(iron::tensor<std::int8_t>({576}), "wts");
    simulate(passthrough({.buffers = {wts},
                          .type = iron::tensor<std::uint8_t>({256}),
                          .body = [k, wts, args](F in, F out) {
                              auto e = in.acquire(1);
                              auto o = out.acquire(1);
                              k(e, e, e, wts.view(), o, args[0], args[1], args[2], 3, 3, 1, 1, args[3]);
                              in.release(1);
                              out.release(1);
                          }}));
}

// A call of conv2dk14 (224 pixels, 8 channels) with `width` as its width argument.
void conv2dk14_catalog_call(std::int64_t width) {
    const auto k = harness::iron_kernels::conv2dk14(224, 16, 8);
    const iron::Buffer wts(iron::tensor<std::int8_t>({8 * 196 * 4}), "wts");
    const iron::Buffer out(iron::tensor<std::int8_t>({8 * 16 * 8}), "res");
    simulate(passthrough({.buffers = {wts, out},
                          .type = iron::tensor<std::uint8_t>({16 * 196 * 4}),
                          .body = [k, wts, out, width](F in, F o) {
                              auto e = in.acquire(1);
                              o.acquire(1);
                              k(e, wts.view(), out.view(), width, 4, 8, 14, 1);
                              in.release(1);
                              o.release(1);
                          }}));
}

// A call of bn_conv2dk3_dw (32 pixels, 8 channels, stride 1) with `width` as its width argument.
void bn_dw_catalog_call(std::int64_t width) {
    const auto k = harness::iron_kernels::bn_conv2dk3_dw(32, 8, 8);
    const iron::Buffer wts(iron::tensor<std::int8_t>({72}), "wts");
    simulate(passthrough({.buffers = {wts},
                          .type = iron::tensor<std::uint8_t>({256}),
                          .body = [k, wts, width](F in, F out) {
                              auto e = in.acquire(1);
                              auto o = out.acquire(1);
                              k(e, e, e, wts.view(), o, width, 8, 8, 3, 3, 1, 1, 0);
                              in.release(1);
                              out.release(1);
                          }}));
}

// A call of bn_conv2dk3 (32 pixels, 8 channels in and out) with `offset` as its channel_offset.
void bn_conv2dk3_catalog_call(std::int64_t offset) {
    const auto k = harness::iron_kernels::bn_conv2dk3(32, 8, 8);
    const iron::Buffer wts(iron::tensor<std::int8_t>({576}), "wts");
    simulate(passthrough({.buffers = {wts},
                          .type = iron::tensor<std::int8_t>({256}),
                          .out_type = iron::tensor<std::uint8_t>({128}),
                          .body = [k, wts, offset](F in, F out) {
                              auto e = in.acquire(1);
                              auto o = out.acquire(1);
                              k(e, e, e, wts.view(), o, 32, 8, 8, 3, 3, 1, 1, offset);
                              in.release(1);
                              out.release(1);
                          }}));
}

// A call of bn_conv2dk1_partial_put_i8 (7 pixels, 16 channels, 128 weights) or, with `get`, of
// bn_conv2dk1_partial_get_relu_i8 (16 output channels) with `a` = (input_split, oc, scale,
// output_split, weight_index, input_width) among its arguments; the checks run before the cascade is touched.
void bn_partial_catalog_call(bool get, std::vector<std::int64_t> a) {
    const auto put_k = harness::iron_kernels::bn_conv2dk1_partial_put_i8(7, 16, 128);
    const auto get_k = harness::iron_kernels::bn_conv2dk1_partial_get_relu_i8(7, 16, 16, 128);
    const iron::Buffer wts(iron::tensor<std::int8_t>({128}), "wts");
    const iron::Buffer res(iron::tensor<std::uint8_t>({112}), "res");
    simulate(passthrough({.buffers = {wts, res},
                          .type = iron::tensor<std::int8_t>({112}),
                          .body = [=](F in, F out) {
                              auto e = in.acquire(1);
                              out.acquire(1);
                              if (get)
                                  get_k(e, wts.view(), res.view(), a[5], 16, 16, a[2], a[0], a[3], a[4], 0, a[1]);
                              else
                                  put_k(e, wts.view(), a[5], 16, 16, a[0], 0, 0, a[1]);
                              in.release(1);
                              out.release(1);
                          }}));
}

} // namespace

void add_kernel_library(Catalog& c) {
    c.component("Harness: the built-in kernel library",
                "IRON aie.iron.kernels factories (`harness/src/KernelLibrary.cpp`, `KernelLibraryLinalg.cpp`, "
                "`KernelLibraryMatvec.cpp`, `KernelLibraryConv.cpp`, `KernelLibraryConv3.cpp`, `KernelLibraryConvCascade.cpp`, "
                "`KernelLibraryConvPost.cpp`, `KernelLibraryVision.cpp`, `KernelLibraryConvSplit.cpp`); the texts are upstream's "
                "ValueErrors, the dtype written as npusim names it.");
    c.site("harness/src/KernelLibrary.cpp");
    NPUSIM_ERROR(c, "kernels.fixed_tile", kDesign,
                 "add() tile_size must be 1024 to match the hard-coded C++ loop bound, got 512.",
                 harness::iron_kernels::add(512));
    NPUSIM_ERROR(c, "kernels.tile_size", kDesign, "scale() tile_size must be >= 1, got 0",
                 harness::iron_kernels::scale(0));
    NPUSIM_ERROR(c, "kernels.reduce_dtype", kDesign,
                 "reduce_add() dtype must be np.int32, got i16. Only the int32 variant is available in the installed "
                 "aie_kernels.",
                 harness::iron_kernels::reduce_add(1024, DType::i16));
    NPUSIM_ERROR(c, "kernels.eltwise_dtype", kDesign,
                 "mul() dtype must be bfloat16, got f32. Only the bf16 variant is available in the installed "
                 "aie_kernels.",
                 harness::iron_kernels::mul(1024, DType::f32));
    NPUSIM_ERROR(c, "kernels.reduce_max_dtype", kDesign, "reduce_max() dtype must be np.int32 or bfloat16, got u8",
                 harness::iron_kernels::reduce_max(1024, DType::u8));
    NPUSIM_ERROR(c, "kernels.compute_max_dtype", kDesign, "compute_max() dtype must be np.int32 or bfloat16, got f32",
                 harness::iron_kernels::compute_max(DType::f32));
    NPUSIM_ERROR(c, "kernels.passthrough_dtype", kDesign,
                 "passthrough: unsupported dtype bf16. Use np.uint8, np.int16, or np.int32.",
                 harness::iron_kernels::passthrough(4096, DType::bf16));
    NPUSIM_ERROR(c, "kernels.scale_dtype", kDesign, "scale() dtype must be np.int16 or np.int32, got i8",
                 harness::iron_kernels::scale(1024, DType::i8));
    c.site("harness/src/KernelLibraryLinalg.cpp");
    NPUSIM_ERROR(c, "kernels.mm_dtypes", kDesign,
                 "mm(): unsupported (input_dtype, output_dtype) = (i32, i32). Supported: i8->i8, i8->i16, i8->i32, "
                 "i16->i16, i16->i32, bf16->bf16, bf16->f32",
                 harness::iron_kernels::mm(model::Arch::AIE2, 64, 64, 64, DType::i32, DType::i32));
    NPUSIM_ERROR(c, "kernels.mm_variant", kDesign,
                 "mm(): c_col_maj=True is not in npusim's kernel library (the vectorized row-major build is)",
                 harness::iron_kernels::mm(model::Arch::AIE2, 64, 64, 64, DType::i16, DType::i16, true, false, true));
    NPUSIM_ERROR(c, "kernels.mm_dims", kDesign,
                 "mm(): dim_m=12, dim_k=64, dim_n=64 must be multiples of 8, 4 and 8 (2 x 4x4x4 mmul blocks per step "
                 "of mm.cc's loop)",
                 harness::iron_kernels::mm(model::Arch::AIE2, 12, 64, 64, DType::i16, DType::i16));
    c.site("harness/src/KernelLibraryMatvec.cpp");
    NPUSIM_ERROR(c, "kernels.mv_dtypes", kDesign, "mv(): only (np.int16, np.int32) is supported, got (i8, i32)",
                 harness::iron_kernels::mv(32, 32, DType::i8, DType::i32));
    NPUSIM_ERROR(c, "kernels.mv_dims", kDesign,
                 "mv(): dim_m=24 and dim_k=32 must be multiples of 16 and 8 for the vectorized kernel (mv.cc's "
                 "static_asserts, r = 16, s = 8)",
                 harness::iron_kernels::mv(24, 32));
    NPUSIM_ERROR(c, "kernels.linalg_dim", kDesign, "cascade_mm(): dim_k=0 must be positive",
                 harness::iron_kernels::cascade_mm(64, 0, 64));
    NPUSIM_ERROR(c, "kernels.mv_zero_dims", kDesign, "mv(): dim_m=8 must be a multiple of 16 for zero_vectorized_i32",
                 harness::iron_kernels::mv_zero(8));
    NPUSIM_ERROR(c, "kernels.cascade_mm_dtypes", kDesign,
                 "cascade_mm(): unsupported (input_dtype, output_dtype) = (i8, i32). Supported: i16->i16, i16->i32, "
                 "bf16->bf16, bf16->f32",
                 harness::iron_kernels::cascade_mm(64, 64, 64, DType::i8, DType::i32));
    NPUSIM_ERROR(c, "kernels.cascade_mm_build", kDesign,
                 "cascade_mm(): the bf16 -> f32 build is not in npusim's kernel library (i16 -> i16 and i16 -> i32 "
                 "are)",
                 harness::iron_kernels::cascade_mm(64, 64, 64, DType::bf16, DType::f32));
    c.site("harness/src/KernelLibraryConv.cpp");
    NPUSIM_ERROR(c, "kernels.conv_act_dtype", kDesign, "conv2dk1(): act_dtype must be np.int8 or np.uint8, got i16",
                 harness::iron_kernels::conv2dk1(32, 64, 64, DType::i16));
    NPUSIM_ERROR(c, "kernels.conv_skip_act_dtype", kDesign,
                 "conv2dk1_skip(): act_dtype must be np.int8 or np.uint8, got f32",
                 harness::iron_kernels::conv2dk1_skip(32, 64, 64, DType::f32));
    NPUSIM_ERROR(c, "kernels.conv_skip_channels", kDesign,
                 "conv2dk1_skip(): input_channels=24 must be a multiple of 16 (two halves of 8-channel groups)",
                 harness::iron_kernels::conv2dk1_skip(32, 24, 64));
    NPUSIM_ERROR(c, "kernels.bn_skip_dtype", kDesign, "bn_conv2dk1_skip(): skip_dtype must be np.uint8 or np.int8, got i16",
                 harness::iron_kernels::bn_conv2dk1_skip(32, 64, 64, DType::i16));
    NPUSIM_ERROR(c, "kernels.conv_skip_init_act_dtype", kDesign,
                 "conv2dk1_skip_init(): act_dtype must be np.int8 or np.uint8, got i16",
                 harness::iron_kernels::conv2dk1_skip_init(32, 64, 64, DType::i16));
    NPUSIM_ERROR(c, "kernels.conv_skip_init_ui8", kDesign,
                 "conv2dk1_skip_init(): act_dtype=uint8 builds conv2dk1_skip_init_ui8, whose body is commented out "
                 "upstream (aie2/conv2dk1_skip_init.cc:912-919: it computes nothing); not in npusim's kernel library "
                 "(int8 is)",
                 harness::iron_kernels::conv2dk1_skip_init(32, 64, 64, DType::u8));
    NPUSIM_ERROR(c, "kernels.conv_skip_init_channels", kDesign,
                 "conv2dk1_skip_init(): input_channels=64 must be a multiple of 16 and skip_input_channels=12 a "
                 "positive multiple of 8",
                 harness::iron_kernels::conv2dk1_skip_init(32, 64, 64, DType::i8, 12));
    NPUSIM_ERROR(c, "kernels.conv_shape", kDesign,
                 "conv2dk1_i8(): input_channels=12 must be a positive multiple of 8 (the kernel works on 8-channel "
                 "groups of 4 pixels)",
                 harness::iron_kernels::conv2dk1_i8(32, 12, 64));
    NPUSIM_ERROR(c, "kernels.bn_conv1x1_width", kDesign, "bn_conv2dk1_relu(): input_width=0 must be positive",
                 harness::iron_kernels::bn_conv2dk1_relu(0));
    NPUSIM_ERROR(c, "kernels.bn_conv1x1_channels", kDesign,
                 "bn_conv2dk1_i8(): input_channels=20 must be a positive multiple of 8 (upstream's loops run over "
                 "input_channels / 8 groups of 8 channels and would skip the rest)",
                 harness::iron_kernels::bn_conv2dk1_i8(14, 20, 64));
    c.site("harness/src/KernelLibraryConv3.cpp");
    NPUSIM_ERROR(c, "kernels.conv3_shape", kDesign,
                 "bn_conv2dk3(): input_channels=12 must be a positive multiple of 8 (the kernel works on 8-channel "
                 "groups of 4 pixels)",
                 harness::iron_kernels::bn_conv2dk3(32, 12));
    NPUSIM_ERROR(c, "kernels.bn_conv2dk3_call", kKernel,
                 "worker 'w': kernel 'conv2dk3_stride2_i8' threw: conv2dk3_stride2_i8: input_width=32, "
                 "input_channels=8, output_channels=8 and channel_offset=8 must be the factory's 32, 8, 8 and 0 (its "
                 "weights hold 8 output channels)",
                 bn_conv2dk3_catalog_call(8));
    NPUSIM_ERROR(c, "kernels.conv2dk3_act_dtype", kDesign, "conv2dk3(): act_dtype must be np.int8 or np.uint8, got i16",
                 harness::iron_kernels::conv2dk3(32, 64, 64, DType::i16));
    NPUSIM_ERROR(c, "kernels.conv2dk3_i8", kDesign,
                 "conv2dk3(): act_dtype=int8 builds aie2/conv2dk3.cc with -DINT8_ACT, which does not compile "
                 "(conv2dk3.cc:530 uses tmp_a, whose declaration at :415 is commented out); not in npusim's kernel "
                 "library (uint8 is)",
                 harness::iron_kernels::conv2dk3(32, 64, 64, DType::i8));
    NPUSIM_ERROR(c, "kernels.conv2dk3_width", kDesign,
                 "conv2dk3(): input_width=16: aie2/conv2dk3.cc's vector kernel computes 32 pixels whatever the width "
                 "it is given (const int iw = 32, conv2dk3.cc:904); npusim's kernel library has input_width=32 only",
                 harness::iron_kernels::conv2dk3(16, 64, 64, DType::u8));
    NPUSIM_ERROR(c, "kernels.conv2dk3_weight_channels", kDesign,
                 "conv2dk3(): weight_output_channels=36 must be a multiple of 8 and at least output_channels=32",
                 harness::iron_kernels::conv2dk3(32, 64, 32, DType::u8, 36));
    NPUSIM_ERROR(c, "kernels.conv2dk3_call_channels", kKernel,
                 "worker 'w': kernel 'conv2dk3_ui8' threw: conv2dk3_ui8: input_width=16, input_channels=8 and "
                 "output_channels=8 must be the factory's 32, 8 and 8",
                 conv2dk3_catalog_call({16, 8, 8, 0}));
    NPUSIM_ERROR(c, "kernels.conv2dk3_call_offset", kKernel,
                 "worker 'w': kernel 'conv2dk3_ui8' threw: conv2dk3_ui8: channel_offset=8 + output_channels=8 exceeds "
                 "the weights' 8 output channels (weight_output_channels)",
                 conv2dk3_catalog_call({32, 8, 8, 8}));
    NPUSIM_ERROR(c, "kernels.conv2dk14_kernel_width", kDesign,
                 "conv2dk14(): kernel_width=7: aie2p/conv2dk14.cc's vector kernel reads its second tile group at input "
                 "+ 98 * 64 (conv2dk14.cc:148), a 14x14 tile's; npusim's kernel library has kernel_width=14 only",
                 harness::iron_kernels::conv2dk14(224, 16, 16, 7));
    NPUSIM_ERROR(c, "kernels.conv2dk14_width", kDesign,
                 "conv2dk14(): input_width=112 must be a positive multiple of 16 * kernel_width = 224: the vector kernel "
                 "computes tiles in pairs of 8-tile groups (tiles_div_16, conv2dk14.cc:144) and leaves the rest",
                 harness::iron_kernels::conv2dk14(112));
    NPUSIM_ERROR(c, "kernels.conv2dk14_channels", kDesign,
                 "conv2dk14(): output_channels=12 must be a positive multiple of 8",
                 harness::iron_kernels::conv2dk14(224, 16, 12));
    NPUSIM_ERROR(c, "kernels.conv2dk14_call", kKernel,
                 "worker 'w': kernel 'conv2dk14_i8' threw: conv2dk14_i8: input_width=448, output_channels=8 and "
                 "kernel_width=14 must be the factory's 224, 8 and 14",
                 conv2dk14_catalog_call(448));
    NPUSIM_ERROR(c, "kernels.bn_dw_stride", kDesign, "bn_conv2dk3_dw(): stride must be 1 or 2, got 3",
                 harness::iron_kernels::bn_conv2dk3_dw(32, 64, 64, 3));
    NPUSIM_ERROR(c, "kernels.bn_dw_channels", kDesign,
                 "bn_conv2dk3_dw(): input_channels=32 and output_channels=64 must be positive multiples of 8, "
                 "output_channels at most input_channels (the depthwise kernel reads input channel c for output "
                 "channel c)",
                 harness::iron_kernels::bn_conv2dk3_dw(32, 32, 64));
    NPUSIM_ERROR(c, "kernels.bn_dw_width", kDesign,
                 "bn_conv2dk3_dw(): input_width=31 must be in 1..256 (npusim's build) and a multiple of the stride 2",
                 harness::iron_kernels::bn_conv2dk3_dw(31, 64, 64, 2));
    NPUSIM_ERROR(c, "kernels.bn_dw_call", kKernel,
                 "worker 'w': kernel 'conv2dk3_dw_stride1_relu_ui8_ui8' threw: conv2dk3_dw_stride1_relu_ui8_ui8: "
                 "input_width=16 and output_channels=8 must be the factory's 32 and 8 (input_channels is not read)",
                 bn_dw_catalog_call(16));
    NPUSIM_ERROR(c, "kernels.bn_conv2dk3_width", kDesign,
                 "bn_conv2dk3(): input_width=30 must be a multiple of 4 in 4..256 (npusim's build walks 4-pixel groups "
                 "of a row of at most 256)",
                 harness::iron_kernels::bn_conv2dk3(30));
    c.site("harness/src/KernelLibraryConvCascade.cpp");
    NPUSIM_ERROR(c, "kernels.bn_partial_block", kDesign,
                 "bn_conv2dk1_partial_put_i8(): block_index must be 13 or 14 (the only per-block symbols defined in "
                 "the .cc), got 12.",
                 harness::iron_kernels::bn_conv2dk1_partial_put_i8(7, 80, 4800, 12));
    NPUSIM_ERROR(c, "kernels.bn_partial_width", kDesign,
                 "bn_conv2dk1_partial_get_relu_i8(): input_width=6 must be in 7..4096: the kernel computes pixels "
                 "0..6 (pixel_limit = 7)",
                 harness::iron_kernels::bn_conv2dk1_partial_get_relu_i8(6));
    NPUSIM_ERROR(c, "kernels.bn_partial_channels", kDesign,
                 "bn_conv2dk1_partial_put_i8(): input_channels=12 must be a multiple of 8 in 16..4096 (two chunks of "
                 "8-channel groups at least)",
                 harness::iron_kernels::bn_conv2dk1_partial_put_i8(7, 12));
    NPUSIM_ERROR(c, "kernels.bn_partial_weights", kDesign,
                 "bn_conv2dk1_partial_put_i8(): weight_count=0 must be positive", harness::iron_kernels::bn_conv2dk1_partial_put_i8(7, 80, 0));
    NPUSIM_ERROR(c, "kernels.bn_partial_out_channels", kDesign,
                 "bn_conv2dk1_partial_get_relu_i8(): output_channels=12 must be a positive multiple of 8 up to 4096",
                 harness::iron_kernels::bn_conv2dk1_partial_get_relu_i8(7, 80, 12));
    NPUSIM_ERROR(c, "kernels.bn_partial_call_shape", kKernel,
                 "worker 'w': kernel 'bn13_1_conv2dk1_i8_ui8_partial_width_put_new' threw: bn13_1_conv2dk1_i8_ui8_partial_width_put_new: input_width=8, input_channels=16 must be the "
                 "factory's 7, 16",
                 bn_partial_catalog_call(false, {2, 0, 0, 1, 0, 8}));
    NPUSIM_ERROR(c, "kernels.bn_partial_call_split", kKernel,
                 "worker 'w': kernel 'bn13_1_conv2dk1_i8_ui8_partial_width_put_new' threw: bn13_1_conv2dk1_i8_ui8_partial_width_put_new: input_split=3 must be at least 1 and split the "
                 "16 input channels into multiples of 8",
                 bn_partial_catalog_call(false, {3, 0, 0, 1, 0, 7}));
    NPUSIM_ERROR(c, "kernels.bn_partial_call_weights", kKernel,
                 "worker 'w': kernel 'bn13_1_conv2dk1_i8_ui8_partial_width_put_new' threw: bn13_1_conv2dk1_i8_ui8_partial_width_put_new: oc=2 needs 192 weights (8 output channels x 8 "
                 "input channels per group), the factory's weight_count is 128",
                 bn_partial_catalog_call(false, {2, 2, 0, 1, 0, 7}));
    NPUSIM_ERROR(c, "kernels.bn_partial_call_scale", kKernel,
                 "worker 'w': kernel 'bn13_1_conv2dk1_i8_ui8_partial_width_get_new' threw: bn13_1_conv2dk1_i8_ui8_partial_width_get_new: scale=0 must be in 1..31 (the source rounds with "
                 "1 << (scale - 1))",
                 bn_partial_catalog_call(true, {2, 0, 0, 1, 0, 7}));
    NPUSIM_ERROR(c, "kernels.bn_partial_call_out_split", kKernel,
                 "worker 'w': kernel 'bn13_1_conv2dk1_i8_ui8_partial_width_get_new' threw: bn13_1_conv2dk1_i8_ui8_partial_width_get_new: output_split=3 must be in 1..2 (output_channels "
                 "/ 8)",
                 bn_partial_catalog_call(true, {2, 0, 4, 3, 0, 7}));
    NPUSIM_ERROR(c, "kernels.bn_partial_call_group", kKernel,
                 "worker 'w': kernel 'bn13_1_conv2dk1_i8_ui8_partial_width_get_new' threw: bn13_1_conv2dk1_i8_ui8_partial_width_get_new: output channel group 2 (oc + output_channels / "
                 "(8 * output_split) * weight_index) is outside the output's 2",
                 bn_partial_catalog_call(true, {2, 0, 4, 2, 2, 7}));
    c.site("harness/src/KernelLibraryVision.cpp");
    NPUSIM_ERROR(c, "kernels.vision_dtype", kDesign, "bitwiseOR: unsupported dtype f32. Use np.uint8, np.int16, or np.int32.",
                 harness::iron_kernels::bitwise_or(64, DType::f32));
    NPUSIM_ERROR(c, "kernels.vision_build", kDesign,
                 "threshold(): dtype i16 (BIT_WIDTH=16) is not in npusim's kernel library (uint8 is)",
                 harness::iron_kernels::threshold(1920, DType::i16));
    NPUSIM_ERROR(c, "kernels.line_width", kDesign, "filter2d() line_width must be >= 1, got 0",
                 harness::iron_kernels::filter2d(0));
    add_kernel_library_post(c);
}

} // namespace npusim::errcat

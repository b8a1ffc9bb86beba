// The built-in kernel library's split bottleneck stage (harness/src/KernelLibraryConvSplit.cpp):
// IRON's bn_conv2dk3_dw_out_split and the input-split cascade pair, their factory refusals and the
// per-call checks. Part of the kernel library's entries (add_harness calls it after add_kernel_library).
#include "Designs.hpp"

#include "npusim/harness/KernelLibraryConvSplit.hpp"

namespace npusim::errcat {

namespace {

// A call of bn_conv2dk3_dw_out_split (8 pixels, 32 channels, 16 per half) with `a` = (width,
// output_channels, kernel_width, check, scale) among its arguments.
void bn_dw_split_catalog_call(std::vector<std::int64_t> a) {
    const auto k = harness::iron_kernels::bn_conv2dk3_dw_out_split(8, 32, 16);
    const iron::Buffer wts(iron::tensor<std::int8_t>({288}), "wts");
    const iron::Buffer o2(iron::tensor<std::uint8_t>({128}), "out2");
    simulate(passthrough({.buffers = {wts, o2},
                          .type = iron::tensor<std::uint8_t>({256}),
                          .out_type = iron::tensor<std::uint8_t>({128}),
                          .body = [=](F in, F out) {
                              auto e = in.acquire(1);
                              auto o = out.acquire(1);
                              k(e, e, e, wts.view(), o, o2.view(), a[0], 1, a[1], a[2], 3, a[3], a[4], 0);
                              in.release(1);
                              out.release(1);
                          }}));
}

// A call of bn_conv2dk1_input_split_partial_put_ui8 (7 pixels, 16 channels, 128 weights) or, with
// `get`, of bn_conv2dk1_input_split_partial_skip_get (16 output channels) with `a` = (input_width,
// input_channels, input_split, oc, output_channels, scale, skip_scale, output_split, weight_index)
// among its arguments; the checks run before the cascade is touched.
void bn_split_catalog_call(bool get, std::vector<std::int64_t> a) {
    const auto put_k = harness::iron_kernels::bn_conv2dk1_input_split_partial_put_ui8(7, 16, 128);
    const auto get_k = harness::iron_kernels::bn_conv2dk1_input_split_partial_skip_get(7, 16, 16, 128);
    const iron::Buffer wts(iron::tensor<std::int8_t>({128}), "wts");
    const iron::Buffer res(iron::tensor<std::int8_t>({112}), "res"), skip(iron::tensor<std::int8_t>({112}), "skip");
    simulate(passthrough({.buffers = {wts, res, skip},
                          .type = iron::tensor<std::uint8_t>({112}),
                          .body = [=](F in, F out) {
                              auto e = in.acquire(1);
                              out.acquire(1);
                              if (get)
                                  get_k(e, wts.view(), res.view(), skip.view(), a[0], a[1], a[4], a[5], a[6], a[2],
                                        a[7], a[8], 0, a[3]);
                              else
                                  put_k(e, wts.view(), a[0], a[1], 16, a[2], 0, 0, a[3]);
                              in.release(1);
                              out.release(1);
                          }}));
}

} // namespace

void add_kernel_library_split(Catalog& c) {
    c.site("harness/src/KernelLibraryConvSplit.cpp");
    NPUSIM_ERROR(c, "kernels.bn_split_block", kDesign,
                 "bn_conv2dk3_dw_out_split(): block_index must be 13 or 14 (the only per-block symbols defined in "
                 "the .cc), got 12.",
                 harness::iron_kernels::bn_conv2dk3_dw_out_split(7, 480, 240, 12));
    NPUSIM_ERROR(c, "kernels.bn_split_dw_width", kDesign,
                 "bn_conv2dk3_dw_out_split(): input_width=1 must be in 2..256 (the kernel's borders read two pixels; "
                 "npusim's build holds 256)",
                 harness::iron_kernels::bn_conv2dk3_dw_out_split(1));
    NPUSIM_ERROR(c, "kernels.bn_split_channels", kDesign,
                 "bn_conv2dk3_dw_out_split(): output_split_channels=12 must be a positive multiple of 8 up to 4096",
                 harness::iron_kernels::bn_conv2dk3_dw_out_split(7, 480, 12));
    NPUSIM_ERROR(c, "kernels.bn_split_width", kDesign,
                 "bn_conv2dk1_input_split_partial_put_ui8(): input_width=6 must be in 7..4096: the kernel computes "
                 "pixels 0..6 (pixel_limit = 7)",
                 harness::iron_kernels::bn_conv2dk1_input_split_partial_put_ui8(6));
    NPUSIM_ERROR(c, "kernels.bn_split_weights", kDesign,
                 "bn_conv2dk1_input_split_partial_skip_get(): weight_count=0 must be positive",
                 harness::iron_kernels::bn_conv2dk1_input_split_partial_skip_get(7, 240, 80, 0));
    NPUSIM_ERROR(c, "kernels.bn_split_dw_call_width", kKernel,
                 "worker 'w': kernel 'bn13_conv2dk3_ui8_out_split' threw: bn13_conv2dk3_ui8_out_split: input_width=4 "
                 "must be the factory's 8",
                 bn_dw_split_catalog_call({4, 32, 3, 1, 8}));
    NPUSIM_ERROR(c, "kernels.bn_split_dw_call_channels", kKernel,
                 "worker 'w': kernel 'bn13_conv2dk3_ui8_out_split' threw: bn13_conv2dk3_ui8_out_split: "
                 "output_channels=48 must be a positive multiple of 8 of at most the factory's input_channels 32, "
                 "each half (24 and 24 channels) at most its output_split_channels 16",
                 bn_dw_split_catalog_call({8, 48, 3, 1, 8}));
    NPUSIM_ERROR(c, "kernels.bn_split_dw_call_window", kKernel,
                 "worker 'w': kernel 'bn13_conv2dk3_ui8_out_split' threw: bn13_conv2dk3_ui8_out_split: kernel 3 x 3, "
                 "check 1 and scale 0 must be 3 x 3, 0..2 and 1..31",
                 bn_dw_split_catalog_call({8, 32, 3, 1, 0}));
    NPUSIM_ERROR(c, "kernels.bn_split_call_width", kKernel,
                 "worker 'w': kernel 'bn13_1_conv2dk1_ui8_ui8_input_split_partial_width_put_new' threw: "
                 "bn13_1_conv2dk1_ui8_ui8_input_split_partial_width_put_new: input_width=8 must be the factory's 7",
                 bn_split_catalog_call(false, {8, 32, 2, 0, 16, 8, 0, 1, 0}));
    NPUSIM_ERROR(c, "kernels.bn_split_call_chunk", kKernel,
                 "worker 'w': kernel 'bn13_1_conv2dk1_ui8_ui8_input_split_partial_width_put_new' threw: "
                 "bn13_1_conv2dk1_ui8_ui8_input_split_partial_width_put_new: input_channels=64 / input_split=2 must "
                 "be a positive multiple of 8 of at most the factory's 16 input channels (the channels the call "
                 "reads from its input)",
                 bn_split_catalog_call(false, {7, 64, 2, 0, 16, 8, 0, 1, 0}));
    NPUSIM_ERROR(c, "kernels.bn_split_call_weights", kKernel,
                 "worker 'w': kernel 'bn13_1_conv2dk1_ui8_ui8_input_split_partial_width_put_new' threw: "
                 "bn13_1_conv2dk1_ui8_ui8_input_split_partial_width_put_new: oc=1 needs 256 weights (8 output channels "
                 "x 16 input channels per group), the factory's weight_count is 128",
                 bn_split_catalog_call(false, {7, 32, 2, 1, 16, 8, 0, 1, 0}));
    NPUSIM_ERROR(c, "kernels.bn_split_call_out_channels", kKernel,
                 "worker 'w': kernel 'bn_13_2_conv2dk1_ui8_i8_i8_scalar_input_split_partial_width_get_new' threw: "
                 "bn_13_2_conv2dk1_ui8_i8_i8_scalar_input_split_partial_width_get_new: output_channels=8 must be the "
                 "factory's 16",
                 bn_split_catalog_call(true, {7, 32, 2, 0, 8, 8, 0, 1, 0}));
    NPUSIM_ERROR(c, "kernels.bn_split_call_scale", kKernel,
                 "worker 'w': kernel 'bn_13_2_conv2dk1_ui8_i8_i8_scalar_input_split_partial_width_get_new' threw: "
                 "bn_13_2_conv2dk1_ui8_i8_i8_scalar_input_split_partial_width_get_new: scale=8 and skip_scale=-1 must "
                 "be in 1..31 and 0..31 (the source rounds with 1 << (scale - 1))",
                 bn_split_catalog_call(true, {7, 32, 2, 0, 16, 8, -1, 1, 0}));
    NPUSIM_ERROR(c, "kernels.bn_split_call_out_split", kKernel,
                 "worker 'w': kernel 'bn_13_2_conv2dk1_ui8_i8_i8_scalar_input_split_partial_width_get_new' threw: "
                 "bn_13_2_conv2dk1_ui8_i8_i8_scalar_input_split_partial_width_get_new: output_split=3 must be in 1..2 "
                 "(output_channels / 8)",
                 bn_split_catalog_call(true, {7, 32, 2, 0, 16, 8, 0, 3, 0}));
    NPUSIM_ERROR(c, "kernels.bn_split_call_group", kKernel,
                 "worker 'w': kernel 'bn_13_2_conv2dk1_ui8_i8_i8_scalar_input_split_partial_width_get_new' threw: "
                 "bn_13_2_conv2dk1_ui8_i8_i8_scalar_input_split_partial_width_get_new: output channel group 2 (oc + "
                 "output_channels / (8 * output_split) * weight_index) is outside the output's 2",
                 bn_split_catalog_call(true, {7, 32, 2, 0, 16, 8, 0, 2, 2}));
}

} // namespace npusim::errcat

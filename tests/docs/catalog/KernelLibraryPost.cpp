// The built-in kernel library's post-stage 1x1 kernels (harness/src/KernelLibraryConvPost.cpp): IRON's
// bn_conv2dk1_relu_xy_pool_padded and bn_fc_relu_ui16_pad, their factory refusals and per-call
// checks. Part of the kernel library's entries (add_kernel_library calls it last).
#include "Designs.hpp"

#include "npusim/harness/KernelLibraryConv.hpp"

namespace npusim::errcat {

namespace {

// A call of bn_conv2dk1_relu_xy_pool_padded (7 pixels, 8 channels, 16 outputs, a 64-weight chunk) on
// row 0 with `a` = (input_width, input_channels, output_channels, output_channels_padd, scale,
// output_split, weight_index) as its arguments.
void pool_catalog_call(std::vector<std::int64_t> a) {
    const auto k = harness::iron_kernels::bn_conv2dk1_relu_xy_pool_padded(7, 8, 16, 64);
    const iron::Buffer wts(iron::tensor<std::int8_t>({64}), "wts");
    const iron::Buffer res(iron::tensor<std::uint16_t>({16}), "res");
    simulate(passthrough({.buffers = {wts, res},
                          .type = iron::tensor<std::int8_t>({56}),
                          .body = [k, wts, res, a](F in, F out) {
                              auto e = in.acquire(1);
                              out.acquire(1);
                              k(e, wts.view(), res.view(), a[0], a[1], a[2], a[3], a[4], 0, a[5], a[6]);
                              in.release(1);
                              out.release(1);
                          }}));
}

// A call of bn_fc_relu_ui16_pad (512 activations, 16 outputs, 4096 weights, all -128) with `a` =
// (input_width, input_channels, input_channels_pad, output_channels, scale) and every activation `value`.
void fc_catalog_call(std::vector<std::int64_t> a, std::uint16_t value = 0) {
    const auto k = harness::iron_kernels::bn_fc_relu_ui16_pad(512, 16, 4096);
    const auto act = iron::Buffer::with_values(iron::tensor<std::uint16_t>({512}), "act",
                                               std::vector<std::uint16_t>(512, value));
    const auto wts =
        iron::Buffer::with_values(iron::tensor<std::int8_t>({4096}), "wts", std::vector<std::int8_t>(4096, -128));
    const iron::Buffer res(iron::tensor<std::uint16_t>({16}), "res");
    simulate(passthrough({.buffers = {act, wts, res},
                          .body = [k, act, wts, res, a](F in, F out) {
                              in.acquire(1);
                              out.acquire(1);
                              k(act.view(), wts.view(), res.view(), a[0], a[1], a[2], a[3], a[4]);
                              in.release(1);
                              out.release(1);
                          }}));
}

} // namespace

void add_kernel_library_post(Catalog& c) {
    c.site("harness/src/KernelLibraryConvPost.cpp");
    NPUSIM_ERROR(c, "kernels.bn_pool_width", kDesign,
                 "bn_conv2dk1_relu_xy_pool_padded(): input_width=0 must be in 1..1024 (npusim's build)",
                 harness::iron_kernels::bn_conv2dk1_relu_xy_pool_padded(0));
    NPUSIM_ERROR(c, "kernels.bn_post_channels", kDesign,
                 "bn_conv2dk1_relu_xy_pool_padded(): input_channels=84 and output_channels=1280 must be positive "
                 "multiples of 8 up to 4096",
                 harness::iron_kernels::bn_conv2dk1_relu_xy_pool_padded(7, 84));
    NPUSIM_ERROR(c, "kernels.bn_post_weight_chunk", kDesign, "bn_fc_relu_ui16_pad(): weight_chunk_count=0 must be positive",
                 harness::iron_kernels::bn_fc_relu_ui16_pad(1280, 16, 0));
    NPUSIM_ERROR(c, "kernels.bn_pool_call_shape", kKernel,
                 "worker 'w': kernel 'conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8' threw: "
                 "conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8: input_width=6 and input_channels=8 must be the "
                 "factory's 7 and 8",
                 pool_catalog_call({6, 8, 8, 16, 1, 1, 0}));
    NPUSIM_ERROR(c, "kernels.bn_pool_call_split", kKernel,
                 "worker 'w': kernel 'conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8' threw: "
                 "conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8: output_channels=12 must be a positive multiple of "
                 "8 * output_split=1 (each chunk is whole 8-channel groups)",
                 pool_catalog_call({7, 8, 12, 16, 1, 1, 0}));
    NPUSIM_ERROR(c, "kernels.bn_pool_call_index", kKernel,
                 "worker 'w': kernel 'conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8' threw: "
                 "conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8: weight_index=2 writes output channels [16, 24), "
                 "outside the factory's output_channels=16",
                 pool_catalog_call({7, 8, 8, 16, 1, 1, 2}));
    NPUSIM_ERROR(c, "kernels.bn_pool_call_padd", kKernel,
                 "worker 'w': kernel 'conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8' threw: "
                 "conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8: output_channels_padd=24 exceeds the factory's "
                 "output_channels=16 (the padding writes up to it)",
                 pool_catalog_call({7, 8, 8, 24, 1, 1, 0}));
    NPUSIM_ERROR(c, "kernels.bn_pool_call_weights", kKernel,
                 "worker 'w': kernel 'conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8' threw: "
                 "conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8: a chunk of 16 output channels (output_channels / "
                 "output_split) needs 128 weights, the factory's weight chunk holds 64",
                 pool_catalog_call({7, 8, 16, 16, 1, 1, 0}));
    NPUSIM_ERROR(c, "kernels.bn_post_call_scale", kKernel,
                 "worker 'w': kernel 'conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8' threw: "
                 "conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8: scale=0 must be in 1..31 (the source rounds with "
                 "1 << (scale - 1))",
                 pool_catalog_call({7, 8, 8, 16, 0, 1, 0}));
    NPUSIM_ERROR(c, "kernels.bn_post_call_int32", kKernel,
                 "worker 'w': kernel 'conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8' threw: "
                 "conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8: argument 10 = 4294967296 does not fit the "
                 "kernel's int32 parameter",
                 pool_catalog_call({7, 8, 8, 16, 1, 1, std::int64_t{1} << 32}));
    NPUSIM_ERROR(c, "kernels.bn_fc_call_input", kKernel,
                 "worker 'w': kernel 'post_L2_conv2dk1_relu_i16_ui16_pad' threw: post_L2_conv2dk1_relu_i16_ui16_pad: "
                 "input_width=2 x input_channels=512 must be positive, input_channels a multiple of 8, and read at "
                 "most the factory's 512 activations",
                 fc_catalog_call({2, 512, 512, 8, 1}));
    NPUSIM_ERROR(c, "kernels.bn_fc_call_pad", kKernel,
                 "worker 'w': kernel 'post_L2_conv2dk1_relu_i16_ui16_pad' threw: post_L2_conv2dk1_relu_i16_ui16_pad: "
                 "input_channels_pad=8 must be a multiple of 8 at least input_channels=16",
                 fc_catalog_call({1, 16, 8, 8, 1}));
    NPUSIM_ERROR(c, "kernels.bn_fc_call_output", kKernel,
                 "worker 'w': kernel 'post_L2_conv2dk1_relu_i16_ui16_pad' threw: post_L2_conv2dk1_relu_i16_ui16_pad: "
                 "input_width=2 x output_channels=16 must be positive, output_channels a multiple of 8, and write at "
                 "most the factory's 16 outputs",
                 fc_catalog_call({2, 16, 16, 16, 1}));
    NPUSIM_ERROR(c, "kernels.bn_fc_call_weights", kKernel,
                 "worker 'w': kernel 'post_L2_conv2dk1_relu_i16_ui16_pad' threw: post_L2_conv2dk1_relu_i16_ui16_pad: "
                 "output_channels=16 over weight rows of input_channels_pad=512 read 8192 weights, the factory's weight "
                 "chunk holds 4096",
                 fc_catalog_call({1, 512, 512, 16, 1}));
    NPUSIM_ERROR(c, "kernels.bn_fc_overflow", kKernel,
                 "worker 'w': kernel 'post_L2_conv2dk1_relu_i16_ui16_pad' threw: conv2dk1_fc_relu_pad_u16: the sum of "
                 "output channel 0 at pixel 0 leaves the source's int32 accumulator (final sum -4294901760, with the "
                 "rounding term up to 2^(scale-1))",
                 fc_catalog_call({1, 512, 512, 8, 1}, 65535));
}

} // namespace npusim::errcat

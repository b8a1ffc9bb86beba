// The built-in library's 3x3 and 14x14 convolutions (KernelLibraryConv.hpp): mlir-aie
// python/iron/kernels/conv.py conv2dk3, conv2dk14, bn_conv2dk3, bn_conv2dk3_dw. Their buffers are sized
// by the factory's width and channels, so every call checks its own width and channel arguments
// (and conv2dk3 its channel slice of the weights) before the kernel runs.
#include "npusim/harness/KernelLibraryConv.hpp"

#include "CheckedKernel.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/conv2dk14.hpp"
#include "npusim/kernels/conv2dk3.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>

#include <fmt/format.h>

#include <functional>
#include <stdexcept>
#include <utility>

namespace npusim::harness::iron_kernels {

using iron::ArgType;
using iron::Kernel;
using iron::KernelArg;

namespace {

void require_k3_shape(const char* factory, std::int64_t ci, std::int64_t co) {
    for (const auto& [name, v] : {std::pair{"input_channels", ci}, std::pair{"output_channels", co}})
        if (v <= 0 || v % 8 != 0)
            throw DesignError(fmt::format("{}(): {}={} must be a positive multiple of 8 (the kernel works on "
                                          "8-channel groups of 4 pixels)",
                                          factory, name, v));
}

} // namespace

Kernel conv2dk3(std::int64_t w, std::int64_t ci, std::int64_t co, DType act, std::int64_t wco, KernelSet ks) {
    if (act != DType::i8 && act != DType::u8) // _common.py:115-119
        throw DesignError(
            fmt::format("conv2dk3(): act_dtype must be np.int8 or np.uint8, got {}", model::dtype_name(act)));
    if (act == DType::i8)
        throw DesignError("conv2dk3(): act_dtype=int8 builds aie2/conv2dk3.cc with -DINT8_ACT, which does not compile "
                          "(conv2dk3.cc:530 uses tmp_a, whose declaration at :415 is commented out); not in npusim's "
                          "kernel library (uint8 is)");
    if (w != 32)
        throw DesignError(fmt::format("conv2dk3(): input_width={}: aie2/conv2dk3.cc's vector kernel computes 32 pixels "
                                      "whatever the width it is given (const int iw = 32, conv2dk3.cc:904); npusim's "
                                      "kernel library has input_width=32 only",
                                      w));
    require_k3_shape("conv2dk3", ci, co);
    if (wco < 0) wco = co; // weight_output_channels=None
    if (wco < co || wco % 8 != 0)
        throw DesignError(fmt::format("conv2dk3(): weight_output_channels={} must be a multiple of 8 and at least "
                                      "output_channels={}",
                                      wco, co));
    const auto i32 = iron::scalar<std::int32_t>();
    const auto line = iron::tensor<std::uint8_t>({w * ci});
    std::vector<ArgType> types{line,
                               line,
                               line,
                               iron::tensor<std::int8_t>({9 * ci * wco}),
                               iron::tensor<std::uint8_t>({w * co}),
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32};
    auto cost = [](std::span<const KernelArg> a) {
        return kernels::conv2dk3_cycles(static_cast<std::int32_t>(a[5].ivalue), static_cast<std::int32_t>(a[6].ivalue),
                                        static_cast<std::int32_t>(a[7].ivalue),
                                        static_cast<std::int32_t>(a[10].ivalue));
    };
    // the call's channel slice must lie in the weights (9 * ci * wco values), and its channel
    // arguments must be the ones the buffers were sized for
    auto fits = [ci, co, wco](std::span<const KernelArg> a) {
        if (a[5].ivalue != 32 || a[6].ivalue != ci || a[7].ivalue != co)
            throw std::invalid_argument(fmt::format("conv2dk3_ui8: input_width={}, input_channels={} and "
                                                    "output_channels={} must be the factory's 32, {} and {}",
                                                    a[5].ivalue, a[6].ivalue, a[7].ivalue, ci, co));
        if (a[12].ivalue < 0 || a[12].ivalue + co > wco)
            throw std::invalid_argument(fmt::format("conv2dk3_ui8: channel_offset={} + output_channels={} exceeds the "
                                                    "weights' {} output channels (weight_output_channels)",
                                                    a[12].ivalue, co, wco));
    };
    if (ks == KernelSet::aie)
        return detail::checked_kernel("conv2dk3_ui8", &aie_kernels::conv2dk3_ui8, true, std::move(types), cost, fits);
    return detail::checked_kernel("conv2dk3_ui8", &kernels::conv2dk3_u8, false, std::move(types), cost, fits);
}

Kernel conv2dk14(std::int64_t w, std::int64_t ci, std::int64_t co, std::int64_t kw, model::Arch arch, KernelSet ks) {
    if (kw != 14)
        throw DesignError(
            fmt::format("conv2dk14(): kernel_width={}: aie2p/conv2dk14.cc's vector kernel reads its second "
                        "tile group at input + 98 * 64 (conv2dk14.cc:148), a 14x14 tile's; npusim's "
                        "kernel library has kernel_width=14 only",
                        kw));
    if (w <= 0 || w % (16 * kw) != 0)
        throw DesignError(fmt::format("conv2dk14(): input_width={} must be a positive multiple of 16 * kernel_width = "
                                      "{}: the vector kernel computes tiles in pairs of 8-tile groups (tiles_div_16, "
                                      "conv2dk14.cc:144) and leaves the rest",
                                      w, 16 * kw));
    if (co <= 0 || co % 8 != 0)
        throw DesignError(fmt::format("conv2dk14(): output_channels={} must be a positive multiple of 8", co));
    const std::int64_t tiles = w / kw, pixels = kw * kw;
    const auto i32 = iron::scalar<std::int32_t>();
    std::vector<ArgType> types{iron::tensor<std::uint8_t>({tiles * pixels * 4}),
                               iron::tensor<std::int8_t>({co * pixels * 4}),
                               iron::tensor<std::int8_t>({co * tiles * 8}),
                               i32,
                               i32,
                               i32,
                               i32,
                               i32};
    const std::uint64_t mmul_cycles = arch == model::Arch::AIE2 ? 2 : 1; // 512 MACs at 256 / 512 per cycle
    auto cost = [mmul_cycles](std::span<const KernelArg> a) {
        return kernels::conv2dk14_cycles(static_cast<std::int32_t>(a[3].ivalue), static_cast<std::int32_t>(a[5].ivalue),
                                         static_cast<std::int32_t>(a[6].ivalue), mmul_cycles);
    };
    // the buffers are sized for the factory's width, channels and kernel: the call must say the same
    auto same = [w, co, kw](std::span<const KernelArg> a) {
        if (a[3].ivalue != w || a[5].ivalue != co || a[6].ivalue != kw)
            throw std::invalid_argument(fmt::format("conv2dk14_i8: input_width={}, output_channels={} and "
                                                    "kernel_width={} must be the factory's {}, {} and {}",
                                                    a[3].ivalue, a[5].ivalue, a[6].ivalue, w, co, kw));
    };
    (void)ci; // a pixel is 4 values (RGBA), as upstream
    if (ks == KernelSet::aie)
        return detail::checked_kernel("conv2dk14_i8", &aie_kernels::conv2dk14_i8, true, std::move(types), cost, same);
    return detail::checked_kernel("conv2dk14_i8", &kernels::conv2dk14_i8, false, std::move(types), cost, same);
}

Kernel bn_conv2dk3_dw(std::int64_t w, std::int64_t ci, std::int64_t co, std::int64_t stride, KernelSet ks) {
    if (stride != 1 && stride != 2) // conv.py:383-384
        throw DesignError(fmt::format("bn_conv2dk3_dw(): stride must be 1 or 2, got {}", stride));
    if (ci <= 0 || ci % 8 != 0 || co <= 0 || co % 8 != 0 || co > ci)
        throw DesignError(fmt::format("bn_conv2dk3_dw(): input_channels={} and output_channels={} must be positive "
                                      "multiples of 8, output_channels at most input_channels (the depthwise kernel "
                                      "reads input channel c for output channel c)",
                                      ci, co));
    if (w <= 0 || w > 256 || w % stride != 0)
        throw DesignError(fmt::format("bn_conv2dk3_dw(): input_width={} must be in 1..256 (npusim's build) and a "
                                      "multiple of the stride {}",
                                      w, stride));
    const auto i32 = iron::scalar<std::int32_t>();
    const auto line = iron::tensor<std::uint8_t>({w * ci});
    std::vector<ArgType> types{line,
                               line,
                               line,
                               iron::tensor<std::int8_t>({9 * ci}),
                               iron::tensor<std::uint8_t>({w / stride * co}),
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32};
    auto cost = [stride](std::span<const KernelArg> a) {
        return kernels::conv2dk3_dw_cycles(static_cast<std::int32_t>(a[5].ivalue / stride),
                                           static_cast<std::int32_t>(a[7].ivalue),
                                           static_cast<std::int32_t>(a[10].ivalue));
    };
    const std::string name = fmt::format("conv2dk3_dw_stride{}_relu_ui8_ui8", stride);
    // input_channels is not checked: upstream's conv2dk3_ui8_scalar / conv2dk3_stride2_ui8_scalar
    // (bn_conv2dk3_dw.cc:164-250, :252-361) never read it (their channel loop runs to
    // output_channels / 8), and mobilenet's fused pairs pass 1 (regular.py:535, :566)
    auto same = [w, co, name](std::span<const KernelArg> a) {
        if (a[5].ivalue != w || a[7].ivalue != co)
            throw std::invalid_argument(fmt::format("{}: input_width={} and output_channels={} must be the factory's "
                                                    "{} and {} (input_channels is not read)",
                                                    name, a[5].ivalue, a[7].ivalue, w, co));
    };
    if (ks == KernelSet::aie)
        return detail::checked_kernel(name,
                              stride == 1 ? &aie_kernels::conv2dk3_dw_stride1_relu_ui8_ui8
                                          : &aie_kernels::conv2dk3_dw_stride2_relu_ui8_ui8,
                              true, std::move(types), cost, same);
    return detail::checked_kernel(name, stride == 1 ? &kernels::conv2dk3_dw_stride1_u8 : &kernels::conv2dk3_dw_stride2_u8,
                          false, std::move(types), cost, same);
}

Kernel bn_conv2dk3(std::int64_t w, std::int64_t ci, std::int64_t co, KernelSet ks) {
    require_k3_shape("bn_conv2dk3", ci, co);
    if (w <= 0 || w > 256 || w % 4 != 0)
        throw DesignError(fmt::format("bn_conv2dk3(): input_width={} must be a multiple of 4 in 4..256 (npusim's "
                                      "build walks 4-pixel groups of a row of at most 256)",
                                      w));
    const auto i32 = iron::scalar<std::int32_t>();
    const auto line = iron::tensor<std::int8_t>({w * ci});
    std::vector<ArgType> types{line,
                               line,
                               line,
                               iron::tensor<std::int8_t>({9 * ci * co}),
                               iron::tensor<std::uint8_t>({w / 2 * co}),
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32};
    auto cost = [](std::span<const KernelArg> a) {
        return kernels::conv2dk3_stride2_cycles(
            static_cast<std::int32_t>(a[5].ivalue / 2), static_cast<std::int32_t>(a[6].ivalue),
            static_cast<std::int32_t>(a[7].ivalue), static_cast<std::int32_t>(a[10].ivalue));
    };
    // the weights hold exactly co output channels: the call's channel_offset must be 0
    auto same = [w, ci, co](std::span<const KernelArg> a) {
        if (a[5].ivalue != w || a[6].ivalue != ci || a[7].ivalue != co || a[12].ivalue != 0)
            throw std::invalid_argument(fmt::format("conv2dk3_stride2_i8: input_width={}, input_channels={}, "
                                                    "output_channels={} and channel_offset={} must be the factory's "
                                                    "{}, {}, {} and 0 (its weights hold {} output channels)",
                                                    a[5].ivalue, a[6].ivalue, a[7].ivalue, a[12].ivalue, w, ci, co,
                                                    co));
    };
    if (ks == KernelSet::aie)
        return detail::checked_kernel("conv2dk3_stride2_i8", &aie_kernels::conv2dk3_stride2_i8, true, std::move(types), cost,
                              same);
    return detail::checked_kernel("conv2dk3_stride2_i8", &kernels::conv2dk3_stride2_even, false, std::move(types), cost, same);
}

} // namespace npusim::harness::iron_kernels

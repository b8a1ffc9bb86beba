// The built-in library's convolutions (KernelLibraryConv.hpp): mlir-aie python/iron/kernels/conv.py.
#include "npusim/harness/KernelLibraryConv.hpp"

#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/conv2d.hpp"
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

void require_conv_shape(const char* factory, std::int64_t w, std::int64_t ci, std::int64_t co) {
    for (const auto& [name, v, of] :
         {std::tuple{"input_width", w, 4}, std::tuple{"input_channels", ci, 8}, std::tuple{"output_channels", co, 8}})
        if (v <= 0 || v % of != 0)
            throw DesignError(fmt::format("{}(): {}={} must be a positive multiple of {} (the kernel works on "
                                          "8-channel groups of 4 pixels)",
                                          factory, name, v, of));
}

// the cost of the row the call names (its width and channel arguments): the same mmul walk for
// every 1x1 convolution (kernels::conv2dk1_i8_cycles, [est])
std::uint64_t conv1x1_cost(std::span<const KernelArg> a) {
    return kernels::conv2dk1_i8_cycles(static_cast<std::int32_t>(a[3].ivalue), static_cast<std::int32_t>(a[4].ivalue),
                                       static_cast<std::int32_t>(a[5].ivalue));
}

// A kernel whose every call first runs `pre` on its arguments (a check the argument types cannot
// express), then `fn`; with `aie`, under the calling worker's core modes (AieKernel.hpp).
template <class R, class... P>
Kernel checked_kernel(std::string name, R (*fn)(P...), bool aie, std::vector<ArgType> types, iron::CostModel cost,
                      std::function<void(std::span<const KernelArg>)> pre) {
    iron::Kernel::Invoker inner = [fn, pre = std::move(pre)](std::span<const KernelArg> a) {
        pre(a);
        [&]<std::size_t... I>(std::index_sequence<I...>) { fn(iron::detail::convert_kernel_arg<P>(a[I])...); }
        (std::index_sequence_for<P...>{});
    };
    if (aie) inner = with_aie_core_modes(std::move(inner), make_aie_core_modes());
    return Kernel(std::move(name), std::move(inner), std::move(types), std::move(cost),
                  std::vector<std::size_t>{iron::detail::pointee_bytes<P>()...});
}

} // namespace

Kernel conv2dk1_i8(std::int64_t w, std::int64_t ci, std::int64_t co, KernelSet ks) {
    require_conv_shape("conv2dk1_i8", w, ci, co);
    const auto i32 = iron::scalar<std::int32_t>();
    std::vector<ArgType> types{iron::tensor<std::int8_t>({w * ci}),
                               iron::tensor<std::int8_t>({ci * co}),
                               iron::tensor<std::int8_t>({w * co}),
                               i32,
                               i32,
                               i32,
                               i32};
    if (ks == KernelSet::aie)
        return aie_kernel("conv2dk1_i8", &aie_kernels::conv2dk1_i8, std::move(types), &conv1x1_cost);
    return Kernel("conv2dk1_i8", &kernels::conv2dk1_i8, std::move(types), &conv1x1_cost);
}

Kernel conv2dk1(std::int64_t w, std::int64_t ci, std::int64_t co, DType act, KernelSet ks) {
    if (act != DType::i8 && act != DType::u8) // _common.py:115-119
        throw DesignError(
            fmt::format("conv2dk1(): act_dtype must be np.int8 or np.uint8, got {}", model::dtype_name(act)));
    require_conv_shape("conv2dk1", w, ci, co);
    const auto i32 = iron::scalar<std::int32_t>();
    std::vector<ArgType> types{iron::TensorType{act, {w * ci}},
                               iron::tensor<std::int8_t>({ci * co}),
                               iron::tensor<std::uint8_t>({w * co}),
                               i32,
                               i32,
                               i32,
                               i32};
    using RefI8 = void (*)(const std::int8_t*, const std::int8_t*, std::uint8_t*, std::int32_t, std::int32_t,
                           std::int32_t, std::int32_t);
    using RefU8 = void (*)(const std::uint8_t*, const std::int8_t*, std::uint8_t*, std::int32_t, std::int32_t,
                           std::int32_t, std::int32_t);
    if (act == DType::i8) {
        if (ks == KernelSet::aie)
            return aie_kernel("conv2dk1_i8", &aie_kernels::conv2dk1_i8_u8, std::move(types), &conv1x1_cost);
        return Kernel("conv2dk1_i8", static_cast<RefI8>(&kernels::conv2dk1_u8), std::move(types), &conv1x1_cost);
    }
    if (ks == KernelSet::aie)
        return aie_kernel("conv2dk1_ui8", &aie_kernels::conv2dk1_ui8_u8, std::move(types), &conv1x1_cost);
    return Kernel("conv2dk1_ui8", static_cast<RefU8>(&kernels::conv2dk1_u8), std::move(types), &conv1x1_cost);
}

Kernel conv2dk1_skip(std::int64_t w, std::int64_t ci, std::int64_t co, DType act, KernelSet ks) {
    if (act != DType::i8 && act != DType::u8) // _common.py:115-119
        throw DesignError(
            fmt::format("conv2dk1_skip(): act_dtype must be np.int8 or np.uint8, got {}", model::dtype_name(act)));
    require_conv_shape("conv2dk1_skip", w, ci, co);
    if (ci % 16 != 0)
        throw DesignError(fmt::format("conv2dk1_skip(): input_channels={} must be a multiple of 16 (two halves of "
                                      "8-channel groups)",
                                      ci));
    const auto i32 = iron::scalar<std::int32_t>();
    const auto half = iron::tensor<std::uint8_t>({w * ci / 2});
    std::vector<ArgType> types{half,
                               half,
                               iron::tensor<std::int8_t>({ci * co}),
                               iron::tensor<std::uint8_t>({w * co}),
                               iron::TensorType{act, {w * co}},
                               i32,
                               i32,
                               i32,
                               i32,
                               i32};
    auto cost = [](std::span<const KernelArg> a) {
        return kernels::conv2dk1_skip_cycles(static_cast<std::int32_t>(a[5].ivalue),
                                             static_cast<std::int32_t>(a[6].ivalue),
                                             static_cast<std::int32_t>(a[7].ivalue));
    };
    using U8 = std::uint8_t;
    using RefI8 = void (*)(const U8*, const U8*, const std::int8_t*, U8*, const std::int8_t*, std::int32_t,
                           std::int32_t, std::int32_t, std::int32_t, std::int32_t);
    using RefU8 = void (*)(const U8*, const U8*, const std::int8_t*, U8*, const U8*, std::int32_t, std::int32_t,
                           std::int32_t, std::int32_t, std::int32_t);
    if (act == DType::i8) {
        if (ks == KernelSet::aie)
            return aie_kernel("conv2dk1_skip_i8", &aie_kernels::conv2dk1_skip_i8, std::move(types), cost);
        return Kernel("conv2dk1_skip_i8", static_cast<RefI8>(&kernels::conv2dk1_skip_u8), std::move(types), cost);
    }
    if (ks == KernelSet::aie)
        return aie_kernel("conv2dk1_skip_ui8", &aie_kernels::conv2dk1_skip_ui8, std::move(types), cost);
    return Kernel("conv2dk1_skip_ui8", static_cast<RefU8>(&kernels::conv2dk1_skip_u8), std::move(types), cost);
}

Kernel conv2dk1_skip_init(std::int64_t w, std::int64_t ci, std::int64_t co, DType act, std::int64_t cs, KernelSet ks) {
    if (act != DType::i8 && act != DType::u8) // _common.py:115-119
        throw DesignError(
            fmt::format("conv2dk1_skip_init(): act_dtype must be np.int8 or np.uint8, got {}", model::dtype_name(act)));
    if (act == DType::u8)
        throw DesignError(
            "conv2dk1_skip_init(): act_dtype=uint8 builds conv2dk1_skip_init_ui8, whose body is commented "
            "out upstream (aie2/conv2dk1_skip_init.cc:912-919: it computes nothing); not in npusim's "
            "kernel library (int8 is)");
    if (cs < 0) cs = ci; // skip_input_channels=None
    require_conv_shape("conv2dk1_skip_init", w, ci, co);
    if (ci % 16 != 0 || cs <= 0 || cs % 8 != 0)
        throw DesignError(fmt::format("conv2dk1_skip_init(): input_channels={} must be a multiple of 16 and "
                                      "skip_input_channels={} a positive multiple of 8",
                                      ci, cs));
    const auto i32 = iron::scalar<std::int32_t>();
    const auto half = iron::tensor<std::uint8_t>({w * ci / 2});
    std::vector<ArgType> types{half,
                               half,
                               iron::tensor<std::int8_t>({(ci + cs) * co}),
                               iron::tensor<std::uint8_t>({w * co}),
                               iron::tensor<std::int8_t>({w * cs}),
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32};
    // [est] the mmul walk over both convolutions' channels, plus a block's skip add and SRS
    auto cost = [](std::span<const KernelArg> a) {
        const auto ch = static_cast<std::int32_t>(a[6].ivalue + a[8].ivalue);
        return kernels::conv2dk1_skip_cycles(static_cast<std::int32_t>(a[5].ivalue), ch,
                                             static_cast<std::int32_t>(a[7].ivalue));
    };
    if (ks == KernelSet::aie)
        return aie_kernel("conv2dk1_skip_init_i8", &aie_kernels::conv2dk1_skip_init_i8, std::move(types), cost);
    return Kernel("conv2dk1_skip_init_i8", &kernels::conv2dk1_skip_init_u8, std::move(types), cost);
}

namespace {

std::uint64_t conv1x1_scalar_cost(std::span<const KernelArg> a) {
    return kernels::conv2dk1_scalar_cycles(static_cast<std::int32_t>(a[3].ivalue),
                                           static_cast<std::int32_t>(a[4].ivalue),
                                           static_cast<std::int32_t>(a[5].ivalue));
}

template <class TIn, class TOut>
Kernel bn_conv1x1(const char* factory, const char* symbol,
                  void (*aie)(const TIn*, const std::int8_t*, TOut*, std::int32_t, std::int32_t, std::int32_t,
                              std::int32_t),
                  std::int64_t w, std::int64_t ci, std::int64_t co, KernelSet ks) {
    require_conv_shape(factory, w, ci, co);
    const auto i32 = iron::scalar<std::int32_t>();
    std::vector<ArgType> types{iron::tensor<TIn>({w * ci}),
                               iron::tensor<std::int8_t>({ci * co}),
                               iron::tensor<TOut>({w * co}),
                               i32,
                               i32,
                               i32,
                               i32};
    if (ks == KernelSet::aie) return aie_kernel(symbol, aie, std::move(types), &conv1x1_scalar_cost);
    using Ref = void (*)(const TIn*, const std::int8_t*, TOut*, std::int32_t, std::int32_t, std::int32_t, std::int32_t);
    return Kernel(symbol, static_cast<Ref>(&kernels::conv2dk1_even), std::move(types), &conv1x1_scalar_cost);
}

} // namespace

Kernel bn_conv2dk1_relu(std::int64_t w, std::int64_t ci, std::int64_t co, KernelSet ks) {
    return bn_conv1x1<std::int8_t, std::uint8_t>("bn_conv2dk1_relu", "conv2dk1_relu_i8_ui8",
                                                 &aie_kernels::conv2dk1_relu_i8_ui8, w, ci, co, ks);
}

Kernel bn_conv2dk1_skip(std::int64_t w, std::int64_t ci, std::int64_t co, DType skip, KernelSet ks) {
    if (skip != DType::u8 && skip != DType::i8) // conv.py:346-349
        throw DesignError(
            fmt::format("bn_conv2dk1_skip(): skip_dtype must be np.uint8 or np.int8, got {}", model::dtype_name(skip)));
    require_conv_shape("bn_conv2dk1_skip", w, ci, co);
    const auto i32 = iron::scalar<std::int32_t>();
    std::vector<ArgType> types{iron::tensor<std::uint8_t>({w * ci}),
                               iron::tensor<std::int8_t>({ci * co}),
                               iron::tensor<std::int8_t>({w * co}),
                               iron::TensorType{skip, {w * co}},
                               i32,
                               i32,
                               i32,
                               i32,
                               i32};
    auto cost = [](std::span<const KernelArg> a) { // [est] scalar, as the other bottleneck loops
        return kernels::conv2dk1_scalar_cycles(static_cast<std::int32_t>(a[4].ivalue),
                                               static_cast<std::int32_t>(a[5].ivalue),
                                               static_cast<std::int32_t>(a[6].ivalue));
    };
    using U8 = std::uint8_t;
    using I8 = std::int8_t;
    using RefI8 = void (*)(const U8*, const I8*, I8*, const I8*, std::int32_t, std::int32_t, std::int32_t, std::int32_t,
                           std::int32_t);
    using RefU8 = void (*)(const U8*, const I8*, I8*, const U8*, std::int32_t, std::int32_t, std::int32_t, std::int32_t,
                           std::int32_t);
    if (skip == DType::i8) {
        if (ks == KernelSet::aie)
            return aie_kernel("conv2dk1_skip_ui8_i8_i8", &aie_kernels::conv2dk1_skip_ui8_i8_i8, std::move(types), cost);
        return Kernel("conv2dk1_skip_ui8_i8_i8", static_cast<RefI8>(&kernels::conv2dk1_skip_even), std::move(types),
                      cost);
    }
    if (ks == KernelSet::aie)
        return aie_kernel("conv2dk1_skip_ui8_ui8_i8", &aie_kernels::conv2dk1_skip_ui8_ui8_i8, std::move(types), cost);
    return Kernel("conv2dk1_skip_ui8_ui8_i8", static_cast<RefU8>(&kernels::conv2dk1_skip_even), std::move(types), cost);
}

Kernel bn_conv2dk1_i8(std::int64_t w, std::int64_t ci, std::int64_t co, KernelSet ks) {
    return bn_conv1x1<std::uint8_t, std::int8_t>("bn_conv2dk1_i8", "conv2dk1_ui8_i8", &aie_kernels::conv2dk1_ui8_i8, w,
                                                 ci, co, ks);
}

} // namespace npusim::harness::iron_kernels

namespace npusim::harness::iron_kernels {

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
    require_conv_shape("conv2dk3", w, ci, co);
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
        return checked_kernel("conv2dk3_ui8", &aie_kernels::conv2dk3_ui8, true, std::move(types), cost, fits);
    return checked_kernel("conv2dk3_ui8", &kernels::conv2dk3_u8, false, std::move(types), cost, fits);
}

} // namespace npusim::harness::iron_kernels

namespace npusim::harness::iron_kernels {

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
        return checked_kernel("conv2dk14_i8", &aie_kernels::conv2dk14_i8, true, std::move(types), cost, same);
    return checked_kernel("conv2dk14_i8", &kernels::conv2dk14_i8, false, std::move(types), cost, same);
}

} // namespace npusim::harness::iron_kernels

namespace npusim::harness::iron_kernels {

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
    auto same = [w, ci, co, name](std::span<const KernelArg> a) {
        if (a[5].ivalue != w || a[6].ivalue != ci || a[7].ivalue != co)
            throw std::invalid_argument(fmt::format("{}: input_width={}, input_channels={} and output_channels={} "
                                                    "must be the factory's {}, {} and {}",
                                                    name, a[5].ivalue, a[6].ivalue, a[7].ivalue, w, ci, co));
    };
    if (ks == KernelSet::aie)
        return checked_kernel(name,
                              stride == 1 ? &aie_kernels::conv2dk3_dw_stride1_relu_ui8_ui8
                                          : &aie_kernels::conv2dk3_dw_stride2_relu_ui8_ui8,
                              true, std::move(types), cost, same);
    return checked_kernel(name, stride == 1 ? &kernels::conv2dk3_dw_stride1_u8 : &kernels::conv2dk3_dw_stride2_u8,
                          false, std::move(types), cost, same);
}

} // namespace npusim::harness::iron_kernels

// The built-in library's convolutions (KernelLibraryConv.hpp): mlir-aie python/iron/kernels/conv.py.
#include "npusim/harness/KernelLibraryConv.hpp"

#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/conv2d.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>

#include <fmt/format.h>


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

// The bottleneck 1x1 builds IRON makes (bn_conv2dk1_relu.cc -DREGULAR -DINT8_ACT :1289-1325,
// bn_conv2dk1_i8.cc -DREGULAR -DSCALAR :671-705, bn_conv2dk1_skip.cc -DREGULAR -DSCALAR :657-801 at
// mlir-aie 3ca0193) are plain C loops over every pixel x < input_width, so any positive width is
// computed; their channel loops run to input_channels / 8 and output_channels / 8, so channels past a
// multiple of 8 would be neither read nor written.
void require_bn_conv_shape(const char* factory, std::int64_t w, std::int64_t ci, std::int64_t co) {
    if (w <= 0) throw DesignError(fmt::format("{}(): input_width={} must be positive", factory, w));
    for (const auto& [name, v] : {std::pair{"input_channels", ci}, std::pair{"output_channels", co}})
        if (v <= 0 || v % 8 != 0)
            throw DesignError(fmt::format("{}(): {}={} must be a positive multiple of 8 (upstream's loops run over "
                                          "{} / 8 groups of 8 channels and would skip the rest)",
                                          factory, name, v, name));
}

// the cost of the row the call names (its width and channel arguments): the same mmul walk for
// every 1x1 convolution (kernels::conv2dk1_i8_cycles, [est])
std::uint64_t conv1x1_cost(std::span<const KernelArg> a) {
    return kernels::conv2dk1_i8_cycles(static_cast<std::int32_t>(a[3].ivalue), static_cast<std::int32_t>(a[4].ivalue),
                                       static_cast<std::int32_t>(a[5].ivalue));
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
    require_bn_conv_shape(factory, w, ci, co);
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
    require_bn_conv_shape("bn_conv2dk1_skip", w, ci, co);
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

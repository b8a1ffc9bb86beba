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

Kernel conv2dk1_i8(std::int64_t w, std::int64_t ci, std::int64_t co, KernelSet ks) {
    for (const auto& [name, v, of] : {std::tuple{"input_width", w, 4}, std::tuple{"input_channels", ci, 8},
                                      std::tuple{"output_channels", co, 8}})
        if (v <= 0 || v % of != 0)
            throw DesignError(fmt::format("conv2dk1_i8(): {}={} must be a positive multiple of {} (the kernel works "
                                          "on 8-channel groups of 4 pixels)",
                                          name, v, of));
    const auto i32 = iron::scalar<std::int32_t>();
    std::vector<ArgType> types{iron::tensor<std::int8_t>({w * ci}), iron::tensor<std::int8_t>({ci * co}),
                               iron::tensor<std::int8_t>({w * co}), i32, i32, i32, i32};
    // the cost of the row the call names (its width and channel arguments)
    auto cost = [](std::span<const KernelArg> a) {
        return kernels::conv2dk1_i8_cycles(static_cast<std::int32_t>(a[3].ivalue), static_cast<std::int32_t>(a[4].ivalue),
                                           static_cast<std::int32_t>(a[5].ivalue));
    };
    if (ks == KernelSet::aie) return aie_kernel("conv2dk1_i8", &aie_kernels::conv2dk1_i8, std::move(types), cost);
    return Kernel("conv2dk1_i8", &kernels::conv2dk1_i8, std::move(types), cost);
}

} // namespace npusim::harness::iron_kernels

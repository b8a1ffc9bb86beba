// The built-in library's vision kernels (KernelLibraryVision.hpp): mlir-aie python/iron/kernels/vision.py
// (_color_convert_kernel, _bitwise_kernel, threshold, filter2d, add_weighted) and _common.py
// (_dtype_to_bit_width); the same bindings as the vision designs (examples/src/EdgeDetect.cpp,
// ColorDetect.cpp).
#include "npusim/harness/KernelLibraryVision.hpp"

#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/vision.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>

#include <fmt/format.h>

namespace npusim::harness::iron_kernels {

using iron::ArgType;
using iron::Kernel;
using iron::KernelArg;

namespace {

// _dtype_to_bit_width's ValueError for other types; npusim's builds are the uint8 ones
void require_u8(const std::string& factory, DType dtype) {
    if (dtype != DType::u8 && dtype != DType::i16 && dtype != DType::i32)
        throw DesignError(fmt::format("{}: unsupported dtype {}. Use np.uint8, np.int16, or np.int32.", factory,
                                      model::dtype_name(dtype)));
    if (dtype != DType::u8)
        throw DesignError(fmt::format("{}(): dtype {} (BIT_WIDTH={}) is not in npusim's kernel library (uint8 is)",
                                      factory, model::dtype_name(dtype), dtype == DType::i16 ? 16 : 32));
}

void require_width(const std::string& factory, std::int64_t w) {
    if (w < 1) throw DesignError(fmt::format("{}() line_width must be >= 1, got {}", factory, w));
}

iron::CostModel width_cost(std::uint64_t (*f)(std::int32_t), std::size_t arg) {
    return [f, arg](std::span<const KernelArg> a) { return f(static_cast<std::int32_t>(a[arg].ivalue)); };
}

template <class R, class A>
Kernel bind_line(KernelSet ks, const std::string& name, R ref, A aie, std::vector<ArgType> types, iron::CostModel cost) {
    if (ks == KernelSet::aie) return aie_kernel(name, aie, std::move(types), std::move(cost));
    return Kernel(name, ref, std::move(types), std::move(cost));
}

iron::TensorType bytes(std::int64_t n) { return iron::tensor<std::uint8_t>({n}); }

} // namespace

Kernel rgba2hue(std::int64_t w, KernelSet) {
    require_width("rgba2hue", w);
    return Kernel("rgba2hueLine", &kernels::rgba2hue_line, {bytes(4 * w), bytes(w), iron::scalar<std::int32_t>()},
                  width_cost(&kernels::rgba2hue_line_cycles, 2));
}

Kernel threshold(std::int64_t w, DType dtype, KernelSet ks) {
    require_u8("threshold", dtype);
    require_width("threshold", w);
    return bind_line(ks, "thresholdLine", &kernels::threshold_line, &aie_kernels::thresholdLine,
                     {bytes(w), bytes(w), iron::scalar<std::int32_t>(), iron::scalar<std::int16_t>(),
                      iron::scalar<std::int16_t>(), iron::scalar<std::int8_t>()},
                     width_cost(&kernels::threshold_line_cycles, 2));
}

Kernel bitwise_or(std::int64_t w, DType dtype, KernelSet ks) {
    require_u8("bitwiseOR", dtype);
    require_width("bitwise_or", w);
    return bind_line(ks, "bitwiseORLine", &kernels::bitwise_or_line, &aie_kernels::bitwiseORLine,
                     {bytes(w), bytes(w), bytes(w), iron::scalar<std::int32_t>()},
                     width_cost(&kernels::bitwise_line_cycles, 3));
}

Kernel bitwise_and(std::int64_t w, DType dtype, KernelSet ks) {
    require_u8("bitwiseAND", dtype);
    require_width("bitwise_and", w);
    return bind_line(ks, "bitwiseANDLine", &kernels::bitwise_and_line, &aie_kernels::bitwiseANDLine,
                     {bytes(w), bytes(w), bytes(w), iron::scalar<std::int32_t>()},
                     width_cost(&kernels::bitwise_line_cycles, 3));
}

Kernel gray2rgba(std::int64_t w, KernelSet ks) {
    require_width("gray2rgba", w);
    return bind_line(ks, "gray2rgbaLine", &kernels::gray2rgba_line, &aie_kernels::gray2rgbaLine,
                     {bytes(w), bytes(4 * w), iron::scalar<std::int32_t>()},
                     width_cost(&kernels::gray2rgba_line_cycles, 2));
}

Kernel rgba2gray(std::int64_t w, KernelSet ks) {
    require_width("rgba2gray", w);
    return bind_line(ks, "rgba2grayLine", &kernels::rgba2gray_line, &aie_kernels::rgba2grayLine,
                     {bytes(4 * w), bytes(w), iron::scalar<std::int32_t>()},
                     width_cost(&kernels::rgba2gray_line_cycles, 2));
}

Kernel filter2d(std::int64_t w, KernelSet ks) {
    require_width("filter2d", w);
    return bind_line(ks, "filter2dLine", &kernels::filter2d_line, &aie_kernels::filter2dLine,
                     {bytes(w), bytes(w), bytes(w), bytes(w), iron::scalar<std::int32_t>(),
                      iron::tensor<std::int16_t>({3, 3})},
                     width_cost(&kernels::filter2d_line_cycles, 4));
}

Kernel add_weighted(std::int64_t w, DType dtype, KernelSet ks) {
    require_u8("add_weighted", dtype);
    require_width("add_weighted", w);
    return bind_line(ks, "addWeightedLine", &kernels::add_weighted_line, &aie_kernels::addWeightedLine,
                     {bytes(w), bytes(w), bytes(w), iron::scalar<std::int32_t>(), iron::scalar<std::int16_t>(),
                      iron::scalar<std::int16_t>(), iron::scalar<std::int8_t>()},
                     width_cost(&kernels::add_weighted_line_cycles, 3));
}

} // namespace npusim::harness::iron_kernels

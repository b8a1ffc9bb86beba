// The vision kernels of aie.iron.kernels (rgba2gray, rgba2hue, filter2d, threshold, gray2rgba,
// add_weighted, bitwise_or, bitwise_and)
// for Python: the reference kernels and cost models the C++ vision designs bind
// (kernels_ref/include/npusim/kernels/vision.hpp), with IRON's argument types (python/iron/kernels/
// vision.py: u8 lines, i32 widths, i16/i8 scalars, an i16 3 x 3 filter).
#include "Bindings.hpp"

#include "npusim/frontend/Kernel.hpp"
#include "npusim/kernels/vision.hpp"

#include <pybind11/pybind11.h>

namespace npusim::python {

namespace {

std::int32_t width_arg(std::span<const iron::KernelArg> a, std::size_t i) {
    return static_cast<std::int32_t>(a[i].ivalue);
}

iron::Kernel vision_kernel(const std::string& name, std::int64_t line_width) {
    using namespace iron;
    namespace k = npusim::kernels;
    const auto line = tensor<std::uint8_t>({line_width});
    const auto rgba = tensor<std::uint8_t>({line_width * 4});
    const auto i32 = scalar<std::int32_t>(), i16 = scalar<std::int16_t>(), i8 = scalar<std::int8_t>();
    if (name == "rgba2gray")
        return Kernel("rgba2grayLine", &k::rgba2gray_line, {rgba, line, i32},
                      [](std::span<const KernelArg> a) { return k::rgba2gray_line_cycles(width_arg(a, 2)); });
    if (name == "gray2rgba")
        return Kernel("gray2rgbaLine", &k::gray2rgba_line, {line, rgba, i32},
                      [](std::span<const KernelArg> a) { return k::gray2rgba_line_cycles(width_arg(a, 2)); });
    if (name == "filter2d")
        return Kernel("filter2dLine", &k::filter2d_line, {line, line, line, line, i32, tensor<std::int16_t>({3, 3})},
                      [](std::span<const KernelArg> a) { return k::filter2d_line_cycles(width_arg(a, 4)); });
    if (name == "threshold")
        return Kernel("thresholdLine", &k::threshold_line, {line, line, i32, i16, i16, i8},
                      [](std::span<const KernelArg> a) { return k::threshold_line_cycles(width_arg(a, 2)); });
    if (name == "add_weighted")
        return Kernel("addWeightedLine", &k::add_weighted_line, {line, line, line, i32, i16, i16, i8},
                      [](std::span<const KernelArg> a) { return k::add_weighted_line_cycles(width_arg(a, 3)); });
    if (name == "rgba2hue")
        return Kernel("rgba2hueLine", &k::rgba2hue_line, {rgba, line, i32},
                      [](std::span<const KernelArg> a) { return k::rgba2hue_line_cycles(width_arg(a, 2)); });
    if (name == "bitwise_or")
        return Kernel("bitwiseORLine", &k::bitwise_or_line, {line, line, line, i32},
                      [](std::span<const KernelArg> a) { return k::bitwise_line_cycles(width_arg(a, 3)); });
    if (name == "bitwise_and")
        return Kernel("bitwiseANDLine", &k::bitwise_and_line, {line, line, line, i32},
                      [](std::span<const KernelArg> a) { return k::bitwise_line_cycles(width_arg(a, 3)); });
    PyErr_SetString(PyExc_NotImplementedError, ("aie.iron.kernels." + name + ": not in npusim's kernel library").c_str());
    throw py::error_already_set();
}

} // namespace

void bind_vision(py::module_& m) {
    m.def("vision_kernel", &vision_kernel, py::arg("name"), py::arg("line_width"),
          "A vision kernel of aie.iron.kernels for lines of `line_width` pixels (u8).");
}

} // namespace npusim::python

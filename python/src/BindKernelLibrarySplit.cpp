// aie.iron.kernels' split bottleneck stage (harness/KernelLibraryConvSplit.hpp): the depthwise 3x3
// with its output split in two and the input-split cascade pair of the 1x1 projection, reference
// builds (KernelSet::reference) as the rest of the library (BindKernelLibrary.cpp).
#include "Bindings.hpp"

#include "npusim/harness/KernelLibraryConvSplit.hpp"

namespace npusim::python {

void bind_kernel_library_split(py::module_& m) {
    namespace k = harness::iron_kernels;
    constexpr auto ref = harness::KernelSet::reference;
    m.def(
        "bn_conv2dk3_dw_out_split_kernel",
        [](std::int64_t input_width, std::int64_t input_channels, std::int64_t output_split_channels,
           std::int64_t block_index) {
            return k::bn_conv2dk3_dw_out_split(input_width, input_channels, output_split_channels, block_index, ref);
        },
        py::arg("input_width"), py::arg("input_channels"), py::arg("output_split_channels"), py::arg("block_index"),
        "aie.iron.kernels.bn_conv2dk3_dw_out_split (conv.py): bn<block_index>_conv2dk3_ui8_out_split.");
    m.def(
        "bn_conv2dk1_input_split_kernel",
        [](const std::string& half, std::int64_t input_width, std::int64_t input_channels,
           std::int64_t output_channels, std::int64_t weight_count, std::int64_t block_index) {
            if (half == "put")
                return k::bn_conv2dk1_input_split_partial_put_ui8(input_width, input_channels, weight_count,
                                                                  block_index, ref);
            return k::bn_conv2dk1_input_split_partial_skip_get(input_width, input_channels, output_channels,
                                                               weight_count, block_index, ref);
        },
        py::arg("half"), py::arg("input_width"), py::arg("input_channels"), py::arg("output_channels"),
        py::arg("weight_count"), py::arg("block_index"),
        "aie.iron.kernels.bn_conv2dk1_input_split_partial_put_ui8 ('put') / "
        "bn_conv2dk1_input_split_partial_skip_get ('get') (conv.py).");
}

} // namespace npusim::python

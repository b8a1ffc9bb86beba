// npusim's kernel library for Python (aie.iron.kernels): every factory resolves to the harness's
// built-in library (harness/KernelLibrary*.hpp), the one home of each kernel's computation, cost
// model, IRON signature and argument checks; the C++ designs bind the same factories. Kernels are
// the reference builds (KernelSet::reference), as `npusim run` uses by default.
#include "Bindings.hpp"

#include "npusim/harness/KernelLibrary.hpp"
#include "npusim/harness/KernelLibraryConv.hpp"
#include "npusim/harness/KernelLibraryLinalg.hpp"
#include "npusim/harness/KernelLibraryMatvec.hpp"
#include "npusim/harness/KernelLibraryVision.hpp"

namespace npusim::python {

namespace {

namespace k = harness::iron_kernels;
constexpr auto kRef = harness::KernelSet::reference;

model::Arch arch_of(const std::string& arch) { return arch == "aie2" ? model::Arch::AIE2 : model::Arch::AIE2P; }

[[noreturn]] void not_in_library(const std::string& name) {
    PyErr_SetString(PyExc_NotImplementedError,
                    ("aie.iron.kernels." + name + ": not in npusim's kernel library").c_str());
    throw py::error_already_set();
}

iron::Kernel library_kernel(const std::string& name, std::int64_t tile_size, const std::string& dtype, bool vectorized,
                            const std::string& arch) {
    const DType t = dtype_from_name(dtype);
    if (name == "passthrough") return k::passthrough(tile_size, t, kRef);
    if (name == "scale") return k::scale(tile_size, t, vectorized, kRef);
    if (name == "add") return k::add(tile_size, t, vectorized, kRef);
    if (name == "mul") return k::mul(tile_size, t, vectorized, kRef);
    if (name == "relu") return k::relu(tile_size, kRef);
    if (name == "reduce_add") return k::reduce_add(tile_size, t, vectorized, kRef);
    if (name == "reduce_min") return k::reduce_min(tile_size, t, vectorized, kRef);
    if (name == "reduce_max") return k::reduce_max(tile_size, t, vectorized, kRef);
    if (name == "compute_max") return k::compute_max(t, kRef);
    const auto a = arch_of(arch);
    if (name == "bf16_exp") return k::bf16_exp(a, tile_size, kRef);
    if (name == "softmax") return k::softmax(a, tile_size, kRef);
    if (name == "gelu") return k::gelu(a, tile_size, kRef);
    if (name == "silu") return k::silu(a, tile_size, kRef);
    if (name == "swiglu") return k::swiglu(a, tile_size, kRef);
    not_in_library(name);
}

iron::Kernel vision_kernel(const std::string& name, std::int64_t line_width, const std::string& dtype) {
    const DType t = dtype_from_name(dtype);
    if (name == "rgba2gray") return k::rgba2gray(line_width, kRef);
    if (name == "gray2rgba") return k::gray2rgba(line_width, kRef);
    if (name == "filter2d") return k::filter2d(line_width, kRef);
    if (name == "rgba2hue") return k::rgba2hue(line_width, kRef);
    if (name == "threshold") return k::threshold(line_width, t, kRef);
    if (name == "add_weighted") return k::add_weighted(line_width, t, kRef);
    if (name == "bitwise_or") return k::bitwise_or(line_width, t, kRef);
    if (name == "bitwise_and") return k::bitwise_and(line_width, t, kRef);
    not_in_library(name);
}

} // namespace

void bind_kernel_library(py::module_& m) {
    m.def("library_kernel", &library_kernel, py::arg("name"), py::arg("tile_size"), py::arg("dtype"),
          py::arg("vectorized") = true, py::arg("arch") = "aie2p",
          "A kernel of npusim's library (aie.iron.kernels.<name>), bound to the reference kernels.");
    m.def("vision_kernel", &vision_kernel, py::arg("name"), py::arg("line_width"), py::arg("dtype") = "uint8",
          "A vision kernel of aie.iron.kernels (vision.py) for lines of `line_width` pixels.");
    m.def(
        "mm_kernels",
        [](std::int64_t dim_m, std::int64_t dim_k, std::int64_t dim_n, const std::string& in, const std::string& out,
           bool vectorized, bool b_col_maj, bool c_col_maj, const std::string& arch, bool emulate) {
            const auto a = arch_of(arch);
            const DType ti = dtype_from_name(in), to = dtype_from_name(out);
            const auto d = k::mm_mac_dims(a, ti, emulate);
            return py::make_tuple(
                k::mm(a, dim_m, dim_k, dim_n, ti, to, vectorized, b_col_maj, c_col_maj, kRef, emulate),
                k::mm_zero(dim_m, dim_n, to, kRef), py::make_tuple(d.r, d.s, d.t));
        },
        py::arg("dim_m"), py::arg("dim_k"), py::arg("dim_n"), py::arg("input_dtype"), py::arg("output_dtype"),
        py::arg("vectorized"), py::arg("b_col_maj"), py::arg("c_col_maj"), py::arg("arch"),
        py::arg("emulate_bf16_mmul_with_bfp16") = false,
        "aie.iron.kernels.mm: (matmul, zero, (r, s, t)) for an m x k by k x n block on `arch`.");
    m.def(
        "mv_kernels",
        [](std::int64_t dim_m, std::int64_t dim_k, const std::string& in, const std::string& out, bool vectorized) {
            return py::make_tuple(k::mv(dim_m, dim_k, dtype_from_name(in), dtype_from_name(out), vectorized, kRef),
                                  k::mv_zero(dim_m, vectorized, kRef));
        },
        py::arg("dim_m"), py::arg("dim_k"), py::arg("input_dtype"), py::arg("output_dtype"), py::arg("vectorized"),
        "aie.iron.kernels.mv: (matvec, zero).");
    m.def(
        "cascade_mm_kernels",
        [](std::int64_t dim_m, std::int64_t dim_k, std::int64_t dim_n, const std::string& in, const std::string& out) {
            auto c = k::cascade_mm(dim_m, dim_k, dim_n, dtype_from_name(in), dtype_from_name(out), kRef);
            return py::make_tuple(c.get_only, c.put_only, c.put_get, c.zero);
        },
        py::arg("dim_m"), py::arg("dim_k"), py::arg("dim_n"), py::arg("input_dtype"), py::arg("output_dtype"),
        "aie.iron.kernels.cascade_mm: (get_only, put_only, put_get, zero).");
    m.def(
        "conv_kernel",
        [](const std::string& name, std::int64_t input_width, std::int64_t input_channels, std::int64_t output_channels,
           const std::string& act_dtype, std::int64_t skip_input_channels) {
            if (name == "conv2dk1_i8") return k::conv2dk1_i8(input_width, input_channels, output_channels, kRef);
            if (name == "conv2dk1")
                return k::conv2dk1(input_width, input_channels, output_channels, dtype_from_name(act_dtype), kRef);
            if (name == "bn_conv2dk1_relu") return k::bn_conv2dk1_relu(input_width, input_channels, output_channels, kRef);
            if (name == "bn_conv2dk1_i8") return k::bn_conv2dk1_i8(input_width, input_channels, output_channels, kRef);
            if (name == "bn_conv2dk1_skip")
                return k::bn_conv2dk1_skip(input_width, input_channels, output_channels, dtype_from_name(act_dtype), kRef);
            if (name == "conv2dk1_skip")
                return k::conv2dk1_skip(input_width, input_channels, output_channels, dtype_from_name(act_dtype), kRef);
            if (name == "conv2dk1_skip_init")
                return k::conv2dk1_skip_init(input_width, input_channels, output_channels, dtype_from_name(act_dtype),
                                             skip_input_channels, kRef);
            not_in_library(name);
        },
        py::arg("name"), py::arg("input_width"), py::arg("input_channels"), py::arg("output_channels"),
        py::arg("act_dtype") = "int8", py::arg("skip_input_channels") = -1,
        "A convolution kernel of aie.iron.kernels (conv.py).");
    m.def(
        "conv2dk3_kernel",
        [](std::int64_t input_width, std::int64_t input_channels, std::int64_t output_channels,
           const std::string& act_dtype, std::int64_t weight_output_channels) {
            return k::conv2dk3(input_width, input_channels, output_channels, dtype_from_name(act_dtype),
                               weight_output_channels, kRef);
        },
        py::arg("input_width"), py::arg("input_channels"), py::arg("output_channels"), py::arg("act_dtype"),
        py::arg("weight_output_channels") = -1, "aie.iron.kernels.conv2dk3 (conv.py): conv2dk3_ui8.");
    m.def(
        "conv2dk14_kernel",
        [](std::int64_t input_width, std::int64_t input_channels, std::int64_t output_channels, std::int64_t kernel_width,
           const std::string& arch) {
            return k::conv2dk14(input_width, input_channels, output_channels, kernel_width, arch_of(arch), kRef);
        },
        py::arg("input_width"), py::arg("input_channels"), py::arg("output_channels"), py::arg("kernel_width"),
        py::arg("arch"), "aie.iron.kernels.conv2dk14 (conv.py): conv2dk14_i8, its cost for `arch`.");
    m.def(
        "bn_conv2dk3_dw_kernel",
        [](std::int64_t input_width, std::int64_t input_channels, std::int64_t output_channels, std::int64_t stride) {
            return k::bn_conv2dk3_dw(input_width, input_channels, output_channels, stride, kRef);
        },
        py::arg("input_width"), py::arg("input_channels"), py::arg("output_channels"), py::arg("stride"),
        "aie.iron.kernels.bn_conv2dk3_dw (conv.py): conv2dk3_dw_stride{1,2}_relu_ui8_ui8.");
    m.def(
        "bn_conv2dk3_kernel",
        [](std::int64_t input_width, std::int64_t input_channels, std::int64_t output_channels) {
            return k::bn_conv2dk3(input_width, input_channels, output_channels, kRef);
        },
        py::arg("input_width"), py::arg("input_channels"), py::arg("output_channels"),
        "aie.iron.kernels.bn_conv2dk3 (conv.py): conv2dk3_stride2_i8.");
    m.def(
        "bn_conv2dk1_partial_kernel",
        [](const std::string& half, std::int64_t input_width, std::int64_t input_channels,
           std::int64_t output_channels, std::int64_t weight_count, std::int64_t block_index) {
            if (half == "put")
                return k::bn_conv2dk1_partial_put_i8(input_width, input_channels, weight_count, block_index, kRef);
            return k::bn_conv2dk1_partial_get_relu_i8(input_width, input_channels, output_channels, weight_count,
                                                      block_index, kRef);
        },
        py::arg("half"), py::arg("input_width"), py::arg("input_channels"), py::arg("output_channels"),
        py::arg("weight_count"), py::arg("block_index"),
        "aie.iron.kernels.bn_conv2dk1_partial_put_i8 ('put') / bn_conv2dk1_partial_get_relu_i8 ('get') (conv.py).");
    m.def(
        "bn_conv2dk1_relu_xy_pool_padded_kernel",
        [](std::int64_t input_width, std::int64_t input_channels, std::int64_t output_channels,
           std::optional<std::int64_t> weight_chunk_count) {
            return k::bn_conv2dk1_relu_xy_pool_padded(input_width, input_channels, output_channels, weight_chunk_count,
                                                      kRef);
        },
        py::arg("input_width"), py::arg("input_channels"), py::arg("output_channels"), py::arg("weight_chunk_count"),
        "aie.iron.kernels.bn_conv2dk1_relu_xy_pool_padded (conv.py): conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8.");
    m.def(
        "bn_fc_relu_ui16_pad_kernel",
        [](std::int64_t input_channels, std::int64_t output_channels, std::optional<std::int64_t> weight_chunk_count) {
            return k::bn_fc_relu_ui16_pad(input_channels, output_channels, weight_chunk_count, kRef);
        },
        py::arg("input_channels"), py::arg("output_channels"), py::arg("weight_chunk_count"),
        "aie.iron.kernels.bn_fc_relu_ui16_pad (conv.py): post_L2_conv2dk1_relu_i16_ui16_pad.");
}

} // namespace npusim::python

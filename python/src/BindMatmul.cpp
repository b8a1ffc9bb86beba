// The matmul kernels of aie.iron.kernels.mm for Python: the same kernel objects (computation and
// cost model) the C++ matmul designs bind (examples/src/MatmulCommon), with IRON's mac_dims.
#include "Bindings.hpp"

#include "MatmulCommon.hpp"
#include "npusim/model/Error.hpp"

namespace npusim::python {

namespace mm = examples::matmul;

void bind_matmul(py::module_& m) {
    m.def(
        "matmul_kernels",
        [](std::int64_t dim_m, std::int64_t dim_k, std::int64_t dim_n, const std::string& in, const std::string& out,
           const std::string& arch) {
            const auto a = arch == "aie2" ? model::Arch::AIE2 : model::Arch::AIE2P;
            // mm.cc builds some (input, output) combinations only: the C++ designs' own check names them.
            auto index = [](const std::vector<std::string>& names, const std::string& dtype) {
                const std::string n(dtype_name(dtype_from_name(dtype)));
                for (std::size_t i = 0; i < names.size(); ++i)
                    if (names[i] == n) return static_cast<std::int64_t>(i);
                throw DesignError("aie.iron.kernels.mm: no mm kernel for dtype " + n);
            };
            const mm::Types ty = mm::dtypes("kernels.mm", {{"dtype_in", index(mm::kDtypeInNames, in)},
                                                           {"dtype_out", index(mm::kDtypeOutNames, out)}});
            const auto d = mm::mac_dims(a, ty.in);
            return py::make_tuple(mm::matmul_kernel(dim_m, dim_k, dim_n, a, ty), mm::zero_kernel(dim_m, dim_n, ty.out),
                                  py::make_tuple(d.r, d.s, d.t));
        },
        py::arg("dim_m"), py::arg("dim_k"), py::arg("dim_n"), py::arg("input_dtype"), py::arg("output_dtype"),
        py::arg("arch"),
        "aie.iron.kernels.mm's kernels: (matmul, zero, (r, s, t)) for an m x k by k x n block on `arch`.");
}

} // namespace npusim::python

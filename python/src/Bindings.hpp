#pragma once
// The binding units of npusim._npusim, one per job (types, dataflow, workers, runtime, program,
// errors), and the conversions they share.
#include "npusim/frontend/TensorType.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

namespace npusim::python {

namespace py = pybind11;

void bind_errors(py::module_& m);
void bind_types(py::module_& m);
void bind_dataflow(py::module_& m);
void bind_workers(py::module_& m);
void bind_runtime(py::module_& m);
void bind_program(py::module_& m);
void bind_taplib(py::module_& m);
void bind_low_level(py::module_& m);
/// npusim.bfloat16's numpy type (BFloat16Dtype.cpp); used where ml_dtypes is not installed.
void bind_bfloat16(py::module_& m);
/// aie.iron.kernels' factories, resolved through the harness kernel library (BindKernelLibrary.cpp).
void bind_kernel_library(py::module_& m);
/// aie.iron.kernels' split bottleneck stage (BindKernelLibrarySplit.cpp).
void bind_kernel_library_split(py::module_& m);
/// Kernel("symbol", "x.o", types): upstream kernel symbols npusim's library implements.
void bind_kernel_symbols(py::module_& m);
/// aie.dialects.aiex's register-level sequence operations (frontend/RawSequence.hpp).
void bind_raw_sequence(py::module_& m);

/// "int32", "uint8", "bfloat16", ... (numpy's dtype names) or npusim's "i32", "bf16": the DType;
/// DesignError naming the type otherwise.
DType dtype_from_name(const std::string& name);

} // namespace npusim::python

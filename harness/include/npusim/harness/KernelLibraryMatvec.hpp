#pragma once
// The matrix-vector and cascade matrix-multiply kernels of the built-in library (mlir-aie python/iron/
// kernels/linalg.py mv and cascade_mm at 3ca0193; aie_kernels/aie2/mv.cc and cascade_mm.cc, which
// IRON's _kernel_source also gives AIE2P through its aie2 fallback, _common.py:61-64). Bound to the
// reference kernels (kernels_ref/matvec.hpp, cascade_matmul.hpp) or, with KernelSet::aie, to the
// AIE-API builds (kernels_ref/aie/mv.cc, cascade_mm.cc). Where IRON raises a ValueError the factory
// throws a DesignError with its text; a build IRON has and npusim's library lacks is a DesignError
// saying so.
#include "npusim/frontend/Kernel.hpp"
#include "npusim/harness/KernelSet.hpp"
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>

namespace npusim::harness::iron_kernels {

/// linalg.py mv(dim_m=32, dim_k=32, input_dtype=int16, output_dtype=int32, vectorized=True):
/// matvec_{vectorized|scalar}_i16_i32(a: i16[m*k], b: i16[k], c: i32[m]), c += A * b. The vectorized
/// build reads A word-transposed (kernels::MatvecLayout), the scalar one row-major.
iron::Kernel mv(std::int64_t dim_m = 32, std::int64_t dim_k = 32, DType input_dtype = DType::i16,
                DType output_dtype = DType::i32, bool vectorized = true, KernelSet ks = KernelSet::reference);
/// mv(...).zero: zero_{vectorized|scalar}_i32(c: i32[m]) of the same build.
iron::Kernel mv_zero(std::int64_t dim_m = 32, bool vectorized = true, KernelSet ks = KernelSet::reference);

/// linalg.py cascade_mm(dim_m=64, dim_k=64, dim_n=64, input_dtype=int16, output_dtype=int16): the
/// three scalar cascade kernels matmul_scalar_cascade_{get_only,put_only,put_get}_<in>_<out>(a: in[m*k],
/// b: in[k*n], c: out[m*n]) and zero_scalar_<out>(c), with mac_dims (1, 1, 1) (linalg.py:34-45: the
/// scalar kernel reads plain row-major blocks). i16 -> i16 / i32; IRON's bf16 combinations are not in
/// npusim's library.
struct CascadeMmKernels {
    iron::Kernel get_only, put_only, put_get, zero;
};
CascadeMmKernels cascade_mm(std::int64_t dim_m = 64, std::int64_t dim_k = 64, std::int64_t dim_n = 64,
                            DType input_dtype = DType::i16, DType output_dtype = DType::i16,
                            KernelSet ks = KernelSet::reference);

} // namespace npusim::harness::iron_kernels

#pragma once
// The cascade matmul kernels of E8 (aie_kernels/aie2/cascade_mm.cc: get_only, put_only, put_get and
// the zero of C), with their cost and work models: one definition for the C++ design
// (MatmulCascade.cpp) and for Python designs that name the kernels' symbols
// (Kernel("matmul_scalar_cascade_get_only_i16_i32", ...), python/src/BindKernelSymbols.cpp).
#include "npusim/frontend/Kernel.hpp"
#include "npusim/harness/KernelSet.hpp"
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>

namespace npusim::examples::cascade {

struct CascadeKernels {
    iron::Kernel get_only, put_only, put_get, zero;
};

/// The kernels for an m x k by k x n block, i16 input, `out` (i16 or i32) output; the kernel set
/// picks the reference kernels or the AIE-API builds.
CascadeKernels kernels(std::int64_t m, std::int64_t k, std::int64_t n, DType out, model::Arch arch,
                       harness::KernelSet ks);

} // namespace npusim::examples::cascade

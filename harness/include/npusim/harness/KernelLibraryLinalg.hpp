#pragma once
// The matrix-multiplication kernels of the built-in library (mlir-aie python/iron/kernels/linalg.py
// mm at 3ca0193, aie_kernels/<gen>/mm.cc): the mmul shapes per generation and input type, mm.cc's
// loop cost, the C += A.B and zero kernels in the blocked layout (reference kernels_ref/matmul.hpp,
// or with KernelSet::aie the AIE-API builds kernels_ref/aie/mm.cc), and IRON's mm factory. The
// matmul designs (examples/src/MatmulCommon) bind the same kernels.
#include "npusim/frontend/Kernel.hpp"
#include "npusim/harness/KernelSet.hpp"
#include "npusim/kernels/bfloat16.hpp"
#include "npusim/kernels/matmul.hpp"
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Error.hpp"

#include <cstdint>
#include <fmt/format.h>

namespace npusim::harness::iron_kernels {

/// An (input, output) element type combination of mm.cc.
struct MmTypes {
    DType in, out;
};

/// (r, s, t) of the mmul the kernels use (linalg.py _MM_MAC_DIMS): AIE2 i8 4x8x8, i16 4x4x4,
/// bf16 4x8x4; AIE2P i8 8x8x8, i16 4x4x8, bf16 4x8x8.
struct MacDims {
    std::int64_t r, s, t;
};
MacDims mac_dims(model::Arch arch, DType in);
/// mm()'s mac_dims with IRON's emulate_bf16_mmul_with_bfp16 (linalg.py l.89-94, l.181-189): (8, 8, 8)
/// when it applies (AIE2P, bf16 inputs), else mac_dims(arch, in) (the flag is ignored, as in IRON).
MacDims mm_mac_dims(model::Arch arch, DType in, bool emulate_bf16_mmul_with_bfp16);

/// The loop structure of mm.cc's kernel for `ty` on `arch` (kernels::mm_cc_loop), its cost model.
kernels::MatmulLoop matmul_loop(model::Arch arch, MmTypes ty);

/// Calls f(A{}, C{}) with the C++ element types of a combination mm.cc builds (i8->i8/i16/i32,
/// i16->i16/i32, bf16->bf16/f32); a DesignError for any other.
template <class F>
void with_mm_types(MmTypes ty, F&& f) {
    using i8 = std::int8_t;
    using i16 = std::int16_t;
    using i32 = std::int32_t;
    if (ty.in == DType::i8 && ty.out == DType::i8) return f(i8{}, i8{});
    if (ty.in == DType::i8 && ty.out == DType::i16) return f(i8{}, i16{});
    if (ty.in == DType::i8 && ty.out == DType::i32) return f(i8{}, i32{});
    if (ty.in == DType::i16 && ty.out == DType::i16) return f(i16{}, i16{});
    if (ty.in == DType::i16 && ty.out == DType::i32) return f(i16{}, i32{});
    if (ty.in == DType::bf16 && ty.out == DType::bf16) return f(bfloat16{}, bfloat16{});
    if (ty.in == DType::bf16 && ty.out == DType::f32) return f(bfloat16{}, float{});
    throw DesignError(fmt::format("matmul: no kernel for {} -> {}", model::dtype_name(ty.in), model::dtype_name(ty.out)));
}

/// C += A.B on an m x k block of A and a k x n block of B in the blocked r x s / s x t layout,
/// named matmul_<in>_<out>. With KernelSet::aie each call runs with this kernel object's own
/// rounding/saturation state: make one per worker. The arguments are m x k, k x n and m x n
/// tensors, or with `flat` (IRON's factories) tiles of m*k, k*n and m*n elements.
iron::Kernel matmul_kernel(std::int64_t m, std::int64_t k, std::int64_t n, model::Arch arch, MmTypes ty,
                           KernelSet ks = KernelSet::reference, bool flat = false);
/// zero_<out>: C = 0 on an m x n tile.
iron::Kernel zero_kernel(std::int64_t m, std::int64_t n, DType out, KernelSet ks = KernelSet::reference,
                         bool flat = false);

/// linalg.py mm(dim_m=64, dim_k=64, dim_n=64, input_dtype=int16, output_dtype=int16, vectorized=True,
/// b_col_maj=False, c_col_maj=False): matmul_<in>_<out>(a: in[m*k], b: in[k*n], c: out[m*n]) for
/// the device generation's mm.cc. The scalar variants (vectorized=False) and the column-major B or C
/// builds are not in npusim's library (a DesignError says so). emulate_bf16_mmul_with_bfp16 (AIE2P, bf16
/// inputs; ignored otherwise, as IRON ignores it): mm.cc built with
/// -DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16, 8x8x8 blocks on the bfp16 datapath under conv_even
/// (kernels::matmul_bf16_*_via_bfp16; the AIE-API build: aie_kernels MacDims::aie2p_bf16_via_bfp16).
iron::Kernel mm(model::Arch arch, std::int64_t dim_m = 64, std::int64_t dim_k = 64, std::int64_t dim_n = 64,
                DType input_dtype = DType::i16, DType output_dtype = DType::i16, bool vectorized = true,
                bool b_col_maj = false, bool c_col_maj = false, KernelSet ks = KernelSet::reference,
                bool emulate_bf16_mmul_with_bfp16 = false);
/// mm(...).zero: zero_<out>(c: out[m*n]) of the same build.
iron::Kernel mm_zero(std::int64_t dim_m = 64, std::int64_t dim_n = 64, DType output_dtype = DType::i16,
                     KernelSet ks = KernelSet::reference);

} // namespace npusim::harness::iron_kernels

// The built-in library's matrix multiplication (KernelLibraryLinalg.hpp): mlir-aie python/iron/kernels/
// linalg.py mm (_MM_COMBOS, _MM_MAC_DIMS, the .zero sibling) and aie_kernels/<gen>/mm.cc's kernels.
#include "npusim/harness/KernelLibraryLinalg.hpp"

#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/zero.hpp"
#include "npusim/model/ComputePeak.hpp"

#include <npusim/aie_kernels.hpp>

namespace npusim::harness::iron_kernels {

using iron::ArgType;
using iron::Kernel;
using iron::KernelArg;

namespace {

iron::TensorType mm_matrix(DType t, std::int64_t rows, std::int64_t cols) { return iron::TensorType{t, {rows, cols}}; }

// The reference kernel of a combination (overloads on the element types).
void ref_matmul(const std::int8_t* A, const std::int8_t* B, std::int8_t* C, int m, int k, int n, MacDims d) {
    kernels::matmul_i8_i8(A, B, C, m, k, n, int(d.r), int(d.s), int(d.t));
}
void ref_matmul(const std::int8_t* A, const std::int8_t* B, std::int16_t* C, int m, int k, int n, MacDims d) {
    kernels::matmul_i8_i16(A, B, C, m, k, n, int(d.r), int(d.s), int(d.t));
}
void ref_matmul(const std::int8_t* A, const std::int8_t* B, std::int32_t* C, int m, int k, int n, MacDims d) {
    kernels::matmul_i8_i32(A, B, C, m, k, n, int(d.r), int(d.s), int(d.t));
}
void ref_matmul(const std::int16_t* A, const std::int16_t* B, std::int16_t* C, int m, int k, int n, MacDims d) {
    kernels::matmul_i16_i16(A, B, C, m, k, n, int(d.r), int(d.s), int(d.t));
}
void ref_matmul(const std::int16_t* A, const std::int16_t* B, std::int32_t* C, int m, int k, int n, MacDims d) {
    kernels::matmul_i16_i32(A, B, C, m, k, n, int(d.r), int(d.s), int(d.t));
}
void ref_matmul(const bfloat16* A, const bfloat16* B, bfloat16* C, int m, int k, int n, MacDims d) {
    kernels::matmul_bf16_bf16(A, B, C, m, k, n, int(d.r), int(d.s), int(d.t));
}
void ref_matmul(const bfloat16* A, const bfloat16* B, float* C, int m, int k, int n, MacDims d) {
    kernels::matmul_bf16_f32(A, B, C, m, k, n, int(d.r), int(d.s), int(d.t));
}

void ref_zero(std::int8_t* c, int m, int n) { kernels::zero_i8(c, m, n); }
void ref_zero(std::int16_t* c, int m, int n) { kernels::zero_i16(c, m, n); }
void ref_zero(std::int32_t* c, int m, int n) { kernels::zero_i32(c, m, n); }
void ref_zero(bfloat16* c, int m, int n) { kernels::zero_bf16(c, m, n); }
void ref_zero(float* c, int m, int n) { kernels::zero_f32(c, m, n); }

// The AIE-API builds (kernels_ref/aie/mm.cc), the same overloads.
aie_kernels::MacDims model_dims_aie(model::Arch arch) {
    return arch == model::Arch::AIE2 ? aie_kernels::MacDims::aie2 : aie_kernels::MacDims::aie2p;
}
void aie_matmul(const std::int8_t* A, const std::int8_t* B, std::int8_t* C, int m, int k, int n,
                aie_kernels::MacDims d) {
    aie_kernels::matmul_i8_i8(A, B, C, m, k, n, d);
}
void aie_matmul(const std::int8_t* A, const std::int8_t* B, std::int16_t* C, int m, int k, int n,
                aie_kernels::MacDims d) {
    aie_kernels::matmul_i8_i16(A, B, C, m, k, n, d);
}
void aie_matmul(const std::int8_t* A, const std::int8_t* B, std::int32_t* C, int m, int k, int n,
                aie_kernels::MacDims d) {
    aie_kernels::matmul_i8_i32(A, B, C, m, k, n, d);
}
void aie_matmul(const std::int16_t* A, const std::int16_t* B, std::int16_t* C, int m, int k, int n,
                aie_kernels::MacDims d) {
    aie_kernels::matmul_i16_i16(A, B, C, m, k, n, d);
}
void aie_matmul(const std::int16_t* A, const std::int16_t* B, std::int32_t* C, int m, int k, int n,
                aie_kernels::MacDims d) {
    aie_kernels::matmul_i16_i32(A, B, C, m, k, n, d);
}
void aie_matmul(const bfloat16* A, const bfloat16* B, bfloat16* C, int m, int k, int n, aie_kernels::MacDims d) {
    aie_kernels::matmul_bf16_bf16(A, B, C, m, k, n, d);
}
void aie_matmul(const bfloat16* A, const bfloat16* B, float* C, int m, int k, int n, aie_kernels::MacDims d) {
    aie_kernels::matmul_bf16_f32(A, B, C, m, k, n, d);
}
void aie_zero(std::int8_t* c, int count) { aie_kernels::zero_i8(c, count); }
void aie_zero(std::int16_t* c, int count) { aie_kernels::zero_i16(c, count); }
void aie_zero(std::int32_t* c, int count) { aie_kernels::zero_i32(c, count); }
void aie_zero(bfloat16* c, int count) { aie_kernels::zero_bf16(c, count); }
void aie_zero(float* c, int count) { aie_kernels::zero_f32(c, count); }

// mm.cc's bf16 matmul under AIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16 (AIE2P): 8x8x8 blocks. The cost is
// mm.cc's 2x2 loop (aie2p/mm.cc matmul_vectorized_2x2_mmul) at 8x8x8 and the bf16 peak [est]: each mac
// also converts its A and B tiles to bfp16, so it is taken as no faster than the native bf16 unit
// (256 MAC/cycle on AIE2P, model::matmul_mac_peak), not the bfp16 unit's 512.
Kernel mm_bf16_via_bfp16(std::int64_t m, std::int64_t k, std::int64_t n, DType out, KernelSet ks) {
    const int M = static_cast<int>(m), K = static_cast<int>(k), N = static_cast<int>(n);
    Kernel::Invoker run;
    if (out == DType::bf16) {
        run = [=](std::span<const KernelArg> x) {
            kernels::matmul_bf16_bf16_via_bfp16(reinterpret_cast<const bfloat16*>(x[0].data),
                                                reinterpret_cast<const bfloat16*>(x[1].data),
                                                reinterpret_cast<bfloat16*>(x[2].data), M, K, N);
        };
        if (ks == KernelSet::aie)
            run = with_aie_core_modes(
                [=](std::span<const KernelArg> x) {
                    aie_kernels::matmul_bf16_bf16(reinterpret_cast<const bfloat16*>(x[0].data),
                                                  reinterpret_cast<const bfloat16*>(x[1].data),
                                                  reinterpret_cast<bfloat16*>(x[2].data), M, K, N,
                                                  aie_kernels::MacDims::aie2p_bf16_via_bfp16);
                },
                make_aie_core_modes());
    } else {
        run = [=](std::span<const KernelArg> x) {
            kernels::matmul_bf16_f32_via_bfp16(reinterpret_cast<const bfloat16*>(x[0].data),
                                               reinterpret_cast<const bfloat16*>(x[1].data),
                                               reinterpret_cast<float*>(x[2].data), M, K, N);
        };
        if (ks == KernelSet::aie)
            run = with_aie_core_modes(
                [=](std::span<const KernelArg> x) {
                    aie_kernels::matmul_bf16_f32(reinterpret_cast<const bfloat16*>(x[0].data),
                                                 reinterpret_cast<const bfloat16*>(x[1].data),
                                                 reinterpret_cast<float*>(x[2].data), M, K, N,
                                                 aie_kernels::MacDims::aie2p_bf16_via_bfp16);
                },
                make_aie_core_modes());
    }
    const double peak = model::matmul_mac_peak(model::Arch::AIE2P, DType::bf16).macs_per_cycle;
    const kernels::MatmulLoop loop{8, 8, 8, 2, 2, peak, static_cast<int>(model::dtype_bytes(out))};
    auto cost = [=](std::span<const KernelArg>) { return kernels::matmul_cycles(M, K, N, loop); };
    Kernel kernel(fmt::format("matmul_bf16_{}", model::dtype_name(out)), std::move(run),
                  {iron::TensorType{DType::bf16, {m * k}}, iron::TensorType{DType::bf16, {k * n}},
                   iron::TensorType{out, {m * n}}},
                  cost);
    const auto macs = static_cast<std::uint64_t>(M) * static_cast<std::uint64_t>(K) * static_cast<std::uint64_t>(N);
    kernel.with_work([=](std::span<const KernelArg>) { return model::KernelWork{macs, peak}; });
    return kernel;
}

} // namespace

MacDims mm_mac_dims(model::Arch arch, DType in, bool emulate_bf16_mmul_with_bfp16) {
    if (emulate_bf16_mmul_with_bfp16 && arch == model::Arch::AIE2P && in == DType::bf16) return MacDims{8, 8, 8};
    return mac_dims(arch, in);
}

MacDims mac_dims(model::Arch arch, DType in) {
    // aie.iron.kernels.mm mac_dims (_MM_MAC_DIMS): aie2 i8 (4,8,8), i16 (4,4,4), bf16 (4,8,4);
    // aie2p i8 (8,8,8), i16 (4,4,8), bf16 (4,8,8)
    const bool aie2 = arch == model::Arch::AIE2;
    switch (in) {
    case DType::i8: return aie2 ? MacDims{4, 8, 8} : MacDims{8, 8, 8};
    case DType::bf16: return aie2 ? MacDims{4, 8, 4} : MacDims{4, 8, 8};
    default: return aie2 ? MacDims{4, 4, 4} : MacDims{4, 4, 8};
    }
}

kernels::MatmulLoop matmul_loop(model::Arch arch, MmTypes ty) {
    const kernels::MmInput in = ty.in == DType::i8     ? kernels::MmInput::i8
                                : ty.in == DType::bf16 ? kernels::MmInput::bf16
                                                       : kernels::MmInput::i16;
    return kernels::mm_cc_loop(arch == model::Arch::AIE2P, in, static_cast<int>(model::dtype_bytes(ty.out)),
                               model::matmul_mac_peak(arch, ty.in).macs_per_cycle);
}

Kernel matmul_kernel(std::int64_t m, std::int64_t k, std::int64_t n, model::Arch arch, MmTypes ty, KernelSet ks,
                     bool flat) {
    const MacDims d = mac_dims(arch, ty.in);
    const int M = static_cast<int>(m), K = static_cast<int>(k), N = static_cast<int>(n);
    std::vector<ArgType> types{mm_matrix(ty.in, m, k), mm_matrix(ty.in, k, n), mm_matrix(ty.out, m, n)};
    if (flat) // IRON's factories: one-dimensional tiles of m*k, k*n and m*n elements
        types = {iron::TensorType{ty.in, {m * k}}, iron::TensorType{ty.in, {k * n}}, iron::TensorType{ty.out, {m * n}}};
    Kernel::Invoker run;
    with_mm_types(ty, [&](auto a, auto c) {
        using TA = decltype(a);
        using TC = decltype(c);
        run = [=](std::span<const KernelArg> x) {
            ref_matmul(reinterpret_cast<const TA*>(x[0].data), reinterpret_cast<const TA*>(x[1].data),
                       reinterpret_cast<TC*>(x[2].data), M, K, N, d);
        };
    });
    if (ks == KernelSet::aie) {
        const auto dims = model_dims_aie(arch);
        with_mm_types(ty, [&](auto a, auto c) {
            using TA = decltype(a);
            using TC = decltype(c);
            run = with_aie_core_modes(
                [=](std::span<const KernelArg> x) {
                    aie_matmul(reinterpret_cast<const TA*>(x[0].data), reinterpret_cast<const TA*>(x[1].data),
                               reinterpret_cast<TC*>(x[2].data), M, K, N, dims);
                },
                make_aie_core_modes());
        });
    }
    // The loop of mm.cc's kernel for this generation and type (kernels::matmul_cycles: the matrix
    // unit's steady state plus the fill and C stores of every outer iteration), never faster than
    // the matrix unit (model::matmul_mac_peak: AIE2 i8/i16/bf16 256/64/128 MAC/cycle, AIE2P
    // 512/128/256).
    const double peak = model::matmul_mac_peak(arch, ty.in).macs_per_cycle;
    const kernels::MatmulLoop loop = matmul_loop(arch, ty);
    auto cost = [=](std::span<const KernelArg>) { return kernels::matmul_cycles(M, K, N, loop); };
    Kernel kernel(fmt::format("matmul_{}_{}", model::dtype_name(ty.in), model::dtype_name(ty.out)), std::move(run), std::move(types),
                  cost);
    const auto macs = static_cast<std::uint64_t>(M) * static_cast<std::uint64_t>(K) * static_cast<std::uint64_t>(N);
    kernel.with_work([=](std::span<const KernelArg>) { return model::KernelWork{macs, peak}; });
    return kernel;
}

Kernel zero_kernel(std::int64_t m, std::int64_t n, DType out, KernelSet ks, bool flat) {
    const int M = static_cast<int>(m), N = static_cast<int>(n);
    Kernel::Invoker run;
    with_mm_types({out == DType::bf16 || out == DType::f32 ? DType::bf16 : DType::i8, out}, [&](auto, auto c) {
        using TC = decltype(c);
        run = [=](std::span<const KernelArg> a) { ref_zero(reinterpret_cast<TC*>(a[0].data), M, N); };
    });
    if (ks == KernelSet::aie)
        with_mm_types({out == DType::bf16 || out == DType::f32 ? DType::bf16 : DType::i8, out}, [&](auto, auto c) {
            using TC = decltype(c);
            run = [=](std::span<const KernelArg> a) { aie_zero(reinterpret_cast<TC*>(a[0].data), M * N); };
        });
    const int bytes = static_cast<int>(model::dtype_bytes(out));
    auto cost = [=](std::span<const KernelArg>) { return kernels::zero_cycles(M, N, bytes); };
    const iron::TensorType c = flat ? iron::TensorType{out, {m * n}} : mm_matrix(out, m, n);
    return Kernel(fmt::format("zero_{}", model::dtype_name(out)), std::move(run), {c}, cost);
}


Kernel mm(model::Arch arch, std::int64_t dim_m, std::int64_t dim_k, std::int64_t dim_n, DType input_dtype,
          DType output_dtype, bool vectorized, bool b_col_maj, bool c_col_maj, KernelSet ks,
          bool emulate_bf16_mmul_with_bfp16) {
    constexpr std::pair<DType, DType> combos[] = {
        {DType::i8, DType::i8},   {DType::i8, DType::i16},    {DType::i8, DType::i32},  {DType::i16, DType::i16},
        {DType::i16, DType::i32}, {DType::bf16, DType::bf16}, {DType::bf16, DType::f32}};
    bool known = false;
    for (const auto& [in, out] : combos) known = known || (in == input_dtype && out == output_dtype);
    if (!known)
        throw DesignError(fmt::format("mm(): unsupported (input_dtype, output_dtype) = ({}, {}). Supported: i8->i8, "
                                      "i8->i16, i8->i32, i16->i16, i16->i32, bf16->bf16, bf16->f32",
                                      model::dtype_name(input_dtype), model::dtype_name(output_dtype)));
    if (!vectorized || b_col_maj || c_col_maj)
        throw DesignError(fmt::format("mm(): {} is not in npusim's kernel library (the vectorized row-major build is)",
                                      !vectorized ? "the scalar variant (vectorized=False)"
                                                  : b_col_maj ? "b_col_maj=True" : "c_col_maj=True"));
    const MacDims d = mm_mac_dims(arch, input_dtype, emulate_bf16_mmul_with_bfp16);
    if (dim_m <= 0 || dim_k <= 0 || dim_n <= 0 || dim_m % (2 * d.r) != 0 || dim_k % d.s != 0 || dim_n % (2 * d.t) != 0)
        throw DesignError(fmt::format("mm(): dim_m={}, dim_k={}, dim_n={} must be multiples of {}, {} and {} (2 x {} "
                                      "mmul blocks per step of mm.cc's loop)",
                                      dim_m, dim_k, dim_n, 2 * d.r, d.s, 2 * d.t,
                                      fmt::format("{}x{}x{}", d.r, d.s, d.t)));
    if (emulate_bf16_mmul_with_bfp16 && arch == model::Arch::AIE2P && input_dtype == DType::bf16)
        return mm_bf16_via_bfp16(dim_m, dim_k, dim_n, output_dtype, ks);
    return matmul_kernel(dim_m, dim_k, dim_n, arch, {input_dtype, output_dtype}, ks, true);
}

Kernel mm_zero(std::int64_t dim_m, std::int64_t dim_n, DType output_dtype, KernelSet ks) {
    return zero_kernel(dim_m, dim_n, output_dtype, ks, true);
}

} // namespace npusim::harness::iron_kernels

// The built-in library's mv and cascade_mm (KernelLibraryMatvec.hpp): mlir-aie python/iron/kernels/
// linalg.py mv (:205-252) and cascade_mm (:255-333), aie_kernels/aie2/mv.cc and cascade_mm.cc.
#include "npusim/harness/KernelLibraryMatvec.hpp"

#include "npusim/frontend/Worker.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/cascade_matmul.hpp"
#include "npusim/kernels/matvec.hpp"
#include "npusim/kernels/zero.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>

#include <algorithm>
#include <fmt/format.h>

namespace npusim::harness::iron_kernels {

using iron::ArgType;
using iron::Kernel;
using iron::KernelArg;

namespace {

iron::TensorType flat(DType t, std::int64_t n) { return iron::TensorType{t, {n}}; }

template <class T>
const T* in_arg(std::span<const KernelArg> x, std::size_t i) {
    return reinterpret_cast<const T*>(x[i].data);
}
template <class T>
T* out_arg(std::span<const KernelArg> x, std::size_t i) {
    return reinterpret_cast<T*>(x[i].data);
}

void require_dims(const char* factory, std::initializer_list<std::pair<const char*, std::int64_t>> dims) {
    for (const auto& [name, v] : dims)
        if (v <= 0) throw DesignError(fmt::format("{}(): {}={} must be positive", factory, name, v));
}

// zero_scalar<T, M, N> of zero.cc: one scalar store per element ([est] one per cycle).
template <class T>
Kernel scalar_zero(std::string name, std::int64_t count, DType t) {
    const auto n = static_cast<std::size_t>(count);
    return Kernel(std::move(name), [n](std::span<const KernelArg> x) { std::fill_n(out_arg<T>(x, 0), n, T{}); },
                  {flat(t, count)}, [n](std::span<const KernelArg>) { return static_cast<std::uint64_t>(n); });
}

} // namespace

Kernel mv(std::int64_t dim_m, std::int64_t dim_k, DType input_dtype, DType output_dtype, bool vectorized,
          KernelSet ks) {
    if (input_dtype != DType::i16 || output_dtype != DType::i32) // linalg.py:231-235
        throw DesignError(fmt::format("mv(): only (np.int16, np.int32) is supported, got ({}, {})",
                                      model::dtype_name(input_dtype), model::dtype_name(output_dtype)));
    require_dims("mv", {{"dim_m", dim_m}, {"dim_k", dim_k}});
    if (vectorized && (dim_m % 16 != 0 || dim_k % 8 != 0)) // mv.cc:39-42 with r = 16, s = 8 (mv.cc:161)
        throw DesignError(fmt::format("mv(): dim_m={} and dim_k={} must be multiples of 16 and 8 for the vectorized "
                                      "kernel (mv.cc's static_asserts, r = 16, s = 8)",
                                      dim_m, dim_k));
    const int M = static_cast<int>(dim_m), K = static_cast<int>(dim_k);
    const auto layout = vectorized ? kernels::MatvecLayout::word_transposed : kernels::MatvecLayout::row_major;
    Kernel::Invoker run = [=](std::span<const KernelArg> x) {
        kernels::matvec_i16_i32(in_arg<std::int16_t>(x, 0), in_arg<std::int16_t>(x, 1), out_arg<std::int32_t>(x, 2), M,
                                K, layout);
    };
    if (ks == KernelSet::aie) {
        auto* fn = vectorized ? &aie_kernels::matvec_vectorized_i16_i32 : &aie_kernels::matvec_scalar_i16_i32;
        run = with_aie_core_modes(
            [=](std::span<const KernelArg> x) {
                fn(in_arg<std::int16_t>(x, 0), in_arg<std::int16_t>(x, 1), out_arg<std::int32_t>(x, 2), M, K);
            },
            make_aie_core_modes());
    }
    auto cost = [=](std::span<const KernelArg>) {
        return vectorized ? kernels::matvec_vectorized_cycles(M, K) : kernels::matvec_scalar_cycles(M, K);
    };
    Kernel k(fmt::format("matvec_{}_i16_i32", vectorized ? "vectorized" : "scalar"), std::move(run),
             {flat(DType::i16, dim_m * dim_k), flat(DType::i16, dim_k), flat(DType::i32, dim_m)}, cost);
    const auto macs = static_cast<std::uint64_t>(M) * static_cast<std::uint64_t>(K);
    // the rate the cost models assume: the int16 MAC rate of the vector unit (64/cycle on AIE2,
    // model::matmul_mac_peak) for the vector kernel, one scalar MAC per cycle for the scalar one
    const double rate = vectorized ? 64.0 : 1.0;
    k.with_work([=](std::span<const KernelArg>) { return model::KernelWork{macs, rate}; });
    return k;
}

Kernel mv_zero(std::int64_t dim_m, bool vectorized, KernelSet) {
    require_dims("mv", {{"dim_m", dim_m}});
    if (!vectorized) return scalar_zero<std::int32_t>("zero_scalar_i32", dim_m, DType::i32);
    if (dim_m % 16 != 0) // zero.cc's static_assert: whole pairs of 256-bit stores
        throw DesignError(fmt::format("mv(): dim_m={} must be a multiple of 16 for zero_vectorized_i32", dim_m));
    const int M = static_cast<int>(dim_m);
    return Kernel("zero_vectorized_i32",
                  [M](std::span<const KernelArg> x) { kernels::zero_i32(out_arg<std::int32_t>(x, 0), M, 1); },
                  {flat(DType::i32, dim_m)}, [M](std::span<const KernelArg>) { return kernels::zero_cycles(M, 1, 4); });
}

namespace {

template <typename TOut>
CascadeMmKernels cascade_kernels(int M, int K, int N, DType out, KernelSet ks) {
    const std::vector<ArgType> types{flat(DType::i16, std::int64_t{M} * K), flat(DType::i16, std::int64_t{K} * N),
                                     flat(out, std::int64_t{M} * N)};
    auto cost = [=](std::span<const KernelArg>) { return kernels::cascade_matmul_cycles(M, K, N); };
    Kernel::Invoker get_only, put_only, put_get;
    using I16 = std::int16_t;
    if (ks == KernelSet::aie) {
        // The AIE-API builds (kernels_ref/aie/cascade_mm.cc): put_mcd / get_scd reach the running
        // core through the hooks with_aie_core_modes installs.
        constexpr bool i32 = std::is_same_v<TOut, std::int32_t>;
        void (*get_fn)(const I16*, const I16*, TOut*, std::int32_t, std::int32_t, std::int32_t) = nullptr;
        if constexpr (i32)
            get_fn = &aie_kernels::cascade_mm_get_only_i16_i32;
        else
            get_fn = &aie_kernels::cascade_mm_get_only_i16_i16;
        auto* put_fn = i32 ? &aie_kernels::cascade_mm_put_only_i16_i32 : &aie_kernels::cascade_mm_put_only_i16_i16;
        auto* pg_fn = i32 ? &aie_kernels::cascade_mm_put_get_i16_i32 : &aie_kernels::cascade_mm_put_get_i16_i16;
        get_only = [=](std::span<const KernelArg> x) {
            get_fn(in_arg<I16>(x, 0), in_arg<I16>(x, 1), out_arg<TOut>(x, 2), M, K, N);
        };
        put_only = [=](std::span<const KernelArg> x) { put_fn(in_arg<I16>(x, 0), in_arg<I16>(x, 1), M, K, N); };
        put_get = [=](std::span<const KernelArg> x) { pg_fn(in_arg<I16>(x, 0), in_arg<I16>(x, 1), M, K, N); };
        get_only = with_aie_core_modes(std::move(get_only), make_aie_core_modes());
        put_only = with_aie_core_modes(std::move(put_only), make_aie_core_modes());
        put_get = with_aie_core_modes(std::move(put_get), make_aie_core_modes());
    } else {
        get_only = [=](std::span<const KernelArg> x) {
            kernels::cascade_matmul_get_only<I16, TOut>(in_arg<I16>(x, 0), in_arg<I16>(x, 1), out_arg<TOut>(x, 2), M, K,
                                                        N, &iron::cascade_get);
        };
        put_only = [=](std::span<const KernelArg> x) {
            kernels::cascade_matmul_put_only<I16, TOut>(in_arg<I16>(x, 0), in_arg<I16>(x, 1), M, K, N,
                                                        &iron::cascade_put);
        };
        put_get = [=](std::span<const KernelArg> x) {
            kernels::cascade_matmul_put_get<I16, TOut>(in_arg<I16>(x, 0), in_arg<I16>(x, 1), M, K, N,
                                                       &iron::cascade_get, &iron::cascade_put);
        };
    }
    const std::string suffix = fmt::format("i16_{}", model::dtype_name(out));
    CascadeMmKernels r{Kernel("matmul_scalar_cascade_get_only_" + suffix, std::move(get_only), types, cost),
                       Kernel("matmul_scalar_cascade_put_only_" + suffix, std::move(put_only), types, cost),
                       Kernel("matmul_scalar_cascade_put_get_" + suffix, std::move(put_get), types, cost),
                       scalar_zero<TOut>("zero_scalar_" + std::string(model::dtype_name(out)), std::int64_t{M} * N, out)};
    // The scalar unit's rate (cascade_matmul.hpp [est]): the run summary measures against it.
    const auto macs = static_cast<std::uint64_t>(M) * static_cast<std::uint64_t>(K) * static_cast<std::uint64_t>(N);
    auto work = [=](std::span<const KernelArg>) { return model::KernelWork{macs, 1.0}; };
    r.get_only.with_work(work);
    r.put_only.with_work(work);
    r.put_get.with_work(work);
    return r;
}

} // namespace

CascadeMmKernels cascade_mm(std::int64_t dim_m, std::int64_t dim_k, std::int64_t dim_n, DType input_dtype,
                            DType output_dtype, KernelSet ks) {
    const bool known = (input_dtype == DType::i16 && (output_dtype == DType::i16 || output_dtype == DType::i32)) ||
                       (input_dtype == DType::bf16 && (output_dtype == DType::bf16 || output_dtype == DType::f32));
    if (!known) // linalg.py:289-294 (_CASCADE_COMBOS)
        throw DesignError(fmt::format("cascade_mm(): unsupported (input_dtype, output_dtype) = ({}, {}). Supported: "
                                      "i16->i16, i16->i32, bf16->bf16, bf16->f32",
                                      model::dtype_name(input_dtype), model::dtype_name(output_dtype)));
    if (input_dtype == DType::bf16)
        throw DesignError(fmt::format("cascade_mm(): the bf16 -> {} build is not in npusim's kernel library (i16 -> "
                                      "i16 and i16 -> i32 are)",
                                      model::dtype_name(output_dtype)));
    require_dims("cascade_mm", {{"dim_m", dim_m}, {"dim_k", dim_k}, {"dim_n", dim_n}});
    const int M = static_cast<int>(dim_m), K = static_cast<int>(dim_k), N = static_cast<int>(dim_n);
    return output_dtype == DType::i32 ? cascade_kernels<std::int32_t>(M, K, N, output_dtype, ks)
                                      : cascade_kernels<std::int16_t>(M, K, N, output_dtype, ks);
}

} // namespace npusim::harness::iron_kernels

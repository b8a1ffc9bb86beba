// The cascade matmul kernels of E8 (CascadeKernels.hpp).
#include "CascadeKernels.hpp"

#include "MatmulCommon.hpp"

#include "npusim/aie_kernels.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/cascade_matmul.hpp"

#include <fmt/format.h>

namespace npusim::examples::cascade {

using namespace npusim::iron;
using harness::KernelSet;

namespace {

template <typename TOut>
CascadeKernels cascade_kernels(std::int64_t m, std::int64_t k, std::int64_t n, DType out, model::Arch, KernelSet ks) {
    const int M = static_cast<int>(m), K = static_cast<int>(k), N = static_cast<int>(n);
    const std::vector<ArgType> types{matmul::flat(DType::i16, m * k), matmul::flat(DType::i16, k * n),
                                     matmul::flat(out, m * n)};
    auto cost = [=](std::span<const KernelArg>) { return kernels::cascade_matmul_cycles(M, K, N); };
    // The scalar unit's rate (cascade_matmul.hpp [est]): the run summary measures against it.
    const auto macs = static_cast<std::uint64_t>(M) * static_cast<std::uint64_t>(K) * static_cast<std::uint64_t>(N);
    auto work = [=](std::span<const KernelArg>) { return model::KernelWork{macs, 1.0}; };
    const std::string suffix = fmt::format("i16_{}", dtype_name(out));
    Kernel::Invoker get_only, put_only, put_get;
    if (ks == KernelSet::aie) {
        // The AIE-API builds (kernels_ref/aie/cascade_mm.cc): put_mcd / get_scd reach the running
        // core through the hooks with_aie_core_modes installs.
        if constexpr (std::is_same_v<TOut, std::int32_t>) {
            get_only = [=](std::span<const KernelArg> x) {
                aie_kernels::cascade_mm_get_only_i16_i32(reinterpret_cast<const std::int16_t*>(x[0].data),
                                                         reinterpret_cast<const std::int16_t*>(x[1].data),
                                                         reinterpret_cast<std::int32_t*>(x[2].data), M, K, N);
            };
            put_only = [=](std::span<const KernelArg> x) {
                aie_kernels::cascade_mm_put_only_i16_i32(reinterpret_cast<const std::int16_t*>(x[0].data),
                                                         reinterpret_cast<const std::int16_t*>(x[1].data), M, K, N);
            };
            put_get = [=](std::span<const KernelArg> x) {
                aie_kernels::cascade_mm_put_get_i16_i32(reinterpret_cast<const std::int16_t*>(x[0].data),
                                                        reinterpret_cast<const std::int16_t*>(x[1].data), M, K, N);
            };
        } else {
            get_only = [=](std::span<const KernelArg> x) {
                aie_kernels::cascade_mm_get_only_i16_i16(reinterpret_cast<const std::int16_t*>(x[0].data),
                                                         reinterpret_cast<const std::int16_t*>(x[1].data),
                                                         reinterpret_cast<std::int16_t*>(x[2].data), M, K, N);
            };
            put_only = [=](std::span<const KernelArg> x) {
                aie_kernels::cascade_mm_put_only_i16_i16(reinterpret_cast<const std::int16_t*>(x[0].data),
                                                         reinterpret_cast<const std::int16_t*>(x[1].data), M, K, N);
            };
            put_get = [=](std::span<const KernelArg> x) {
                aie_kernels::cascade_mm_put_get_i16_i16(reinterpret_cast<const std::int16_t*>(x[0].data),
                                                        reinterpret_cast<const std::int16_t*>(x[1].data), M, K, N);
            };
        }
        get_only = harness::with_aie_core_modes(std::move(get_only), harness::make_aie_core_modes());
        put_only = harness::with_aie_core_modes(std::move(put_only), harness::make_aie_core_modes());
        put_get = harness::with_aie_core_modes(std::move(put_get), harness::make_aie_core_modes());
    } else {
        get_only = [=](std::span<const KernelArg> x) {
            kernels::cascade_matmul_get_only<std::int16_t, TOut>(
                reinterpret_cast<const std::int16_t*>(x[0].data), reinterpret_cast<const std::int16_t*>(x[1].data),
                reinterpret_cast<TOut*>(x[2].data), M, K, N, &iron::cascade_get);
        };
        put_only = [=](std::span<const KernelArg> x) {
            kernels::cascade_matmul_put_only<std::int16_t, TOut>(reinterpret_cast<const std::int16_t*>(x[0].data),
                                                                 reinterpret_cast<const std::int16_t*>(x[1].data), M, K,
                                                                 N, &iron::cascade_put);
        };
        put_get = [=](std::span<const KernelArg> x) {
            kernels::cascade_matmul_put_get<std::int16_t, TOut>(reinterpret_cast<const std::int16_t*>(x[0].data),
                                                                reinterpret_cast<const std::int16_t*>(x[1].data), M, K,
                                                                N, &iron::cascade_get, &iron::cascade_put);
        };
    }
    CascadeKernels r{Kernel(fmt::format("matmul_scalar_cascade_get_only_{}", suffix), std::move(get_only), types, cost),
                     Kernel(fmt::format("matmul_scalar_cascade_put_only_{}", suffix), std::move(put_only), types, cost),
                     Kernel(fmt::format("matmul_scalar_cascade_put_get_{}", suffix), std::move(put_get), types, cost),
                     matmul::zero_kernel(m, n, out, ks)};
    r.get_only.with_work(work);
    r.put_only.with_work(work);
    r.put_get.with_work(work);
    return r;
}

} // namespace

CascadeKernels kernels(std::int64_t m, std::int64_t k, std::int64_t n, DType out, model::Arch arch, KernelSet ks) {
    return out == DType::i32 ? cascade_kernels<std::int32_t>(m, k, n, out, arch, ks)
                             : cascade_kernels<std::int16_t>(m, k, n, out, arch, ks);
}

} // namespace npusim::examples::cascade

#include "MatmulCommon.hpp"

#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/matmul.hpp"
#include "npusim/model/ComputePeak.hpp"

#include "npusim/kernels/zero.hpp"
#include <npusim/aie_kernels.hpp>

#include <random>

namespace npusim::examples::matmul {

using namespace npusim::iron;

MacDims mac_dims_i16(model::Arch arch) {
    // aie.iron.kernels.mm mac_dims: aie2 i16 (4,4,4), aie2p i16 (4,4,8)
    return arch == model::Arch::AIE2 ? MacDims{4, 4, 4} : MacDims{4, 4, 8};
}

Kernel matmul_kernel(std::int64_t m, std::int64_t k, std::int64_t n, model::Arch arch, bool i32_out, KernelSet ks) {
    const MacDims d = mac_dims_i16(arch);
    const int M = static_cast<int>(m), K = static_cast<int>(k), N = static_cast<int>(n);
    const int r = static_cast<int>(d.r), s = static_cast<int>(d.s), t = static_cast<int>(d.t);
    std::vector<ArgType> types{tensor<std::int16_t>({m, k}), tensor<std::int16_t>({k, n}),
                               i32_out ? tensor<std::int32_t>({m, n}) : tensor<std::int16_t>({m, n})};
    Kernel::Invoker run = [=](std::span<const KernelArg> a) {
        const auto* A = reinterpret_cast<const std::int16_t*>(a[0].data);
        const auto* B = reinterpret_cast<const std::int16_t*>(a[1].data);
        if (i32_out)
            kernels::matmul_i16_i32(A, B, reinterpret_cast<std::int32_t*>(a[2].data), M, K, N, r, s, t);
        else
            kernels::matmul_i16_i16(A, B, reinterpret_cast<std::int16_t*>(a[2].data), M, K, N, r, s, t);
    };
    if (ks == KernelSet::aie) {
        const auto dims = t == 8 ? aie_kernels::MacDims::aie2p : aie_kernels::MacDims::aie2;
        run = with_aie_core_modes(
            [=](std::span<const KernelArg> a) {
                const auto* A = reinterpret_cast<const std::int16_t*>(a[0].data);
                const auto* B = reinterpret_cast<const std::int16_t*>(a[1].data);
                if (i32_out)
                    aie_kernels::matmul_i16_i32(A, B, reinterpret_cast<std::int32_t*>(a[2].data), M, K, N, dims);
                else
                    aie_kernels::matmul_i16_i16(A, B, reinterpret_cast<std::int16_t*>(a[2].data), M, K, N, dims);
            },
            make_aie_core_modes());
    }
    // Never faster than the generation's i16 matrix unit (64 MAC/cycle on AIE2, 128 on AIE2P).
    const double peak = model::matmul_mac_peak(arch, DType::i16).macs_per_cycle;
    auto cost = [=](std::span<const KernelArg>) { return kernels::matmul_cycles(M, K, N, peak); };
    return Kernel(i32_out ? "matmul_i16_i32" : "matmul_i16_i16", std::move(run), std::move(types), cost);
}

Kernel zero_kernel(std::int64_t m, std::int64_t n, bool i32_out, KernelSet ks) {
    const int M = static_cast<int>(m), N = static_cast<int>(n);
    Kernel::Invoker run = [=](std::span<const KernelArg> a) {
        if (i32_out)
            kernels::zero_i32(reinterpret_cast<std::int32_t*>(a[0].data), M, N);
        else
            kernels::zero_i16(reinterpret_cast<std::int16_t*>(a[0].data), M, N);
    };
    if (ks == KernelSet::aie)
        run = [=](std::span<const KernelArg> a) {
            if (i32_out)
                aie_kernels::zero_i32(reinterpret_cast<std::int32_t*>(a[0].data), M * N);
            else
                aie_kernels::zero_i16(reinterpret_cast<std::int16_t*>(a[0].data), M * N);
        };
    auto cost = [=](std::span<const KernelArg>) { return kernels::zero_cycles(M, N, i32_out ? 4 : 2); };
    return Kernel(i32_out ? "zero_i32" : "zero_i16", std::move(run),
                  {i32_out ? tensor<std::int32_t>({m, n}) : tensor<std::int16_t>({m, n})}, cost);
}

StreamDims a_dims(std::int64_t m, std::int64_t k, MacDims d) {
    return {{m / d.r, d.r * k}, {k / d.s, d.s}, {d.r, k}, {d.s, 1}};
}
StreamDims b_dims(std::int64_t k, std::int64_t n, MacDims d) {
    return {{k / d.s, d.s * n}, {n / d.t, d.t}, {d.s, n}, {d.t, 1}};
}
StreamDims c_dims(std::int64_t m, std::int64_t n, MacDims d) {
    return {{m / d.r, d.r * n}, {d.r, d.t}, {n / d.t, d.r * d.t}, {d.t, 1}};
}

std::vector<std::int16_t> random_i16(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::int16_t> v(n);
    for (auto& x : v) x = static_cast<std::int16_t>(static_cast<std::int64_t>(rng() % 16384) - 8192);
    return v;
}

std::vector<std::int64_t> reference(const std::vector<std::int16_t>& A, const std::vector<std::int16_t>& B,
                                    std::int64_t M, std::int64_t K, std::int64_t N) {
    std::vector<std::int64_t> C(static_cast<std::size_t>(M * N), 0);
    for (std::int64_t i = 0; i < M; ++i)
        for (std::int64_t q = 0; q < K; ++q) {
            const std::int64_t a = A[static_cast<std::size_t>(i * K + q)];
            const auto* b = &B[static_cast<std::size_t>(q * N)];
            auto* c = &C[static_cast<std::size_t>(i * N)];
            for (std::int64_t j = 0; j < N; ++j) c[j] += a * b[j];
        }
    return C;
}

} // namespace npusim::examples::matmul

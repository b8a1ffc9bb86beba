// The built-in bfp16 matmul and zero kernels (KernelLibraryBfp.hpp).
#include "npusim/harness/KernelLibraryBfp.hpp"

#include "npusim/aie_kernels.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/model/ComputePeak.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace npusim::harness::iron_kernels {

namespace {
constexpr std::size_t kBfpBlock = 9; // bytes of one v8bfp16ebs8 block

double bfp16_lane_value(const std::uint8_t* blk, int lane) {
    return std::ldexp(static_cast<double>(static_cast<std::int8_t>(blk[1 + lane])), int(blk[0]) - 133);
}
} // namespace

void bfp16_quantize(const float* x, std::uint8_t* out) {
    std::uint32_t e_max = 0;
    for (int k = 0; k < 8; ++k) e_max = std::max(e_max, (std::bit_cast<std::uint32_t>(x[k]) >> 23) & 0xFFu);
    out[0] = static_cast<std::uint8_t>(e_max);
    for (int k = 0; k < 8; ++k) {
        const std::uint32_t u = std::bit_cast<std::uint32_t>(x[k]);
        const std::uint32_t e = (u >> 23) & 0xFFu;
        std::int64_t sig = (u & 0x7FFFFFu) | (e ? 0x800000u : 0u);
        if (u >> 31) sig = -sig;
        const int sh = std::min(40, 17 + int(e_max) - int(e));
        out[1 + k] = static_cast<std::uint8_t>(static_cast<std::int8_t>(sig >> sh));
    }
}

void bfp16_tile_matmul(const std::uint8_t* a, const std::uint8_t* bt, std::uint8_t* c, int m, int k, int n) {
    const int colA = k / 8, colB = n / 8;
    for (int si = 0; si < m / 8; ++si)
        for (int sj = 0; sj < colB; ++sj) {
            std::uint8_t* cs = c + static_cast<std::size_t>(si * colB + sj) * 64 / 8 * kBfpBlock;
            float acc[64];
            for (int r = 0; r < 8; ++r)
                for (int q = 0; q < 8; ++q) acc[r * 8 + q] = static_cast<float>(bfp16_lane_value(cs + r * kBfpBlock, q));
            for (int kk = 0; kk < colA; ++kk) {
                const std::uint8_t* as = a + static_cast<std::size_t>(si * colA + kk) * 8 * kBfpBlock;
                const std::uint8_t* bs = bt + static_cast<std::size_t>(sj * colA + kk) * 8 * kBfpBlock;
                for (int r = 0; r < 8; ++r)
                    for (int q = 0; q < 8; ++q) {
                        std::int32_t s = 0;
                        for (int t = 0; t < 8; ++t)
                            s += static_cast<std::int8_t>(as[r * kBfpBlock + 1 + t]) *
                                 static_cast<std::int8_t>(bs[q * kBfpBlock + 1 + t]);
                        const int e = int(as[r * kBfpBlock]) + int(bs[q * kBfpBlock]) - 266;
                        acc[r * 8 + q] += static_cast<float>(std::ldexp(static_cast<double>(s), e));
                    }
            }
            for (int r = 0; r < 8; ++r) bfp16_quantize(acc + r * 8, cs + r * kBfpBlock);
        }
}

std::uint64_t bfp16_matmul_cycles(std::int64_t m, std::int64_t k, std::int64_t n) {
    const auto macs = static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(k) * static_cast<std::uint64_t>(n);
    const double peak = model::matmul_mac_peak(model::Arch::AIE2P, DType::bfp16ebs8).macs_per_cycle;
    return static_cast<std::uint64_t>(std::ceil(static_cast<double>(macs) / peak)) +
           16u * static_cast<std::uint64_t>((m / 16) * (n / 16));
}

std::uint64_t bfp16_zero_cycles(std::int64_t values) { return static_cast<std::uint64_t>(values / 64) + 8; }

iron::Kernel bfp16_matmul(std::int64_t m, std::int64_t k, std::int64_t n, KernelSet ks, std::string name) {
    const int M = int(m), K = int(k), N = int(n);
    iron::Kernel::Invoker run = [=](std::span<const iron::KernelArg> x) {
        bfp16_tile_matmul(reinterpret_cast<const std::uint8_t*>(x[0].data),
                          reinterpret_cast<const std::uint8_t*>(x[1].data), reinterpret_cast<std::uint8_t*>(x[2].data),
                          M, K, N);
    };
    if (ks == KernelSet::aie)
        run = with_aie_core_modes(
            [=](std::span<const iron::KernelArg> x) {
                aie_kernels::matmul_bfp16(reinterpret_cast<const std::uint8_t*>(x[0].data),
                                          reinterpret_cast<const std::uint8_t*>(x[1].data),
                                          reinterpret_cast<std::uint8_t*>(x[2].data), M, K, N);
            },
            make_aie_core_modes());
    const auto macs = static_cast<std::uint64_t>(M) * static_cast<std::uint64_t>(K) * static_cast<std::uint64_t>(N);
    const double peak = model::matmul_mac_peak(model::Arch::AIE2P, DType::bfp16ebs8).macs_per_cycle;
    auto cost = [=](std::span<const iron::KernelArg>) { return bfp16_matmul_cycles(M, K, N); };
    iron::Kernel kernel(std::move(name), std::move(run),
                        {iron::TensorType{DType::bfp16ebs8, {m, k / 8}}, iron::TensorType{DType::bfp16ebs8, {n, k / 8}},
                         iron::TensorType{DType::bfp16ebs8, {m, n / 8}}},
                        cost);
    kernel.with_work([=](std::span<const iron::KernelArg>) { return model::KernelWork{macs, peak}; });
    return kernel;
}

iron::Kernel bfp16_zero(std::int64_t m, std::int64_t n, KernelSet ks, std::string name) {
    const int M = int(m), N = int(n);
    iron::Kernel::Invoker run = [=](std::span<const iron::KernelArg> x) {
        std::fill_n(reinterpret_cast<std::uint8_t*>(x[0].data), static_cast<std::size_t>(M * N / 8) * kBfpBlock, 0);
    };
    if (ks == KernelSet::aie)
        run = [=](std::span<const iron::KernelArg> x) {
            aie_kernels::zero_bfp16(reinterpret_cast<std::uint8_t*>(x[0].data), M, N);
        };
    auto cost = [=](std::span<const iron::KernelArg>) { return bfp16_zero_cycles(std::int64_t(M) * N); };
    return iron::Kernel(std::move(name), std::move(run), {iron::TensorType{DType::bfp16ebs8, {m, n / 8}}}, cost);
}

} // namespace npusim::harness::iron_kernels

// Cost models of mlir-aie's run-time compiled bfp16 kernels (UpstreamBfpCosts.hpp).
#include "npusim/harness/UpstreamBfpCosts.hpp"

#include "npusim/harness/KernelLibraryBfp.hpp"
#include "npusim/kernels/kernel_common.hpp"
#include "npusim/kernels/zero.hpp"
#include "npusim/model/ComputePeak.hpp"

#include <charconv>

namespace npusim::harness {

namespace {

constexpr std::int64_t kBfpValuesPerBlock = 8; // a v8bfp16ebs8 element: 8 values, one shared exponent
constexpr std::int64_t kBfpBlockBytes = 9;

/// The kernel's K: the last -DDIM_K=N of its flags, else mm_bfp.cc's default (l.162-164).
std::int64_t kernel_k(const std::vector<std::string>& flags) {
    std::int64_t k = 64;
    for (const auto& f : flags) {
        if (!f.starts_with("-DDIM_K=")) continue;
        std::int64_t v = 0;
        const auto* b = f.data() + 8;
        const auto [end, ec] = std::from_chars(b, f.data() + f.size(), v);
        if (ec == std::errc{} && end == f.data() + f.size() && v > 0) k = v;
    }
    return k;
}

/// The number of values a tensor argument of bf16 or bfp16 holds (bfp16: 8 a block).
std::int64_t values_of(const iron::ArgType& t) {
    return t.dtype == DType::bfp16ebs8 ? t.elements * kBfpValuesPerBlock : t.elements;
}

bool tensors_of(const std::vector<iron::ArgType>& types, std::initializer_list<DType> want) {
    if (types.size() < want.size()) return false;
    std::size_t i = 0;
    for (const DType d : want) {
        if (!types[i].is_tensor || types[i].dtype != d || types[i].elements <= 0) return false;
        ++i;
    }
    return true;
}

/// Rows and columns of a matmul on K: A holds rows x K values, B K x cols; the 2x2 loop needs both
/// multiples of 16 and K of 8 (mm_bfp.cc l.183-185).
std::optional<std::pair<std::int64_t, std::int64_t>> matmul_dims(const iron::ArgType& a, const iron::ArgType& b,
                                                                 std::int64_t k) {
    const std::int64_t av = values_of(a), bv = values_of(b);
    if (k % 8 || av % k || bv % k) return std::nullopt;
    const std::int64_t rows = av / k, cols = bv / k;
    if (rows % 16 || cols % 16) return std::nullopt;
    return std::pair{rows, cols};
}

UpstreamCost fixed_cost(std::uint64_t cycles, std::uint64_t macs = 0) {
    return {[cycles](std::span<const iron::KernelArg>) { return cycles; }, macs};
}

} // namespace

std::uint64_t bfp16_mixed_matmul_cycles(std::int64_t rows, std::int64_t k, std::int64_t cols) {
    return kBfpConvertCyclesPerBlock * static_cast<std::uint64_t>(rows * k / 64) +
           iron_kernels::bfp16_matmul_cycles(rows, k, cols);
}

std::optional<UpstreamCost> upstream_bfp_cost(const std::string& symbol, const std::vector<iron::ArgType>& types,
                                              const std::vector<std::string>& compile_flags, model::Arch arch) {
    if (arch != model::Arch::AIE2P) return std::nullopt;
    using D = DType;
    const D bfp = D::bfp16ebs8;
    const std::int64_t k = kernel_k(compile_flags);
    if (symbol == "matmul_vectorized_bfp16" && types.size() == 3 && tensors_of(types, {bfp, bfp, bfp})) {
        const auto d = matmul_dims(types[0], types[1], k);
        if (!d) return std::nullopt;
        const auto macs = static_cast<std::uint64_t>(d->first * k * d->second);
        return fixed_cost(iron_kernels::bfp16_matmul_cycles(d->first, k, d->second), macs);
    }
    if (symbol == "matmul_vectorized_different_datatypes" && types.size() == 3 &&
        tensors_of(types, {D::bf16, bfp, D::bf16})) {
        const auto d = matmul_dims(types[0], types[1], k);
        if (!d) return std::nullopt;
        const auto macs = static_cast<std::uint64_t>(d->first * k * d->second);
        return fixed_cost(bfp16_mixed_matmul_cycles(d->first, k, d->second), macs);
    }
    if (symbol == "zero_kernel" && types.size() == 1 && tensors_of(types, {bfp}))
        return fixed_cost(iron_kernels::bfp16_zero_cycles(values_of(types[0])));
    if (symbol == "zero_kernel_bf16" && types.size() == 1 && tensors_of(types, {D::bf16})) {
        // zero_vectorized<bfloat16>: 512-bit stores over the tile, as mm.cc's zero (kernels::zero_cycles)
        const auto n = static_cast<std::int32_t>(types[0].elements);
        return fixed_cost(kernels::zero_cycles(1, n, 2));
    }
    if (symbol == "scalar_shuffle" && types.size() >= 2 && types[0].is_tensor && types[1].is_tensor) {
        // a scalar loop copying every byte of the tile (tileWidth * 1.125 x tileHeight, l.35-66)
        const std::int64_t bytes = types[0].dtype == bfp ? types[0].elements * kBfpBlockBytes
                                                         : types[0].elements * std::int64_t(dtype_bytes(types[0].dtype));
        return fixed_cost(kernels::kScalarLoopCyclesPerElement * static_cast<std::uint64_t>(bytes));
    }
    if (symbol == "bf16_to_bfp_conversion" && types.size() == 4 && tensors_of(types, {D::bf16, D::bf16, bfp, bfp})) {
        // [est] per 64-value tile: A converted (kBfpConvertCyclesPerBlock); B transposed (one shuffle
        // cycle), multiplied by ones (mul_elem_64, one cycle) and converted
        const auto blocks = static_cast<std::uint64_t>(types[0].elements / 64);
        return fixed_cost(blocks * (2 * kBfpConvertCyclesPerBlock + 2));
    }
    if (symbol == "bfp16_matrix_multiplication" && types.size() == 3 && tensors_of(types, {bfp, bfp, bfp})) {
        // one mul_8x8_8x8T per 8x8 tile (512 MACs: one cycle at the peak) and its conversion back
        const auto tiles = static_cast<std::uint64_t>(types[0].elements / 8);
        const double peak = model::matmul_mac_peak(arch, bfp).macs_per_cycle;
        return fixed_cost(tiles * (static_cast<std::uint64_t>(512 / peak) + kBfpConvertCyclesPerBlock), tiles * 512);
    }
    if (symbol == "bfp16_passthrough_vectorized" && types.size() == 2 && tensors_of(types, {bfp, bfp})) {
        // [est] *out = *in: the tile's bytes through one 64-byte store port a cycle
        return fixed_cost(static_cast<std::uint64_t>((types[0].elements * kBfpBlockBytes + 63) / 64));
    }
    return std::nullopt;
}

} // namespace npusim::harness

#pragma once
// row_wise_bias_add: out[i*n + j] = in[i*n + j] + bias[j] for an m x n row-major float tile
// (IRON design E9, row_wise_bias_add_f32_f32 in programming_examples/basic/row_wise_bias_add/
// kernel.cc, compiled there with DIM_m = 96, DIM_n = 32). The AIE kernel walks the tile in
// 32-column strips with aie::vector<float, 32> loads and aie::add; the reference uses the host's
// IEEE single-precision addition (round to nearest even), which gives the same result for the
// design's golden (integers below 2^24, exact).
//
// Preconditions (violations throw std::invalid_argument):
//   - in, bias, out non-null; m > 0, n > 0,
//   - n % 32 == 0 (kernel.cc: static_assert(DIM_n % 32 == 0)).
// out may alias in (element-wise update).
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

// ---- cost constants (NPU1) --------------------------------------------------------------------
inline constexpr std::int32_t kBiasAddVectorLanes = 32; // kernel.cc: t = 32 floats per vector
// Store-bound: one 256-bit store (8 floats) per cycle ([doc] AM020, 1 x 256-bit store unit).
// NOTE: the work brief suggested 16 floats/cycle [est]; the single 256-bit store unit caps the
// output at 8 floats/cycle, so we use the documented bound.
inline constexpr std::uint64_t kBiasAddFloatsPerCycle = kStoreBytesPerCycle / sizeof(float); // 8
// Per 32-column strip: bias vector load + pointer reset, ~2 cycles [est].
inline constexpr std::uint64_t kBiasAddStripCycles = 2;

void row_wise_bias_add_f32(const float* in, const float* bias, float* out, std::int32_t m, std::int32_t n);

/// (body only) ceil(m * n / 8) + 2 * ceil(n / 32).
std::uint64_t row_wise_bias_add_f32_cycles(std::int32_t m, std::int32_t n);

} // namespace npusim::kernels

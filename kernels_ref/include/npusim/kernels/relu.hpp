#pragma once
// relu (bf16): out[i] = max(in[i], 0) (IRON ml/eltwise_unary op=relu: aie.iron.kernels.relu,
// aie_kernels/aie2(p)/relu.cc bf16_relu; npusim's AIE-API source is kernels_ref/aie/relu.cc).
//
// The AIE kernel loads 32 bf16 lanes (64 B), takes aie::max against a zero register and stores 64 B,
// in a loop compiled with AIE_LOOP_RANGE(32, 32): exactly 32 iterations, so a call covers exactly
// 1024 elements (IRON's kernels.relu fixes tile_size = 1024, _RELU_FIXED_TILE). The reference
// enforces that: n == 1024, in and out non-null (std::invalid_argument otherwise). A NaN input
// stays NaN (numpy's maximum, IRON's relu_ref); -0.0 becomes +0.0 (equal under every comparison).
#include <npusim/kernels/bfloat16.hpp>
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

// ---- cost constants (NPU1) --------------------------------------------------------------------
inline constexpr std::int32_t kReluLanes = 32; // relu.cc: v32bfloat16 per iteration
inline constexpr std::int32_t kReluElements = 1024; // AIE_LOOP_RANGE(32, 32) x 32 lanes
// [est] store-bound like E3's int16 kernel ([HW] row 4, [TH] row 7): one 64-byte store per 32
// lanes on the 256-bit store unit ([doc] kStoreBytesPerCycle) = 2 cycles; the 64-byte load fits the
// two 256-bit load units in one cycle and the max in the vector unit's slot: 64 cycles per 1024.
inline constexpr std::uint64_t kReluCyclesPerVector = 2;

void relu_bf16(const bfloat16* in, bfloat16* out, std::int32_t n);

/// 2 * n / 32: 64 at n = 1024, 72 with the call overhead the simulator adds.
std::uint64_t relu_bf16_cycles(std::int32_t n);

} // namespace npusim::kernels

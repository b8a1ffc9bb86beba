#pragma once
// eltwise_mul_add_bf16_vector (mlir-aie aie_kernels/aie2/scale_shift.cc @ 3ca0193c L15-89): over
// 1024 bf16 elements, c = a * b when is_mul, else c = a + b; each result is computed in float and
// rounded to the nearest bf16 (ties to even): the rounding of the source's scalar entry
// (eltwise_mul_add_bf16_scalar, scalar bfloat16 arithmetic) and of npusim's AIE-API kernels, which
// select conv_even (kernels_ref/aie/eltwise.cc). The source's vector entry sets no rounding mode, so at
// the core's reset mode (floor) its aie::mul / aie::add results are truncated to bf16 instead
// (tools/kernel_check/KernelDriversNorm.cpp drives both entries; docs/upstream-kernels.md).
// IRON's scale_shift (E15) calls it twice per element: D = A*B, then D + C.
#include <npusim/kernels/bfloat16.hpp>
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

inline constexpr std::int32_t kScaleShiftElements = 1024; // the kernel's template N
inline constexpr std::int32_t kScaleShiftLanes = 16; // vec_factor: 16 bf16 lanes per iteration
// [est] one pipelined iteration per 16 lanes (chess_prepare_for_pipelining, two 256-bit loads and
// one 256-bit store fit a cycle: [doc] 2 x 256-bit loads + 1 x 256-bit store per cycle on AIE-ML):
// 64 cycles per 1024 elements; no hardware trace of this kernel is published.
inline constexpr std::uint64_t kScaleShiftCyclesPerVector = 1;

/// c[i] = bf16(a[i] * b[i]) if is_mul != 0, else bf16(a[i] + b[i]), for n == 1024 elements.
void eltwise_mul_add_bf16(const bfloat16* a, const bfloat16* b, bfloat16* c, std::int32_t is_mul, std::int32_t n);

/// n / 16 cycles: 64 at n = 1024.
std::uint64_t eltwise_mul_add_bf16_cycles(std::int32_t n);

} // namespace npusim::kernels

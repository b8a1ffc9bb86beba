#pragma once
// mlir-aie aie_kernels/aie2/scale_shift.cc @ 3ca0193c: over 1024 bf16 elements, c = a * b when is_mul,
// else c = a + b, each result computed in float (a product of two bf16 is exact there) and rounded
// once to bf16:
//   eltwise_mul_add_bf16_vector (L28-69, L87-90): aie::mul / aie::add of 16-lane bf16 vectors, stored
//     through the float accumulator with the core's rounding mode. The source sets none, so at the
//     reset mode (floor) the magnitude is truncated (npusim's model, kernels_ref/aie_api/README.md).
//     IRON's scale_shift (E15) binds this entry and calls it twice per element: D = A*B, then D + C.
//   eltwise_mul_add_bf16_scalar (L15-26, L82-85): scalar bfloat16 arithmetic, rounded to nearest
//     even (as npusim's AIE-API eltwise kernels, which select conv_even: kernels_ref/aie/eltwise.cc).
// tools/kernel_check/KernelDriversNorm.cpp drives both upstream entries against these.
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

/// The vector entry: c[i] = a[i] * b[i] if is_mul != 0, else a[i] + b[i], truncated to bf16, n == 1024.
void eltwise_mul_add_bf16(const bfloat16* a, const bfloat16* b, bfloat16* c, std::int32_t is_mul, std::int32_t n);
/// The scalar entry: the same, rounded to the nearest bf16 (ties to even).
void eltwise_mul_add_bf16_nearest(const bfloat16* a, const bfloat16* b, bfloat16* c, std::int32_t is_mul,
                                  std::int32_t n);

/// n / 16 cycles: 64 at n = 1024.
std::uint64_t eltwise_mul_add_bf16_cycles(std::int32_t n);

} // namespace npusim::kernels

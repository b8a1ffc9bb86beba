#pragma once
// vector_scalar_mul: out[i] = in[i] * factor[0] (IRON design E3 and programming_guide section-4).
//
// Arithmetic, as in the AIE kernel aie_kernels/aie2/scale.cc:
//   - int16: the int32 factor is first converted to int16 (the kernel assigns it to a T), the
//     product is formed in a 32-bit accumulator (exact: |a*f| <= 2^30) and converted back to int16
//     with to_vector<int16>(0).
//   - int32: the product of two int32 is formed in a 64-bit accumulator (exact) and converted to
//     int32 with to_vector<int32>(0).
// Conversion choice: to_vector<T>(0) is a shift-round-saturate whose saturation depends on the
// core's global mode. The kernel never calls aie::set_saturation, so the default mode (no
// saturation) applies and the result is the low bits of the product (two's-complement
// wraparound). This is also what the design's golden expects: Python `(a*3).astype(int16)`
// wraps. So: out = (a * f) mod 2^16 (int16) / mod 2^32 (int32), reinterpreted as signed.
// The scalar variants (vector_scalar_mul_scalar in scale.cc: `c[i] = factor * a[i]` with a T
// factor) produce bit-identical results.
//
// Preconditions of the vector variants (scale.cc processes 32-element vectors in a loop compiled
// with chess_loop_range(16,) / a minimum trip count of 16):
//   - n is a multiple of 32, n >= 32 * 16 = 512,
//   - in, out, factor are non-null.
// The scalar variants accept any n >= 0. Violations throw std::invalid_argument.
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

// ---- cost constants (NPU1) --------------------------------------------------------------------
inline constexpr std::int32_t kVsmVectorLanes = 32; // scale.cc vec_factor
inline constexpr std::int32_t kVsmMinIterations = 16; // scale.cc chess_loop_range(16, )
// int16, vectorized + pipelined: store-bound 2-cycle loop per 32 elements ([TH] row 7:
// 2 x 256-bit stores per 32 int16): 64 cycles per 1024, + 8 cycles call overhead (added by the
// simulator) -> 72 ([HW] row 4).
inline constexpr std::uint64_t kVsmI16CyclesPerVector = 2;
// int32, vectorized + pipelined: 339 cycles per 1024 elements ([HW] row 3); with the same 8-cycle
// overhead the loop costs 331 cycles per 1024 elements (~10.3 cycles per 32-element vector,
// multiplier-bound: a 32x32-bit multiply is emulated with several 16-bit multiplies).
inline constexpr std::uint64_t kVsmI32CalibElements = 1024;
inline constexpr std::uint64_t kVsmI32CalibCycles = 339; // [HW] row 3
// Scalar variants: [HW] row 1 (int32 scalar kernel ~12,297 cycles per 1024) -> 12 cycles per
// element + 8 overhead; int16 scalar [est] the same per-element cost.
inline constexpr std::uint64_t kVsmScalarCyclesPerElement = kScalarLoopCyclesPerElement; // 12

void vector_scalar_mul_i16(const std::int16_t* in, std::int16_t* out, const std::int32_t* factor, std::int32_t n);
void vector_scalar_mul_i32(const std::int32_t* in, std::int32_t* out, const std::int32_t* factor, std::int32_t n);
void vector_scalar_mul_scalar_i16(const std::int16_t* in, std::int16_t* out, const std::int32_t* factor,
                                  std::int32_t n);
void vector_scalar_mul_scalar_i32(const std::int32_t* in, std::int32_t* out, const std::int32_t* factor,
                                  std::int32_t n);

/// 2 * ceil(n / 32): 64 at n = 1024, 72 with the call overhead ([HW] row 4).
std::uint64_t vector_scalar_mul_i16_cycles(std::int32_t n);
/// ceil(n * 331 / 1024): 331 at n = 1024, 339 with the call overhead ([HW] row 3).
std::uint64_t vector_scalar_mul_i32_cycles(std::int32_t n);
/// 12 * n: 12,288 at n = 1024, 12,296 with the call overhead ([HW] row 1: ~12,297).
std::uint64_t vector_scalar_mul_scalar_i16_cycles(std::int32_t n);
std::uint64_t vector_scalar_mul_scalar_i32_cycles(std::int32_t n);

} // namespace npusim::kernels

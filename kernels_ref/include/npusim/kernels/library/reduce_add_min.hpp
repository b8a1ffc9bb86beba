#pragma once
// reduce_add and reduce_min (IRON aie.iron.kernels.reduce_add / reduce_min, after mlir-aie
// aie_kernels/aie2/reduce_add.cc and reduce_min.cc, int32 only as upstream ships them):
//
//   reduce_add_*(in, out, n): out[0] = in[0] + ... + in[n-1], wrapping modulo 2^32 as the core's
//                             32-bit lanes (and its 32-bit scalar adds) do
//   reduce_min_*(in, out, n): out[0] = min(INT32_MAX, in[0..n))
//
// The vector and scalar variants give the same value (integer addition and min are associative);
// they differ only in cost. Preconditions as the kernels' loops assume them (violations throw
// std::invalid_argument): vector: n % 16 == 0 and n / 16 >= 8 (AIE_LOOP_MIN_ITERATION_COUNT(8) over
// 16 x int32); scalar: n >= 0; pointers non-null.
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels::library {

inline constexpr std::int32_t kReduceLanesI32 = 16; // one 512-bit vector of int32
inline constexpr std::int32_t kReduceMinIterations = 8; // the vector loop's minimum trip count
// [est] one vector add/min per cycle in the pipelined loop, then the 4-step shift_bytes butterfly
// (2 cycles each) and the extract: the same shape as reduce_max (reduce_max.hpp).
inline constexpr std::uint64_t kReduceTailCycles = 4 * 2 + 2;

void reduce_add_vector_i32(const std::int32_t* in, std::int32_t* out, std::int32_t n);
void reduce_add_scalar_i32(const std::int32_t* in, std::int32_t* out, std::int32_t n);
void reduce_min_vector_i32(const std::int32_t* in, std::int32_t* out, std::int32_t n);
void reduce_min_scalar_i32(const std::int32_t* in, std::int32_t* out, std::int32_t n);

/// n / 16 + the butterfly [est].
std::uint64_t reduce_vector_i32_cycles(std::int32_t n);
/// kScalarLoopCyclesPerElement per element [est].
std::uint64_t reduce_scalar_i32_cycles(std::int32_t n);

} // namespace npusim::kernels::library

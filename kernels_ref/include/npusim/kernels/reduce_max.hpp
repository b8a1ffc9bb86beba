#pragma once
// reduce_max: maximum of a vector (IRON design E5 vector_reduce_max, single core and the
// split/join mem-tile variant), after aie_kernels/aie2/reduce_max.cc.
//
//   reduce_max_vector_*(in, out, n): out[0] = max(lowest(T), in[0..n))
//   reduce_max_scalar_*(in, out, n): the same, element by element
//   compute_max_*(a, b, out):        out[0] = max(a[0], b[0]); out may alias a or b (E5 calls
//                                    compute_max(tmp, next, next))
//
// Semantics shared with the AIE kernel: the running maximum starts at
// std::numeric_limits<T>::lowest() (INT32_MIN; for bfloat16 the most negative *finite* value,
// -3.3895e38, bits 0xFF7F), and an element replaces it only when it compares greater. So for
// bfloat16: NaN elements are ignored, and an input of only -inf yields lowest() rather than -inf.
// n == 0 (scalar variant) yields lowest(). The vector variant mirrors the kernel's structure: a
// lane-wise running max over 512-bit vectors, then a shift_bytes/max butterfly and a final reduce.
//
// Preconditions (violations throw std::invalid_argument):
//   - vector i32:  n % 16 == 0 and n / 16 >= 8 (16 x int32 per 512-bit vector; the AIE kernel's
//                  loop is compiled for a minimum trip count of 8),
//   - vector bf16: n % 32 == 0 and n / 32 >= 8 (32 x bf16 per vector, same minimum trip count),
//   - scalar:      n >= 0,
//   - all pointers non-null.
#include <npusim/kernels/bfloat16.hpp>
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

// ---- cost constants (NPU1) --------------------------------------------------------------------
inline constexpr std::int32_t kReduceMaxLanesI32 = 16; // one 512-bit vector of int32
inline constexpr std::int32_t kReduceMaxLanesBf16 = 32; // one 512-bit vector of bfloat16
inline constexpr std::int32_t kReduceMaxMinIterations = 8; // minimum trip count of the vector loop
// Vector loop: one 512-bit vector per cycle, load-bound ([doc] AM020: 2 x 256-bit load units).
inline constexpr std::uint64_t kReduceMaxVectorsPerCycle = 1;
// Butterfly + final reduce after the loop: 2 cycles per shift_bytes/max stage (4 stages for int32,
// 5 for bf16) plus 2 for aie::reduce_max [est].
inline constexpr std::uint64_t kReduceMaxTailCyclesI32 = 4 * 2 + 2; // 10 [est]
inline constexpr std::uint64_t kReduceMaxTailCyclesBf16 = 5 * 2 + 2; // 12 [est]
// Scalar loop: 12 cycles per element, by analogy with [HW] row 1 (scalar int32 loop) [est].
inline constexpr std::uint64_t kReduceMaxScalarCyclesPerElement = kScalarLoopCyclesPerElement;

void reduce_max_vector_i32(const std::int32_t* in, std::int32_t* out, std::int32_t n);
void reduce_max_scalar_i32(const std::int32_t* in, std::int32_t* out, std::int32_t n);
void compute_max_i32(const std::int32_t* a, const std::int32_t* b, std::int32_t* out);

void reduce_max_vector_bf16(const npusim::bfloat16* in, npusim::bfloat16* out, std::int32_t n);
void reduce_max_scalar_bf16(const npusim::bfloat16* in, npusim::bfloat16* out, std::int32_t n);
void compute_max_bf16(const npusim::bfloat16* a, const npusim::bfloat16* b, npusim::bfloat16* out);

/// (body only) ceil(n / 16) vectors at 1 per cycle + 10-cycle tail.
std::uint64_t reduce_max_vector_i32_cycles(std::int32_t n);
/// (body only) ceil(n / 32) vectors at 1 per cycle + 12-cycle tail.
std::uint64_t reduce_max_vector_bf16_cycles(std::int32_t n);
/// (body only) 12 * n (either element type).
std::uint64_t reduce_max_scalar_cycles(std::int32_t n);
/// (body only) one scalar element step: 20 cycles [est].
std::uint64_t compute_max_cycles();

} // namespace npusim::kernels

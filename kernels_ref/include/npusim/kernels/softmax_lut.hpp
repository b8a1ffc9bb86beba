#pragma once
// softmax_bf16: the tile softmax of mlir-aie aie_kernels/aie2/softmax.cc (AIE2) and
// aie_kernels/aie2p/softmax.cc (AIE2P, softmax_exp2_bf16 below) (IRON
// aie.iron.kernels.softmax, ml/softmax), with the exp of aie_runtime_lib/AIE2/lut_based_ops.h
// getExpBf16. Reference C++ reproducing the AIE arithmetic step by step:
//   1. exp by two table lookups: v = bfloat16_to_int(x, 8), x in 8.8 fixed point (rounded to
//      nearest even as int32 [est], of which the source keeps the low 16 bits: |x| >= 128 wraps);
//      the high byte (the integer part, signed) indexes the integer table, the low byte (the
//      fraction / 256) the fraction table (parallel_lookup steps 8 and 0, lut_oor_policy::truncate);
//      exp = I * F as a float product of the two bf16 entries, converted to bf16 with the core's
//      rounding (floor at reset, which truncates: the kernel sets no mode).
//   2. sum: 16 float lanes accumulate the bf16 exps in order (lane i takes elements i, i + 16, ...),
//      then reduce_add halves the 16 lanes pairwise.
//   3. inverse: (bfloat16)aie::inv(sum): 1 / sum in float, rounded to nearest even [est: the
//      scalar inverse is taken as exact].
//   4. out = exp * inverse as a float product of two bf16 values, converted to bf16 truncating.
// The kernel does not subtract the maximum (softmax.cc as of this source; the AIE2P kernel does):
// inputs up to 88 stay finite (exp(88) is the integer table's last finite entry; it saturates there).
// The tables: integer entry i (i = -128..127) = exp(min(i, 88)) rounded to bf16 to nearest even,
// fraction entry f (f = 0..255) = exp(f / 256) rounded the same way; both equal the int16 tables
// exp_ilut_ab / exp_flut_ab of lut_based_ops.cpp entry for entry.
#include <npusim/kernels/bfloat16.hpp>
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

/// softmax.cc processes 16 lanes a step; IRON's kernels.softmax fixes the tile at 1024 elements
/// (_LUT_FIXED_TILE).
inline constexpr std::int32_t kSoftmaxLanes = 16;
inline constexpr std::int32_t kSoftmaxElements = 1024;

/// out[0..n) = softmax of in[0..n) as the AIE2 kernel computes it. n a positive multiple of 16
/// (std::invalid_argument otherwise, and for null pointers).
void softmax_lut_bf16(const bfloat16* in, bfloat16* out, std::int32_t n);

/// The AIE2P kernel (aie_kernels/aie2p/softmax.cc, 32 lanes a step, n a positive multiple of 32):
///   1. s = x * log2e in float with log2e the bf16 1.4453125 (the source's constant); the maximum
///      of s converted to bf16 (truncating: the core's reset rounding) over the tile
///   2. e = aie::exp2<bfloat16>(s - max), s - max in float [est: the exact exp2 of the float
///      argument rounded to bf16 to nearest even, exp2_bf16 of exp_bf16.hpp]; 32 float lanes
///      accumulate e in order, reduce_add halves them pairwise
///   3. inverse (bfloat16)aie::inv(sum) as in the AIE2 kernel; out = e * inverse truncated to bf16.
void softmax_exp2_bf16(const bfloat16* in, bfloat16* out, std::int32_t n);
inline constexpr std::int32_t kSoftmaxExp2Lanes = 32;

/// getExpBf16 for one value, and its two tables (bf16 bits), for tests.
bfloat16 exp_lut_bf16(bfloat16 x);
std::uint16_t exp_lut_integer_entry(int i); ///< i = -128..127
std::uint16_t exp_lut_fraction_entry(int f); ///< f = 0..255

/// [est] two passes of 16 lanes: the exp pass (load, two lookups, product, conversion, add,
/// store) about 4 cycles per step, the scaling pass (load, product, conversion, store) 2 cycles,
/// plus the reduction and the scalar inverse (32): 6 * n / 16 + 32.
std::uint64_t softmax_lut_bf16_cycles(std::int32_t n);
/// [est] three passes of 32 lanes (max, exp2 and sum, scaling), about 2 + 4 + 2 cycles per step,
/// plus 32: 8 * n / 32 + 32.
std::uint64_t softmax_exp2_bf16_cycles(std::int32_t n);

} // namespace npusim::kernels

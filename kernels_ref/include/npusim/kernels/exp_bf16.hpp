#pragma once
// bf16_exp: element-wise e^x of a bf16 tile, the kernels of mlir-aie aie_kernels/aie2/bf16_exp.cc
// (AIE2, exp_bf16_1024) and aie_kernels/aie2p/bf16_exp.cc (AIE2P) that IRON's
// aie.iron.kernels.bf16_exp (python/iron/kernels/activation.py) wraps. Reference C++ reproducing the
// AIE arithmetic step by step:
//   AIE2  (exp_bf16_lut): getExpBf16 of aie_runtime_lib/AIE2/lut_based_ops.h, 16 lanes a step: the
//         table exp of softmax_lut.hpp (exp_lut_bf16: 8.8 fixed point, integer-table entry x
//         fraction-table entry as a float product), converted to bf16 by to_v16bfloat16 with the
//         core's rounding (floor at reset: truncation; the kernel sets no mode).
//   AIE2P (exp_bf16_exp2): 16 lanes a step, s = x * log2e as an exact float product of two bf16
//         values, log2e = (bfloat16)1.44269504089 = 1.4453125 (nearest even); out = aie::exp2<bfloat16>(s):
//         s floored to a multiple of 2^-11 (the unit's input step, UG1639 VEXP2), then [est: the exact
//         2^s rounded to bf16 to nearest even — AMD does not define the unit's approximation].
// Golden (bf16_exp_ref): np.exp in float32 cast to bf16, rtol 0.128 (aie.utils.verify
// count_mismatches, stopping at the first non-finite value).
#include <npusim/kernels/bfloat16.hpp>
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

/// IRON's bf16_exp fixes the tile at 1024 elements (_LUT_FIXED_TILE; the symbol is exp_bf16_1024).
inline constexpr std::int32_t kExpElements = 1024;
inline constexpr std::int32_t kExpLanes = 16;

/// out[0..n) = e^in as the AIE2 kernel computes it. n a positive multiple of 16 (std::invalid_argument
/// otherwise, and for null pointers).
void exp_bf16_lut(const bfloat16* in, bfloat16* out, std::int32_t n);
/// out[0..n) = e^in as the AIE2P kernel computes it. Same requirements.
void exp_bf16_exp2(const bfloat16* in, bfloat16* out, std::int32_t n);
/// aie::exp2<bfloat16> of one float lane as npusim models it: s floored to a multiple of 2^-11 (the
/// unit's documented input step), then the exact 2^s rounded once to bf16 to nearest even [est].
bfloat16 exp2_bf16(float s);
/// One value of the AIE2P kernel: exp2(bf16(x) * 1.4453125) rounded to bf16 to nearest even.
bfloat16 exp_exp2_bf16(bfloat16 x);

/// [est] one 16-lane step a cycle in the pipelined loop (load, two lookups or mul + exp2, conversion,
/// store) plus 16 cycles of loop prologue: n / 16 + 16.
std::uint64_t exp_bf16_cycles(std::int32_t n);

} // namespace npusim::kernels

#pragma once
// rms_norm (mlir-aie aie_kernels/aie2p/rms_norm.cc @ 3ca0193, the kernel of programming_examples/ml/
// norm/norm.py op=rms; AIE2P only, there is no aie2 source): one row of `cols` bf16 values,
//   out = (x * gamma) / sqrt(mean(x^2) + eps),  gamma = 1, eps = 1e-5,
// computed as the source does:
//   - squares of the first cols - cols % 16 values are exact in float (mul_square) and summed per
//     lane in float (lane l collects x[l], x[l+16], ... in order); the 16 lane sums are reduced
//     pairwise (aie::reduce_add: lanes l and l+8, then l and l+4, ...); the remaining cols % 16
//     squares are then added one by one in float;
//   - r = sum / cols + eps in float; inv = invsqrt(r), the exact 1/sqrt(r) rounded to float to
//     nearest even [est: AMD does not publish the invsqrt unit]; inv_b = bf16(inv) to nearest even
//     (a scalar static_cast);
//   - vector part: out = bf16(x * inv_b) stored at the core's rounding mode (floor at reset: the
//     magnitude truncated; the source sets no mode), times gamma = 1 (exact);
//     tail (cols % 16 values): bf16(float(x) * inv) to nearest even (scalar casts), times gamma.
#include <npusim/kernels/bfloat16.hpp>
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

inline constexpr int kRmsNormLanes = 16; // rms_norm<bfloat16, 16>
inline constexpr float kRmsNormEpsilon = 1e-5f;

/// out[0..cols) = rms_norm(in[0..cols)), cols > 0.
void rms_norm_bf16(const bfloat16* in, bfloat16* out, std::int32_t cols);

// Cost [est] (no trace published): two pipelined passes over the row's 16-lane vectors. The first
// loads, squares and adds (one vector a cycle: one load, one multiply, one float add in separate VLIW
// slots); the second issues two multiplies per vector (x * inv, then * gamma) on the one vector
// multiplier: 2 cycles. Between them the 16-lane reduction, the division and invsqrt: [est] 24
// cycles. Each scalar tail element costs kScalarLoopCyclesPerElement in each of the two loops.
inline constexpr std::uint64_t kRmsNormMiddleCycles = 24;
std::uint64_t rms_norm_bf16_cycles(std::int32_t cols);

} // namespace npusim::kernels

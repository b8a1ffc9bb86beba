#pragma once
// The tanh-based bf16 activations of IRON's kernel factories (mlir-aie python/iron/kernels/activation.py
// gelu, silu, swiglu; 3ca0193): silu_bf16, gelu_bf16 and swiglu_bf16 of aie_kernels/aie2/{silu,gelu,
// swiglu}.cc and aie_kernels/aie2p/{silu,gelu,swiglu}.cc, one 1024-element tile per call.
//
// Arithmetic, step by step as the sources write it (16 lanes a step; every lane independent):
//   silu(x)      = x * s,  s = (tanh(x * 0.5) + 1) * 0.5                 (sigmoid as tanh)
//   gelu(x)      = x * (0.5 * (1 + tanh(c * (x + beta * x^3)))),  c = bf16(0.79788456), beta = bf16(0.044715)
//   swiglu(x, w1, w2) = (x * w1) * silu(x * w2)
// Every aie::mul of bf16 vectors is an exact float product; every aie::add of bf16 vectors a float sum;
// each is rounded to bf16 where the source stores it in a bf16 vector, with the core's rounding mode.
// None of the sources sets a mode, so that is the reset mode, floor, which npusim's host layer applies
// to the magnitude (truncation of the low 16 bits; kernels_ref/aie_api/README.md).
// tanh: AIE2 calls getTanhBf16 on a bf16 vector, AIE2P aie::tanh<bfloat16> on a float vector; npusim
// models both as the exact tanh rounded once to bf16 to nearest even [est] (the host layer's
// lut_based_ops.h and elementary.hpp state the distance from upstream's AIE2 piecewise approximation).
// The generations differ where a source keeps a float product for tanh: AIE2P's gelu takes tanh of
// the unrounded float c * inner, AIE2's of its bf16 truncation (silu and swiglu give the same bits on
// both: x * 0.5 of a bf16 value is exact).
#include <npusim/kernels/bfloat16.hpp>
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

inline constexpr std::int32_t kTanhActElements = 1024; // the sources' fixed input_size
inline constexpr std::int32_t kTanhActLanes = 16;

/// out[i] = silu(in[i]), n a positive multiple of 16 (the factories call it with 1024).
void silu_bf16(const bfloat16* in, bfloat16* out, std::int32_t n, bool aie2p);
/// out[i] = gelu(in[i]) (tanh approximation).
void gelu_bf16(const bfloat16* in, bfloat16* out, std::int32_t n, bool aie2p);
/// out[i] = (in[i] * w1[i]) * silu(in[i] * w2[i]).
void swiglu_bf16(const bfloat16* in, const bfloat16* w1, const bfloat16* w2, bfloat16* out, std::int32_t n,
                 bool aie2p);

// Cost [est]: no trace of these kernels is published. The loop is pipelined (AIE_PREPARE_FOR_PIPELINING)
// and bound by the vector unit: one 16-lane bf16 multiply issues per cycle, so a step takes as many
// cycles as it has aie::mul calls, plus the tanh: AIE2's getTanhBf16 is a table lookup and a
// multiply-add ([est] 2 cycles), AIE2P's aie::tanh one unit op ([est] 1 cycle). The adds and
// conversions share those cycles' other VLIW slots; the loads (at most 3 x 32 bytes a step) fit the
// two 256-bit load units. At 16 lanes a cycle the rate stays far below the matrix unit's bf16 peak.
inline constexpr std::uint64_t kSiluMulsPerStep = 3;   // x*0.5, (t+1)*0.5, x*s
inline constexpr std::uint64_t kGeluMulsPerStep = 6;   // x*x, x*x2, x3*beta, inner*c, 0.5*(1+t), x*m
inline constexpr std::uint64_t kSwigluMulsPerStep = 6; // x*w1, x*w2, m2*0.5, (t+1)*0.5, m2*s, m1*silu
inline constexpr std::uint64_t kTanhCyclesAie2 = 2;
inline constexpr std::uint64_t kTanhCyclesAie2p = 1;

std::uint64_t silu_bf16_cycles(std::int32_t n, bool aie2p);
std::uint64_t gelu_bf16_cycles(std::int32_t n, bool aie2p);
std::uint64_t swiglu_bf16_cycles(std::int32_t n, bool aie2p);

} // namespace npusim::kernels

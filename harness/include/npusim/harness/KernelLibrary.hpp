#pragma once
// The built-in kernel library (IRON aie.iron.kernels, mlir-aie python/iron/kernels/eltwise.py and
// reduce.py, activation.py): factories of iron::Kernel with upstream's names, argument types, defaults and checks,
// bound to the reference kernels (kernels_ref/) or, with KernelSet::aie, to the AIE-API builds of
// the upstream AIE-API sources (kernels_ref/aie/). Each factory call makes a new Kernel (an AIE-API
// one with its own core modes; pass the same Kernel to workers that share a core's modes).
//
// They live in harness/ because the AIE-API builds do: frontend links kernels_ref but not the
// AIE-API layer (docs/iron-helpers.md). Where upstream raises a ValueError the factory throws a
// DesignError with its text (the dtype written as npusim names it: i32, bf16, ...).
#include "npusim/frontend/Kernel.hpp"
#include "npusim/harness/KernelSet.hpp"
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>

namespace npusim::harness::iron_kernels {

/// reduce_add(tile_size=1024, dtype=int32, vectorized=True): (in: dtype[tile], out: dtype[1], n: i32),
/// out[0] = sum (wrapping). int32 only.
iron::Kernel reduce_add(std::int64_t tile_size = 1024, DType dtype = DType::i32, bool vectorized = true,
                        KernelSet ks = KernelSet::reference);
/// reduce_min: out[0] = min(in). int32 only.
iron::Kernel reduce_min(std::int64_t tile_size = 1024, DType dtype = DType::i32, bool vectorized = true,
                        KernelSet ks = KernelSet::reference);
/// reduce_max: int32 (out i32[1]) or bfloat16 (out bf16[2]: a 4-byte DMA-aligned tile).
iron::Kernel reduce_max(std::int64_t tile_size = 1024, DType dtype = DType::i32, bool vectorized = true,
                        KernelSet ks = KernelSet::reference);
/// compute_max(dtype=int32): (a, b, out), each a DMA-aligned one-value tile.
iron::Kernel compute_max(DType dtype = DType::i32, KernelSet ks = KernelSet::reference);
/// add / mul (tile_size must be 1024, bfloat16 only): (a, b, c), c = bf16(a op b).
iron::Kernel add(std::int64_t tile_size = 1024, DType dtype = DType::bf16, bool vectorized = true,
                 KernelSet ks = KernelSet::reference);
iron::Kernel mul(std::int64_t tile_size = 1024, DType dtype = DType::bf16, bool vectorized = true,
                 KernelSet ks = KernelSet::reference);
/// relu (tile_size must be 1024): bf16_relu(in, out).
iron::Kernel relu(std::int64_t tile_size = 1024, KernelSet ks = KernelSet::reference);
/// bf16_exp(tile_size=1024) (activation.py; tile_size must be 1024): exp_bf16_1024(in, out) of
/// bf16[1024]. IRON picks the device generation's source (_detect_arch); here `arch` says it: AIE2
/// runs aie2/bf16_exp.cc (table exp), AIE2P aie2p/bf16_exp.cc (exp2).
iron::Kernel bf16_exp(model::Arch arch, std::int64_t tile_size = 1024, KernelSet ks = KernelSet::reference);
/// softmax(tile_size=1024) (activation.py; tile_size must be 1024): softmax_bf16(in, out, n: i32) of
/// bf16[1024]; AIE2 runs aie2/softmax.cc, AIE2P aie2p/softmax.cc.
iron::Kernel softmax(model::Arch arch, std::int64_t tile_size = 1024, KernelSet ks = KernelSet::reference);
/// gelu(tile_size=1024) / silu(tile_size=1024) (activation.py; tile_size must be 1024):
/// gelu_bf16(in, out) / silu_bf16(in, out) of bf16[1024]; swiglu(tile_size=1024):
/// swiglu_bf16(in, w1, w2, out). AIE2 runs aie2/{gelu,silu,swiglu}.cc, AIE2P aie2p/ (reference
/// kernels_ref/activation_tanh.hpp, AIE-API builds kernels_ref/aie/activation_tanh.cc).
iron::Kernel gelu(model::Arch arch, std::int64_t tile_size = 1024, KernelSet ks = KernelSet::reference);
iron::Kernel silu(model::Arch arch, std::int64_t tile_size = 1024, KernelSet ks = KernelSet::reference);
iron::Kernel swiglu(model::Arch arch, std::int64_t tile_size = 1024, KernelSet ks = KernelSet::reference);
/// passthrough(tile_size=4096, dtype=int32): passThroughLine(in, out, n); u8, i16 or i32.
iron::Kernel passthrough(std::int64_t tile_size = 4096, DType dtype = DType::i32, KernelSet ks = KernelSet::reference);
/// scale(tile_size=1024, dtype=int32, vectorized=True): vector_scalar_mul_*(in, out, factor: i32[1],
/// n: i32); int16 or int32.
iron::Kernel scale(std::int64_t tile_size = 1024, DType dtype = DType::i32, bool vectorized = true,
                   KernelSet ks = KernelSet::reference);

} // namespace npusim::harness::iron_kernels

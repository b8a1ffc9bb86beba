#pragma once
// Cost models for the block floating-point kernels of mlir-aie (3ca0193) that IRON designs compile at
// run time as ExternalFunctions (npusim python): without one, a run-time compiled kernel costs the
// Kernel default, 32 bytes of its views per cycle (frontend/src/Kernel.cpp), whatever it computes.
// Each model follows the kernel's loop structure on AIE2P; the MACs run at the bfp16 peak
// (model::matmul_mac_peak: one mac_8x8_8x8T, 512 MAC, per cycle) and never faster. Symbols:
//   matmul_vectorized_bfp16(A bfp, B bfp, C bfp)   aie_kernels/aie2p/mm_bfp.cc l.182-199, and the
//                                                  ATB configs' mm_bfp_mixed.cc (config2, config3)
//   matmul_vectorized_different_datatypes(A bf16, B bfp, C bf16)
//                                                  aie_kernels/aie2p/mm_bfp_mixed.cc l.133-151, ATB config1
//   zero_kernel(C bfp), zero_kernel_bf16(C bf16)   mm_bfp.cc l.202-204, mm_bfp_mixed.cc l.154-156
//   scalar_shuffle(in u8, out u8, w, h, unshuffle) mm_bfp.cc l.208-211 (scalarShuffleMatrixForBfp16ebs8)
//   bf16_to_bfp_conversion, bfp16_matrix_multiplication
//                                                  ml/block_datatypes/bfp_conversion/kernel.cc
//   bfp16_passthrough_vectorized                   ml/block_datatypes/vector_passthrough/kernel.cc
// The tile sizes come from the argument types and the kernel's -DDIM_K (its K, default 64 as in
// mm_bfp.cc l.162): a matmul's rows are A's values / K and its columns B's values / K, so a kernel
// handed a larger C buffer than it works on (ATB config1: the whole m x n C tile, a quarter a call)
// is charged for the work it does. The numbers marked [est] are documented in
// docs/block-floating-point.md, "Kernel cost models".
#include "npusim/frontend/Kernel.hpp"
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npusim::harness {

/// [est] Converting one 64-value bf16 block to v64bfp16ebs8 (load_v<64>, accum<accfloat, 64>,
/// to_vector<bfp16ebs8>, a block stream push): bound by the 72-byte store on one 64-byte store port
/// (2 cycles); the 128-byte load takes one cycle on AIE2P's two 64-byte load ports.
inline constexpr std::uint64_t kBfpConvertCyclesPerBlock = 2;

/// Cycles of matmul_vectorized_different_datatypes on a rows x k x cols tile: A's conversion to
/// bfp16 blocks, then the bfp16 MAC loop of KernelLibraryBfp (bfp16_matmul_cycles).
std::uint64_t bfp16_mixed_matmul_cycles(std::int64_t rows, std::int64_t k, std::int64_t cols);

/// A cost model and the MACs it stands for (0: no matrix work).
struct UpstreamCost {
    iron::CostModel cost;
    std::uint64_t macs = 0;
};

/// The cost model of `symbol` with these argument types and compile flags on `arch`, or nothing
/// (another kernel, sizes the kernel cannot have, or AIE2, which has no bfp16 datapath).
std::optional<UpstreamCost> upstream_bfp_cost(const std::string& symbol, const std::vector<iron::ArgType>& types,
                                              const std::vector<std::string>& compile_flags, model::Arch arch);

} // namespace npusim::harness

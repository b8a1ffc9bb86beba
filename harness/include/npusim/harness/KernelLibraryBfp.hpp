#pragma once
// The block floating-point (v8bfp16ebs8) matmul kernels of the built-in library, after mlir-aie's
// aie_kernels/aie2p/mm_bfp.cc (3ca0193): C = bfp16(C + A . B^T) on an m x k tile of A, an n x k tile
// of B (B given transposed) and an m x n tile of C, every tile in 8x8-subtile order (72 bytes a
// subtile), and the zero kernel. With KernelSet::aie the AIE-API build (kernels_ref/aie/mm_bfp.cc)
// runs, else the scalar model below. The matmul_bfp16 design (examples/src/MatmulBfp16.cpp) and the
// Python symbols of mm_bfp.cc (python/src/BindKernelSymbols.cpp) bind these, so both cost the same.
#include "npusim/frontend/Kernel.hpp"
#include "npusim/harness/KernelSet.hpp"

#include <cstdint>
#include <string>

namespace npusim::harness::iron_kernels {

/// One K tile on an m x n C tile (all in 8x8-subtile order): C = bfp16(C + A . B^T), each output lane
/// adding the k/8 block dot products in order, each in one float rounding, then quantized back with
/// truncation (the reset rounding mode). A plain scalar model, independent of the AIE-API host layer.
void bfp16_tile_matmul(const std::uint8_t* a, const std::uint8_t* bt, std::uint8_t* c, int m, int k, int n);
/// Quantize 8 floats into one 9-byte block: E = the largest exponent field, m = floor(significand /
/// 2^(17 + E - e)).
void bfp16_quantize(const float* x, std::uint8_t* out);

/// One call's cycles of the 2x2 bfp16 matmul loop (mm_bfp.cc matmul_vectorized_2x2_bfp16, l.78-150):
/// the MACs at the matrix unit's peak (model::matmul_mac_peak, 512 MAC/cycle: one mac_8x8_8x8T a
/// cycle) plus [est] 16 cycles per 2x2 step of its outer loops (loading four C accumulators before
/// the first MAC, draining the MAC pipeline and storing four blocks after the last).
std::uint64_t bfp16_matmul_cycles(std::int64_t m, std::int64_t k, std::int64_t n);
/// [est] One 72-byte block vector stored per cycle, + 8: an m x n bfp16 zero of `values` values.
std::uint64_t bfp16_zero_cycles(std::int64_t values);

/// `name`(a: v8bfp16ebs8[m, k/8], b: v8bfp16ebs8[n, k/8], c: v8bfp16ebs8[m, n/8]). [est] cost: the
/// matrix unit's one 8x8x8 MAC per cycle (model::matmul_mac_peak, 512 MAC/cycle) plus 16 cycles per
/// 2x2 step of the outer loops; never faster than the peak.
iron::Kernel bfp16_matmul(std::int64_t m, std::int64_t k, std::int64_t n, KernelSet ks = KernelSet::reference,
                          std::string name = "matmul_bfp16");
/// `name`(c: v8bfp16ebs8[m, n/8]): all-zero blocks. [est] one 72-byte block vector stored per cycle.
iron::Kernel bfp16_zero(std::int64_t m, std::int64_t n, KernelSet ks = KernelSet::reference,
                        std::string name = "zero_bfp16");

} // namespace npusim::harness::iron_kernels

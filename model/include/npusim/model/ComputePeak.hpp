#pragma once
// The peak of one core's matrix unit per generation and input element type: MACs per cycle of the
// mmul shape the toolchain's matmul kernels use (one mmul per cycle when the pipeline is full).
// Kernel cost models divide by it (never exceeding it): cycles = MACs / (peak x efficiency).
//
//                AIE2 (npu1)                        AIE2P (npu2)
//   i8           256  (4x8x8)                       512  (8x8x8)
//   i16           64  (4x4x4)                       128  (4x4x8)
//   bf16         128  (4x8x4)                       256  (4x8x8; 8x8x8 only through bfp16 emulation)
//   bfp16ebs8      -  (no bfp16 datapath)           512  (8x8x8, mac_8x8_8x8T; per value, not per block)
//
// Sources: [doc] AM020 "Summary" (AIE-ML: INT8 512 ops, INT16 128 ops, BF16 256 FLOP per tile per
// cycle); [code] mlir-aie aie_kernels/aie2/mm.cc and aie_kernels/aie2p/mm.cc (the r x s x t shapes
// of matmul_vectorized_*); docs/timing-model.md, "Kernel cost models".
#include "npusim/model/DType.hpp"
#include "npusim/model/DeviceSpec.hpp"

namespace npusim::model {

struct MacPeak {
    double macs_per_cycle = 0;
    const char* mmul_shape = ""; ///< "4x4x4"
    const char* source = "";
};

/// Peak MACs per cycle for A/B elements of type `in` on `arch`; DesignError for a type the
/// matrix unit does not take (i32, f32: emulated, no published rate).
MacPeak matmul_mac_peak(Arch arch, DType in);

} // namespace npusim::model

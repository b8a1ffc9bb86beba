#include "npusim/model/ComputePeak.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::model {

MacPeak matmul_mac_peak(Arch arch, DType in) {
    const bool p = arch == Arch::AIE2P;
    switch (in) {
    case DType::i8:
    case DType::u8:
        return p ? MacPeak{512, "8x8x8", "[code] mlir-aie aie2p/mm.cc matmul_vectorized_8x8x8_i8_*"}
                 : MacPeak{256, "4x8x8", "[doc] AM020 INT8 512 ops/tile/cycle; [code] aie2/mm.cc 4x8x8 i8"};
    case DType::i16:
        return p ? MacPeak{128, "4x4x8", "[code] mlir-aie aie2p/mm.cc matmul_vectorized_4x4x8_i16_*"}
                 : MacPeak{64, "4x4x4", "[doc] AM020 INT16 128 ops/tile/cycle; [code] aie2/mm.cc 4x4x4 i16"};
    case DType::bf16:
        return p ? MacPeak{256, "4x8x8",
                           "[code] mlir-aie aie2p/mm.cc matmul_vectorized_4x8x8_bf16_* (8x8x8 only with "
                           "AIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16, a different number format)"}
                 : MacPeak{128, "4x8x4", "[doc] AM020 BF16 256 FLOP/tile/cycle; [code] aie2/mm.cc 4x8x4 bf16"};
    case DType::bfp16ebs8: // one mac_8x8_8x8T (8x8x8 = 512 MACs) per cycle; AIE2 has no bfp16 datapath
        if (p)
            return MacPeak{512, "8x8x8",
                           "[code] mlir-aie aie2p/mm_bfp.cc mac_8x8_8x8T; [doc] Hello-XDNA xdna2_kernel.rst: "
                           "bfp16 1,024 FLOP/cycle per tile (docs/calibration.md row 23)"};
        break;
    default: break;
    }
    throw DesignError(fmt::format("no matrix-unit peak for {} inputs on {} (the mmul unit takes i8, i16 and bf16)",
                                  dtype_name(in), arch_name(arch)));
}

} // namespace npusim::model

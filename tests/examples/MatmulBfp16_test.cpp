// matmul_bfp16 (ml/block_datatypes single_core on npu2): the reference and AIE-API kernel builds
// against the design's golden, byte for byte; the fifo objects and BDs sized 9 bytes per 8 values;
// the MLIR export's !aiex.bfp element type; the bfp16 peak.
#include "npusim/frontend/MlirExport.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/ComputePeak.hpp"
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace npusim;
using namespace npusim::harness;

TEST_CASE("v8bfp16ebs8: a 9-byte element of 8 values", "[examples][bfp16]") {
    STATIC_REQUIRE(dtype_bytes(DType::bfp16ebs8) == 9);
    STATIC_REQUIRE(dtype_block_values(DType::bfp16ebs8) == 8);
    CHECK(dtype_name(DType::bfp16ebs8) == "v8bfp16ebs8");
    CHECK(dtype_block_values(DType::bf16) == 1);
    CHECK(iron::TensorType{DType::bfp16ebs8, {64, 8}}.bytes() == 64u * 8u * 9u);
    const auto peak = model::matmul_mac_peak(model::Arch::AIE2P, DType::bfp16ebs8);
    CHECK(peak.macs_per_cycle == 512); // mac_8x8_8x8T each cycle: twice AIE2P's bf16 peak
    CHECK(peak.macs_per_cycle == 2 * model::matmul_mac_peak(model::Arch::AIE2P, DType::bf16).macs_per_cycle);
    CHECK_THROWS_AS(model::matmul_mac_peak(model::Arch::AIE2, DType::bfp16ebs8), DesignError);
}

TEST_CASE("matmul_bfp16 matches its golden with the reference and the AIE-API kernels", "[examples][bfp16]") {
    for (const auto ks : {KernelSet::reference, KernelSet::aie})
        for (const Params& p : {Params{}, Params{{"M", 128}, {"K", 256}, {"N", 64}, {"m", 32}, {"k", 64}, {"n", 32}}}) {
            INFO("kernels " << kernel_set_name(ks) << " K " << (p.count("K") ? p.at("K") : 128));
            const auto r =
                run_design(design_by_name("matmul_bfp16"), "npu2_1col", p, test::run_opts("npu2_1col", 3, ks));
            REQUIRE(r.checks.size() == 1);
            INFO(r.checks[0].first_mismatches);
            CHECK(r.all_match);
            CHECK(r.checks[0].mismatches == 0);
            CHECK(r.checks[0].elements == (p.empty() ? 128 * 128 / 8 : 128 * 64 / 8));
        }
}

TEST_CASE("matmul_bfp16: fifo objects of 9 bytes per 8 values, the !aiex.bfp type in the export, npu2 only",
          "[examples][bfp16]") {
    const auto& spec = design_by_name("matmul_bfp16");
    const auto& dev = model::device_by_name("npu2_1col");
    const auto inst = spec.build(dev, spec.resolve_params({}), 1);
    const auto net = inst.program.resolve();
    int seen = 0;
    for (const auto& b : net.buffers)
        if (b.name.rfind("memA_cons_buff_", 0) == 0 || b.name.rfind("inA_cons_buff_", 0) == 0) {
            CHECK(b.bytes == 64u * 64u / 8u * 9u); // m x k values = 512 blocks of 9 bytes
            ++seen;
        }
    CHECK(seen > 0);
    const std::string mlir = iron::export_mlir(inst.program);
    CHECK(mlir.find("memref<64x8x!aiex.bfp<\"v8bfp16ebs8\">>") != std::string::npos);
    CHECK(mlir.find("memref<2048x!aiex.bfp<\"v8bfp16ebs8\">>") != std::string::npos); // A: 128 x 128 / 8
    CHECK(std::find(spec.devices.begin(), spec.devices.end(), "npu1") == spec.devices.end());
}

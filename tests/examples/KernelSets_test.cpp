// The AIE-API kernel builds of the designs (E1, E3) against their reference builds, and the
// designs that refuse them.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

namespace {

using test::run_opts;

} // namespace

TEST_CASE("kernels=aie: E1 and E3 bind the AIE-API kernel builds and pass on npu1 and npu2", "[golden][aie]") {
    for (const char* device : {"npu1_1col", "npu1", "npu2_1col", "npu2"}) {
        for (auto ks : {KernelSet::reference, KernelSet::aie}) {
            INFO(device << " kernels=" << kernel_set_name(ks));
            auto o = run_opts(device, 11);
            o.kernels = ks;
            for (std::int64_t bits : {8, 16, 32}) {
                const auto r = run_design(design_by_name("passthrough_kernel"), device, {{"bits", bits}}, o);
                INFO("E1 bits=" << bits);
                CHECK(r.kernels == ks);
                CHECK(r.all_match);
            }
            for (std::int64_t bits : {16, 32}) {
                const auto r =
                    run_design(design_by_name("vector_scalar_mul"), device, {{"bits", bits}, {"factor", -29}}, o);
                INFO("E3 bits=" << bits << ": " << (r.checks.empty() ? "" : r.checks[0].first_mismatches));
                CHECK(r.all_match);
            }
        }
    }
    // The AIE-API and reference builds compute the same bits, cycle counts use the same cost models.
    auto ref = run_opts("npu2", 3), aie = run_opts("npu2", 3);
    aie.kernels = KernelSet::aie;
    const auto r1 = run_design(design_by_name("vector_scalar_mul"), "npu2", {{"bits", 32}, {"factor", 70000}}, ref);
    const auto r2 = run_design(design_by_name("vector_scalar_mul"), "npu2", {{"bits", 32}, {"factor", 70000}}, aie);
    CHECK(r1.result.host == r2.result.host);
    CHECK(r1.result.cycles == r2.result.cycles);
}

TEST_CASE("kernels=aie is refused where a design has no kernel or the tile is not whole vectors", "[golden][aie]") {
    auto o = run_opts("npu1");
    o.kernels = KernelSet::aie;
    CHECK_THROWS_WITH(
        run_design(design_by_name("passthrough_dmas"), "npu1", {}, o),
        "design 'passthrough_dmas' has no AIE-API kernel build (no kernel: data moves by DMA only); designs with one: "
        "passthrough_kernel, vector_scalar_mul, matmul_single_core, matmul_bfp16, matmul_whole_array, matmul_cascade, "
        "vector_reduce_max, "
        "vector_reduce_max_memtile, row_wise_bias_add, memcpy, relu, edge_detect, color_detect, color_threshold, "
        "softmax, swiglu, rms_norm, conv2d, reduce, stream_port_passthrough");
    CHECK_THROWS_WITH(
        run_design(design_by_name("vector_vector_add"), "npu1", {}, o),
        Catch::StartsWith("design 'vector_vector_add' has no AIE-API kernel build (no external kernel: the add runs in "
                          "the core body)"));
    CHECK_THROWS_WITH(
        run_design(design_by_name("passthrough_kernel"), "npu1", {{"size", 4000}, {"tile", 40}}, o),
        "design 'passthrough_kernel': the AIE-API passThrough kernel works on whole 512-bit vectors of 64 elements; "
        "parameter tile=40 is not a multiple of 64");
    CHECK_THROWS_WITH(
        run_design(design_by_name("vector_scalar_mul"), "npu1", {{"size", 4080}, {"tile", 48}}, o),
        "design 'vector_scalar_mul': the AIE-API scale kernel works on whole 512-bit vectors of 32 elements; parameter "
        "tile=48 is not a multiple of 32");
}

// E8 matmul_cascade (mlir-aie programming_examples/basic/matrix_multiplication/cascade/cascade.py):
// golden A @ B (int64, then int32) on npu1 and npu2 with the reference's parameters, the AIE-API
// kernel build (put_mcd / get_scd_v16int32), the twelve cascades it declares, cycles that count
// the cascade, and its parameter errors.
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

namespace {

RunOptions cascade_run_opts(const std::string& device, KernelSet ks = KernelSet::reference) {
    return test::run_opts(device, 3, ks);
}

} // namespace

TEST_CASE("matmul_cascade: cascade.py's defaults match the golden on npu1 and npu2", "[examples][cascade][slow]") {
    for (const char* device : {"npu1", "npu2"}) {
        INFO(device);
        const auto r = run_design(design_by_name("matmul_cascade"), device, {}, cascade_run_opts(device));
        REQUIRE(r.checks.size() == 1);
        INFO(r.checks[0].first_mismatches);
        CHECK(r.all_match);
        CHECK(r.checks[0].elements == 512 * 512);
        CHECK(r.params.at("M") == 512);
        CHECK(r.params.at("m") == 32);
        CHECK(r.params.at("cols") == 4);
        // 16 cores: row 0 calls zero + get_only, the others put_get / put_only, (M/m)(N/n)/16 = 16
        // tiles x K/k/4 = 4 k-steps per loop; the loop runs 4 times (while_true) to use every fill.
        REQUIRE(r.result.cores.size() == 16);
        const std::uint64_t per_call = 32ull * 32 * 32; // [est] one scalar MAC per cycle
        for (const auto& c : r.result.cores) {
            INFO(c.worker);
            CHECK(c.iterations == 4);
            // row 0: the fifth loop zeroes its first C tile, then waits for A that never comes.
            if (c.worker.starts_with("cascade_0_"))
                CHECK((c.kernel_calls == 4 * (16 + 64) || c.kernel_calls == 4 * (16 + 64) + 1));
            else
                CHECK(c.kernel_calls == 4 * 64);
            CHECK(c.kernel_cycles >= 256 * per_call);
        }
        // Compute-bound: the run is the busiest core's kernels plus the fills and drains around them.
        CHECK(r.result.cycles >= 256 * per_call);
        CHECK(r.result.cycles < 256 * per_call * 11 / 10);
    }
}

TEST_CASE("matmul_cascade: the AIE-API kernels (put_mcd / get_scd) give the same bits", "[examples][cascade]") {
    const Params small{{"M", 128}, {"K", 128}, {"N", 128}};
    for (const char* device : {"npu1", "npu2"}) {
        INFO(device);
        const auto ref = run_design(design_by_name("matmul_cascade"), device, small, cascade_run_opts(device));
        const auto aie = run_design(design_by_name("matmul_cascade"), device, small, cascade_run_opts(device, KernelSet::aie));
        CHECK(ref.all_match);
        CHECK(aie.all_match);
        CHECK(aie.result.cycles == ref.result.cycles);
    }
    const auto i16 = run_design(design_by_name("matmul_cascade"), "npu1",
                                {{"M", 128}, {"K", 128}, {"N", 128}, {"dtype_out", param_name_code("i16")}},
                                cascade_run_opts("npu1", KernelSet::aie));
    CHECK(i16.all_match);
}

TEST_CASE("matmul_cascade: twelve cascades, north to south in each column", "[examples][cascade]") {
    const auto& spec = design_by_name("matmul_cascade");
    const auto inst = spec.build(model::device_by_name("npu1"), spec.resolve_params({}), 1);
    const auto net = inst.program.resolve();
    REQUIRE(net.cascades.size() == 12);
    for (const auto& c : net.cascades) {
        CHECK(c.src.col == c.dst.col);
        CHECK(c.dst.row == c.src.row - 1);
    }
    // In IRON's order: the Program's workers (row 0 first), each one's outgoing cascades.
    CHECK(net.cascades.front().describe() ==
          "cascade from worker 'cascade_1_0' on (0,3) to worker 'cascade_0_0' on (0,2)");
}

TEST_CASE("matmul_cascade: the cascade's time is counted", "[examples][cascade][timing]") {
    // A slower cascade word (latency 200 cycles with a 4-word FIFO: at most 4 words per 200 cycles)
    // makes the 1024 words of a call slower than its 32,768 cycles of work.
    const Params small{{"M", 128}, {"K", 128}, {"N", 128}};
    auto o = cascade_run_opts("npu1");
    const auto base = run_design(design_by_name("matmul_cascade"), "npu1", small, o);
    o.sim.timing.cascade_word_latency_cycles = 200;
    const auto slow = run_design(design_by_name("matmul_cascade"), "npu1", small, o);
    CHECK(slow.all_match);
    CHECK(slow.result.cycles > base.result.cycles + 10000);
    std::uint64_t stall = 0;
    for (const auto& c : slow.result.cores) stall += c.cascade_stall_cycles;
    CHECK(stall > 0);
}

TEST_CASE("matmul_cascade: parameter errors", "[examples][cascade][errors]") {
    const auto& spec = design_by_name("matmul_cascade");
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"cols", 3}}, cascade_run_opts("npu1")),
                      "design 'matmul_cascade': cols=3 is not supported: 1, 2 or 4 columns (each A shim feeds 4 / "
                      "cols rows)");
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"K", 96}}, cascade_run_opts("npu1")),
                      "design 'matmul_cascade': M=512 must be a multiple of m=32, K=96 of 4k=128, N=512 of n*cols=128");
}

// cascade.py accepts --n-aie-cols 1 and 2 (n_A_tiles_per_shim = 4 // n_aie_cols, L92), but the mem
// tile of each column then needs n_A (A split) + 4 (B split) + 1 (C forward) MM2S channels, more than
// the 6 a mem tile has: the toolchain's placer refuses the design
// (SequentialPlacer::validateAndUpdateChannelUsage), and so does resolve here, naming the link.
TEST_CASE("matmul_cascade: 1 and 2 columns run out of mem-tile channels as in the toolchain",
          "[examples][cascade][errors]") {
    const auto& spec = design_by_name("matmul_cascade");
    for (const std::string device : {"npu1", "npu2"}) {
        CAPTURE(device);
        CHECK_THROWS_WITH(run_design(spec, device, {{"cols", 1}}, cascade_run_opts(device)),
                          "link of fifo 'B_L3L2_0': tile (0, 1) requires 1 input/4 output DMA channels, but only 5 "
                          "input/2 output available");
        CHECK_THROWS_WITH(run_design(spec, device, {{"cols", 2}}, cascade_run_opts(device)),
                          "link of fifo 'C_L1L2_0': tile (0, 1) requires 1 input/1 output DMA channels, but only 4 "
                          "input/0 output available");
    }
}

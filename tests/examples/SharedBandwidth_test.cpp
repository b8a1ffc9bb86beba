// Shared resources of the timing model: every shim channel shares the host-memory
// bandwidth (ddr_bytes_per_cycle), and the first task a shim channel runs pays the cold dispatch.
// E11 memcpy through 8 columns x 2 channels on npu2 moves 16 MiB each way: alone each channel
// runs at 4 B/cycle (16 x 2 x 4 = 128 B/cycle), so the 50 B/cycle host memory is what bounds it.
#include "npusim/harness/DesignRunner.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

namespace {

RunReport memcpy_run(double ddr_bytes_per_cycle, std::int64_t columns = 8, std::int64_t channels = 2) {
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2P);
    o.timing.ddr_bytes_per_cycle = ddr_bytes_per_cycle;
    return run_design(design_by_name("memcpy"), "npu2",
                      {{"size", 4 << 20}, {"columns", columns}, {"channels", channels}, {"bypass", 1}}, 1, o);
}

} // namespace

TEST_CASE("all shim channels together never move more than the host memory's bandwidth", "[timing][ddr]") {
    const auto shared = memcpy_run(50);
    REQUIRE(shared.all_match);
    const double bytes = 2.0 * (4 << 20) * 4; // 16 MiB read + 16 MiB written
    const double rate = bytes / static_cast<double>(shared.result.cycles);
    INFO("aggregate " << rate << " B/cycle over " << shared.result.cycles << " cycles");
    CHECK(rate <= 50.0);
    CHECK(rate > 40.0); // and it is the bound: close to it
    // With a host memory faster than all channels together, the channels' own rate bounds it.
    const auto wide = memcpy_run(1000);
    const double wide_rate = bytes / static_cast<double>(wide.result.cycles);
    CHECK(wide_rate > 80.0);
    CHECK(wide_rate <= 16 * 2 * 4.0);
    // One channel alone is unaffected by the shared limit (4 B/cycle < 50).
    CHECK(memcpy_run(50, 1, 1).result.cycles == memcpy_run(1000, 1, 1).result.cycles);
}

TEST_CASE("the first task on a shim channel pays the cold dispatch, later ones the pipelined gap",
          "[timing][dispatch]") {
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2);
    const auto base = run_design(design_by_name("passthrough_dmas"), "npu1_1col", {}, 1, o);
    auto cold_as_warm = o;
    cold_as_warm.timing.shim_cold_task_dispatch_cycles = o.timing.shim_task_dispatch_cycles;
    const auto warm = run_design(design_by_name("passthrough_dmas"), "npu1_1col", {}, 1, cold_as_warm);
    // E2 starts one fill and one drain, each on its own channel: two cold starts, which overlap
    // (the controller pushes the drain 520 cycles after the fill, while the fill's channel is still
    // starting), so the run is one cold start longer, not two.
    const std::uint64_t delta = o.timing.shim_cold_task_dispatch_cycles - o.timing.shim_task_dispatch_cycles;
    const std::uint64_t penalty = base.result.cycles - warm.result.cycles;
    CHECK(penalty == delta);
    // A second invocation finds both channels warm.
    RunOptions ro;
    ro.sim = o;
    ro.iters = 2;
    const auto rep = run_design(design_by_name("passthrough_dmas"), "npu1_1col", {}, ro);
    REQUIRE(rep.invocations.size() == 2);
    CHECK(rep.invocations[0].cycles == base.result.cycles);
    CHECK(rep.invocations[1].cycles == warm.result.cycles);
}

TEST_CASE("the cold starts of different shim channels overlap: 32 channels cost one cold start, not 32",
          "[timing][dispatch]") {
    // E11 on all 8 columns of npu2, 2 channels each way per column: 32 shim channels, each cold once.
    // The controller pushes every first task 520 cycles after the previous one and each channel
    // starts its own first task a cold start later, so the run is one cold start (2,530 cycles)
    // longer than with warm channels. Serialised in the controller, it was 32 x 2,530 = 80,960.
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2P);
    auto cold_as_warm = o;
    cold_as_warm.timing.shim_cold_task_dispatch_cycles = o.timing.shim_task_dispatch_cycles;
    const Params p{{"size", 1 << 16}, {"columns", 8}, {"channels", 2}, {"bypass", 1}};
    const auto base = run_design(design_by_name("memcpy"), "npu2", p, 1, o);
    const auto warm = run_design(design_by_name("memcpy"), "npu2", p, 1, cold_as_warm);
    REQUIRE(base.all_match);
    const std::uint64_t delta = o.timing.shim_cold_task_dispatch_cycles - o.timing.shim_task_dispatch_cycles;
    CHECK(base.result.cycles - warm.result.cycles == delta);
}

namespace {

RunReport memtile_run(double memtile_bytes_per_cycle) {
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2P);
    o.timing.memtile_memory_bytes_per_cycle = memtile_bytes_per_cycle;
    // Two paths, each forwarded through its own mem tile ((0,1) and (1,1), `--netlist` shows the
    // flows): on each tile one S2MM writes 512 KiB and one MM2S reads them back.
    return run_design(design_by_name("memcpy"), "npu2",
                      {{"size", 1 << 18}, {"columns", 1}, {"channels", 2}, {"bypass", 1}}, 1, o);
}

} // namespace

TEST_CASE("a mem tile's channels share its banks' bandwidth, with the architecture's figure it never binds",
          "[timing][memtile]") {
    // 256 B/cycle (16 banks x 16 B) against 2 channels x 4 B/cycle: the default gives the same
    // cycles as unlimited banks (xdna-emu: memtile DMA is stream-bound).
    const auto arch = memtile_run(256);
    REQUIRE(arch.all_match);
    CHECK(arch.result.cycles == memtile_run(1e6).result.cycles);
    // Banks of 4 B/cycle for 2 channels of 4 B/cycle: the tile, not the streams, bounds the copy.
    // 512 KiB are written into each mem tile and read out of it: 1 MiB through its banks.
    const auto narrow = memtile_run(4);
    REQUIRE(narrow.all_match);
    const double through_banks = 1 << 20;
    INFO("arch " << arch.result.cycles << " cycles, narrow banks " << narrow.result.cycles << " cycles");
    CHECK(static_cast<double>(narrow.result.cycles) >= through_banks / 4.0);
    CHECK(static_cast<double>(narrow.result.cycles) > 1.7 * static_cast<double>(arch.result.cycles));
    CHECK(static_cast<double>(narrow.result.cycles) < 1.25 * through_banks / 4.0);
}

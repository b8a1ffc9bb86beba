// Shared resources of the timing model (issue 11): every shim channel shares the host-memory
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

TEST_CASE("the first task on a shim channel pays the cold dispatch, later ones the pipelined gap", "[timing][dispatch]") {
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2);
    const auto base = run_design(design_by_name("passthrough_dmas"), "npu1_1col", {}, 1, o);
    auto cold_as_warm = o;
    cold_as_warm.timing.shim_cold_task_dispatch_cycles = o.timing.shim_task_dispatch_cycles;
    const auto warm = run_design(design_by_name("passthrough_dmas"), "npu1_1col", {}, 1, cold_as_warm);
    // E2 starts one fill and one drain, each on its own channel: two cold starts, serialised in
    // the controller. The first delays everything; the second only delays the drain, part of which
    // the fill's data movement hides.
    const std::uint64_t delta = o.timing.shim_cold_task_dispatch_cycles - o.timing.shim_task_dispatch_cycles;
    const std::uint64_t penalty = base.result.cycles - warm.result.cycles;
    CHECK(penalty > delta);
    CHECK(penalty <= 2 * delta);
    // A second invocation finds both channels warm.
    RunOptions ro;
    ro.sim = o;
    ro.iters = 2;
    const auto rep = run_design(design_by_name("passthrough_dmas"), "npu1_1col", {}, ro);
    REQUIRE(rep.invocations.size() == 2);
    CHECK(rep.invocations[0].cycles == base.result.cycles);
    CHECK(rep.invocations[1].cycles == warm.result.cycles);
}

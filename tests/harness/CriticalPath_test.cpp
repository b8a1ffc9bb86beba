// The run's critical path (sim::CriticalPath, SimResult::critical_path) and its shares per parameter
// (harness::critical_path_share): designs whose critical path is known by construction get the
// expected attribution, and the parts add up to the run's cycles.
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/TrustReport.hpp"
#include "npusim/model/TimingParams.hpp"
#include "npusim/sim/CriticalPath.hpp"

#include <catch2/catch.hpp>

#include <map>

using namespace npusim;
using namespace npusim::harness;

namespace {
sim::SimResult critical_path_run(const char* design, const char* device, const model::TimingParams& timing) {
    RunOptions ro;
    ro.sim.timing = timing;
    const auto rep = run_design(design_by_name(design), device, {}, ro);
    REQUIRE(rep.all_match);
    return rep.result;
}
std::map<std::string, ParamCharge> critical_by_name(const CriticalPathShare& cp) {
    std::map<std::string, ParamCharge> m;
    for (const auto& c : cp.charges) m[c.name] = c;
    return m;
}
} // namespace

TEST_CASE("CriticalPath: a hand-off that ends later replaces the chain, time nobody priced is not attributed",
          "[sim][critical-path]") {
    sim::CriticalPath a;
    a.add(sim::PathCost::KernelModel, 100);
    sim::CriticalPath b;
    b.add(sim::PathCost::StreamRate, 60);
    auto c = a;
    c.join(b); // b ends earlier: the process was not waiting for it
    CHECK(c.total == 100);
    CHECK(c[sim::PathCost::KernelModel] == 100);
    b.add(sim::PathCost::BdSetup, 50);
    c.join(b); // now it ends later: the process waited for it
    CHECK(c.total == 110);
    CHECK(c[sim::PathCost::KernelModel] == 0);
    CHECK(c[sim::PathCost::StreamRate] == 60);
    c.settle(130);
    CHECK(c[sim::PathCost::Unattributed] == 20);
    CHECK(c.total == 130);
    c.settle(120); // already past: nothing changes
    CHECK(c.total == 130);
    // Every cost that is a parameter names a row of the timing table.
    for (std::size_t i = 0; i < sim::kPathCosts; ++i) {
        const auto cost = static_cast<sim::PathCost>(i);
        if (sim::path_cost_is_parameter(cost)) CHECK(model::find_timing_param(sim::path_cost_name(cost)));
    }
}

TEST_CASE("critical path: kernel-bound and DMA-bound by construction get the expected parameter",
          "[harness][critical-path]") {
    for (const char* device : {"npu1_1col", "npu2_1col"}) {
        INFO(device);
        const auto& dev = model::device_by_name(device);
        SECTION("kernel-bound: every kernel call on the path, at its overhead") {
            // vector_scalar_mul: one worker, 4 calls of 1024 elements. Each call costs 100,000
            // cycles more than everything else the run does together: the path runs through the
            // worker's 4 calls one after another, and holds each call's whole cost.
            auto timing = model::TimingParams::for_arch(dev.arch);
            timing.kernel_call_overhead_cycles = 100000;
            const auto r = critical_path_run("vector_scalar_mul", device, timing);
            CHECK(r.critical_path.total == r.cycles);
            CHECK(r.critical_path[sim::PathCost::KernelCallOverhead] == 4 * 100000);
            CHECK(r.critical_path[sim::PathCost::Unattributed] == 0);
            const auto cp = critical_path_share(r.critical_path, timing);
            const auto m = critical_by_name(cp);
            CHECK(cp.charges.front().name == "kernel_call_overhead_cycles");
            CHECK(m.at("kernel_call_overhead_cycles").share > 0.95);
            // Its tag: measured on NPU1, carried over (an estimate) on NPU2.
            CHECK(m.at("kernel_call_overhead_cycles").tag == (dev.arch == model::Arch::AIE2 ? "[HW]" : "[est]"));
            CHECK(cp.est_share + cp.measured_share + cp.model_share + cp.unattributed_share == Approx(1.0));
        }
        SECTION("DMA-bound: the stream rate prices the path") {
            // The same design with every port at 1/16 word per cycle: its 4 x 3 transfers of 4 KiB
            // dominate; the kernel calls (72 or 339 cycles each) hardly show.
            auto timing = model::TimingParams::for_arch(dev.arch);
            timing.stream_bytes_per_cycle = 0.25;
            const auto r = critical_path_run("vector_scalar_mul", device, timing);
            CHECK(r.critical_path.total == r.cycles);
            CHECK(r.critical_path[sim::PathCost::Unattributed] == 0);
            const auto cp = critical_path_share(r.critical_path, timing);
            const auto m = critical_by_name(cp);
            CHECK(cp.charges.front().name == "stream_bytes_per_cycle");
            CHECK(m.at("stream_bytes_per_cycle").share > 0.9);
            CHECK(m.at("kernel cost models").share < 0.05);
            // The stream width is documented on AIE2 (AM020), carried over on AIE2P.
            CHECK(m.at("stream_bytes_per_cycle").tag == (dev.arch == model::Arch::AIE2 ? "[doc]" : "[est]"));
            if (dev.arch == model::Arch::AIE2P) CHECK(cp.est_share > 0.9);
        }
        SECTION("free kernels: no kernel cycle on the path") {
            auto timing = model::TimingParams::for_arch(dev.arch);
            RunOptions ro;
            ro.sim.timing = timing;
            ro.sim.free_kernels = true;
            const auto rep = run_design(design_by_name("vector_scalar_mul"), device, {}, ro);
            REQUIRE(rep.all_match);
            CHECK(rep.result.critical_path[sim::PathCost::KernelModel] == 0);
            CHECK(rep.result.critical_path[sim::PathCost::KernelCallOverhead] == 0);
            CHECK(rep.result.critical_path.total == rep.result.cycles);
        }
    }
}

TEST_CASE("critical path: whole-array matmul is kernel-bound on npu1 and stream-bound on npu2 (E7)",
          "[harness][critical-path]") {
    const auto t1 = model::TimingParams::for_arch(model::Arch::AIE2);
    const auto r1 = critical_path_run("matmul_whole_array", "npu1", t1);
    const auto cp1 = critical_path_share(r1.critical_path, t1);
    CHECK(r1.critical_path.total == r1.cycles);
    CHECK(cp1.charges.front().name == "kernel cost models");
    CHECK(cp1.model_share > 0.8);
    const auto t2 = model::TimingParams::for_arch(model::Arch::AIE2P);
    const auto r2 = critical_path_run("matmul_whole_array", "npu2", t2);
    const auto cp2 = critical_path_share(r2.critical_path, t2);
    CHECK(r2.critical_path.total == r2.cycles);
    CHECK(cp2.charges.front().name == "stream_bytes_per_cycle");
    CHECK(cp2.model_share < 0.1);
}

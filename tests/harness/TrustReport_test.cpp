// harness::trust_report: every unit cycle of a run charged to the parameter (or cost model) that set
// it, summed by the tag of that parameter's source for the run's generation.
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/TrustReport.hpp"
#include "npusim/model/TimingParams.hpp"

#include <catch2/catch.hpp>

#include <map>

using namespace npusim;
using namespace npusim::harness;

namespace {
std::map<std::string, ParamCharge> by_name(const TrustReport& t) {
    std::map<std::string, ParamCharge> m;
    for (const auto& c : t.charges) m[c.name] = c;
    return m;
}
} // namespace

TEST_CASE("source_tag reads the tag a source string starts with", "[harness][trust]") {
    CHECK(source_tag("[est] carried over from AIE2") == "[est]");
    CHECK(source_tag("[HW] row 9: ...") == "[HW]");
    CHECK(source_tag("no tag") == "");
    CHECK(source_tag("[unclosed") == "");
    CHECK(source_tag("") == "");
}

TEST_CASE("trust report: each parameter's charged cycles, with its generation's tag, shares adding up to 1",
          "[harness][trust]") {
    const Params p{{"M", 128}, {"K", 128}, {"N", 128}, {"m", 32}, {"k", 32}, {"n", 32}};
    for (const char* device : {"npu1_1col", "npu2_1col"}) {
        INFO(device);
        const auto& dev = model::device_by_name(device);
        const auto timing = model::TimingParams::for_arch(dev.arch);
        RunOptions ro;
        ro.sim.timing = timing;
        const auto rep = run_design(design_by_name("matmul_single_core"), device, p, ro);
        REQUIRE(rep.all_match);
        const auto t = trust_report(rep.result, dev, timing);
        REQUIRE_FALSE(t.charges.empty());
        double sum = 0;
        for (const auto& c : t.charges) sum += c.share;
        CHECK(sum == Approx(1.0));
        CHECK(t.est_share + t.measured_share + t.model_share == Approx(1.0));
        for (std::size_t i = 1; i < t.charges.size(); ++i) CHECK(t.charges[i - 1].cycles >= t.charges[i].cycles);
        const auto m = by_name(t);
        // The call overhead: one charge per kernel call (zero and matmul calls).
        std::uint64_t calls = 0, kernel_cycles = 0;
        for (const auto& c : rep.result.cores) calls += c.kernel_calls, kernel_cycles += c.kernel_cycles;
        REQUIRE(m.count("kernel_call_overhead_cycles"));
        CHECK(m.at("kernel_call_overhead_cycles").cycles ==
              Approx(static_cast<double>(calls * timing.kernel_call_overhead_cycles)));
        CHECK(m.at("kernel cost models").cycles + m.at("kernel_call_overhead_cycles").cycles ==
              Approx(static_cast<double>(kernel_cycles)));
        CHECK(m.at("kernel cost models").tag == "[model]");
        // Each parameter carries the tag of its source for this generation.
        for (const auto& c : t.charges)
            if (const auto* row = model::find_timing_param(c.name))
                CHECK(c.tag == source_tag(row->source_for(dev.arch)));
        // One cold start per shim channel that ran a task: 3 channels (A, B in; C out).
        CHECK(m.at("shim_cold_task_dispatch_cycles").cycles ==
              Approx(3.0 * (timing.shim_cold_task_dispatch_cycles - timing.shim_task_dispatch_cycles)));
        // NPU1's call overhead is measured, NPU2's carried over: an estimate.
        CHECK(m.at("kernel_call_overhead_cycles").tag == (dev.arch == model::Arch::AIE2 ? "[HW]" : "[est]"));
        CHECK(t.host_tag == "[HW]");
        CHECK(t.host_share_of_npu_time > 0);
        CHECK(t.host_share_of_npu_time < 1);
    }
}

// A registered design that calls Program::enable_trace as IRON's transform does (vector_scalar_mul
// with trace_size > 0: Worker(trace=1) + Program.enable_trace(trace_size), mlir-aie
// python/iron/algorithms/_transform.py L168, L215-216): the traced worker's core is the only core
// unit, with IRON's default core events, and the trace buffer's size is honoured.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/traces/MlirAieTraceSink.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

using namespace npusim;
using namespace npusim::harness;

namespace {

struct Traced {
    RunReport rep;
    traces::MlirAieTraceSink::Totals totals;
    nlohmann::json doc;
};

Traced traced_run(std::int64_t trace_size) {
    const npusim::test::TempDir tmp("npusim_enable_trace_test");
    const auto path = tmp.path / "trace.json";
    traces::MlirAieTraceSink sink(path.string());
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2);
    o.trace = &sink;
    Traced t{run_design(design_by_name("vector_scalar_mul"), "npu1_1col", {{"trace_size", trace_size}}, 1, o),
             sink.totals(),
             {}};
    std::ifstream in(path);
    t.doc = nlohmann::json::parse(in);
    std::filesystem::remove(path);
    return t;
}

} // namespace

TEST_CASE("vector_scalar_mul --param trace_size: the design's own enable_trace drives the mlir-aie trace",
          "[examples][trace]") {
    const auto big = traced_run(8192);
    REQUIRE(big.rep.all_match);
    std::set<std::string> processes, events;
    int kernel_starts = 0;
    for (const auto& e : big.doc) {
        if (e["ph"] == "M" && e["name"] == "process_name") processes.insert(e["args"]["name"].get<std::string>());
        if (e["ph"] == "B") {
            events.insert(e["name"].get<std::string>());
            if (e["name"] == "INSTR_EVENT_0") ++kernel_starts;
        }
    }
    // One traced unit: the worker's core at (0,2) (mlir-aie names it "tile<row>,<col>").
    CHECK(processes == std::set<std::string>{"core_trace for tile2,0"});
    CHECK(events.count("INSTR_EVENT_0") == 1);
    CHECK(events.count("PORT_RUNNING_0") == 1);
    // mlir-aie's cycle summary counts kernel invocations from INSTR_EVENT_0: E3 calls its kernel once per tile.
    CHECK(kernel_starts == 4);
    CHECK(big.rep.result.cores[0].kernel_calls == 4);
    CHECK(big.totals.dropped == 0);
    // A trace buffer of one packet keeps only the first events and says so, as on hardware.
    const auto small = traced_run(32);
    REQUIRE(small.rep.all_match);
    CHECK(small.totals.dropped > 0);
    bool warned = false;
    for (const auto& w : small.rep.result.warnings) warned |= w.find("trace buffer") != std::string::npos;
    CHECK(warned);
}

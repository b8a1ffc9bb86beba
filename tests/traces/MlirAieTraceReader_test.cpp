// Reading mlir-aie's trace JSON (parse.py's output, MlirAieTraceSink's) back, and what a
// calibration compares between two such traces (TraceObservations).
#include "npusim/model/Error.hpp"
#include "npusim/traces/MlirAieTraceReader.hpp"
#include "npusim/traces/MlirAieTraceSink.hpp"
#include "npusim/traces/TraceObservations.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace npusim;
using npusim::traces::ObservationKind;

namespace {

// One core unit at tile (col, row 2): slot 0 INSTR_EVENT_0 pulses at `starts`, slot 1 LOCK_STALL
// over [5, 20) and [40, 45), slot 2 NONE.
std::string reader_trace(int col, std::initializer_list<int> starts) {
    std::string s = R"([{"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "core_trace for tile2,)" +
                    std::to_string(col) + R"("}},
{"name": "thread_name", "ph": "M", "pid": 0, "tid": 0, "args": {"name": "INSTR_EVENT_0"}},
{"name": "thread_name", "ph": "M", "pid": 0, "tid": 1, "args": {"name": "LOCK_STALL"}},
{"name": "thread_name", "ph": "M", "pid": 0, "tid": 2, "args": {"name": "NONE"}},
{"name": "LOCK_STALL", "ts": 5, "ph": "B", "pid": 0, "tid": 1, "args": {}},
{"name": "LOCK_STALL", "ts": 20, "ph": "E", "pid": 0, "tid": 1, "args": {}},
{"name": "LOCK_STALL", "ts": 40, "ph": "B", "pid": 0, "tid": 1, "args": {}},
{"name": "LOCK_STALL", "ts": 45, "ph": "E", "pid": 0, "tid": 1, "args": {}})";
    for (int t : starts)
        s += ",\n{\"name\": \"INSTR_EVENT_0\", \"ts\": " + std::to_string(t) +
             ", \"ph\": \"B\", \"pid\": 0, \"tid\": 0, \"args\": {}},\n{\"name\": \"INSTR_EVENT_0\", \"ts\": " +
             std::to_string(t + 1) + ", \"ph\": \"E\", \"pid\": 0, \"tid\": 0, \"args\": {}}";
    return s + "]\n";
}

} // namespace

TEST_CASE("MlirAieTraceReader: units, slot names and spans of parse.py's JSON", "[traces][calibrate]") {
    const auto t = traces::parse_mlir_aie_trace(reader_trace(1, {20, 60}), "'t.json'");
    REQUIRE(t.units.size() == 1);
    const auto& u = t.units[0];
    CHECK(u.type == model::TraceUnitType::Core);
    CHECK(u.tile == model::TileCoord{1, 2}); // "tile<row>,<col>"
    CHECK(u.slot_names[0] == "INSTR_EVENT_0");
    CHECK(u.slot_names[2] == "NONE");
    CHECK(u.slot_names[3].empty());
    REQUIRE(u.spans[0].size() == 2);
    CHECK(u.spans[0][1].begin == 60);
    CHECK(u.spans[0][1].end == 61);
    REQUIRE(u.spans[1].size() == 2);
    CHECK(u.spans[1][0].end == 20);
}

TEST_CASE("MlirAieTraceReader: an event still open at the end closes at the unit's last ts, and event-PC instants are "
          "counted and left out",
          "[traces][calibrate]") {
    const auto t = traces::parse_mlir_aie_trace(
        R"([{"name": "process_name", "ph": "M", "pid": 3, "args": {"name": "shim_trace for tile0,2"}},
            {"name": "A", "ph": "B", "pid": 3, "tid": 4, "ts": 10},
            {"name": "B", "ph": "B", "pid": 3, "tid": 5, "ts": 12},
            {"name": "B", "ph": "E", "pid": 3, "tid": 5, "ts": 30},
            {"name": "C", "ph": "i", "s": "t", "pid": 3, "tid": 1, "ts": 0, "args": {"pc": 4}}])",
        "'t.json'");
    REQUIRE(t.units.size() == 1);
    CHECK(t.units[0].type == model::TraceUnitType::ShimTile);
    CHECK(t.units[0].tile == model::TileCoord{2, 0});
    REQUIRE(t.units[0].spans[4].size() == 1);
    CHECK(t.units[0].spans[4][0].end == 30);
    CHECK(t.instant_events == 1);
}

TEST_CASE("MlirAieTraceReader reads back what MlirAieTraceSink writes", "[traces][calibrate]") {
    test::TempDir dir("npusim_reader_test");
    {
        traces::MlirAieTraceSink sink(dir.file("t.json"));
        sink.add_track(0, {sim::TrackInfo::Kind::Core, 0, 2, "w"});
        sink.detailed_span(0, sim::TraceKind::LockStall, "stall", 0, 30, {});
        sink.detailed_span(0, sim::TraceKind::KernelCall, "k", 31, 50, {});
        sink.detailed_span(0, sim::TraceKind::KernelCall, "k", 80, 95, {});
        sink.finish(100);
    }
    const auto t = traces::read_mlir_aie_trace(dir.file("t.json"));
    REQUIRE(t.units.size() == 1);
    const auto obs = traces::trace_observations(t);
    auto value = [&](const std::string& key) {
        for (const auto& o : obs)
            if (o.key == key) return o.value;
        FAIL("no observation " << key);
        return -1.0;
    };
    // Relative to the unit's first event (the stall at 0): calls at 31 and 80, 19 and 15 long.
    CHECK(value("core tile2,0 INSTR_EVENT_0 #1") == 80);
    CHECK(value("core tile2,0 INSTR_EVENT_1 #0") == 50);
    CHECK(value("core tile2,0 INSTR_VECTOR #1 length") == 15);
    CHECK(value("core tile2,0 LOCK_STALL total") == 30);
}

TEST_CASE("TraceObservations: pulses pair one by one, stalls by their totals, and a trace that does not pair is refused",
          "[traces][calibrate]") {
    const auto hw = traces::parse_mlir_aie_trace(reader_trace(0, {20, 60}), "'hw.json'");
    const auto obs = traces::trace_observations(hw);
    REQUIRE(obs.size() == 5); // 2 pulses, the stall's total, first and last
    CHECK(obs[0].kind == ObservationKind::Kernel);
    CHECK(obs[0].value == 15); // 20 - the first event, the stall at 5
    CHECK(obs[2].key == "core tile2,0 LOCK_STALL total");
    CHECK(obs[2].value == 20);
    CHECK(obs[2].kind == ObservationKind::Lock);

    const auto later = traces::parse_mlir_aie_trace(reader_trace(0, {25, 70}), "'sim.json'");
    const auto sim = traces::align_observations(hw, obs, later, "design 'x' on npu1_1col");
    CHECK(sim[0] == 20);
    CHECK(sim[1] == 65);

    const auto fewer = traces::parse_mlir_aie_trace(reader_trace(0, {25}), "'sim.json'");
    CHECK_THROWS_WITH(traces::align_observations(hw, obs, fewer, "design 'x' on npu1_1col"),
                      Catch::Contains("trace file 'hw.json' is not a trace of design 'x' on npu1_1col: 'core tile2,0' "
                                      "has 2 INSTR_EVENT_0 event(s) in the trace and 1 in the simulated run"));
    const auto elsewhere = traces::parse_mlir_aie_trace(reader_trace(1, {20, 60}), "'sim.json'");
    CHECK_THROWS_WITH(traces::align_observations(hw, obs, elsewhere, "design 'x' on npu1_1col"),
                      Catch::Contains("the trace has the unit 'core tile2,0', which the simulated run does not trace "
                                      "(it traces: core tile2,1)"));
}

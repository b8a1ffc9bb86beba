// MlirAieTraceSink on a synthetic run: the exact file parse.py would print (names, pids, threads,
// B/E order), which event fires when, the trace configuration's units, and the trace buffer.
#include "npusim/traces/MlirAieTraceSink.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using npusim::model::Direction;
using npusim::model::TraceEvent;
using npusim::model::TraceUnitType;
using npusim::sim::TraceArg;
using npusim::sim::TraceKind;
using npusim::sim::TrackInfo;
using npusim::traces::MlirAieTraceSink;
using Kind = TrackInfo::Kind;
using nlohmann::json;

namespace {

struct MlirAieTempDir : npusim::test::TempDir {
    MlirAieTempDir() : npusim::test::TempDir("npusim_mlir_aie_test") {}
};
using npusim::test::slurp;

// Two cores, (0,2) and (1,2), and the DMA channels of (0,2) and of the shim (0,0).
void tracks(MlirAieTraceSink& s) {
    s.add_track(0, {Kind::Core, 1, 2, "worker b"}); // added first: still pid 0 (track order)
    s.add_track(1, {Kind::Core, 0, 2, "worker a"});
    s.add_track(2, {Kind::Dma, 0, 2, "DMA (0,2) S2MM 0", 0, Direction::S2MM});
    s.add_track(3, {Kind::Dma, 0, 2, "DMA (0,2) MM2S 0", 0, Direction::MM2S});
    s.add_track(4, {Kind::Dma, 0, 0, "shim DMA (0,0) MM2S 0", 0, Direction::MM2S});
    s.add_track(5, {Kind::Lock, 0, 2, "lk"});
    s.add_track(6, {Kind::Runtime, 0, 0, "runtime"});
}

void activity(MlirAieTraceSink& s) {
    s.counter(5, 0, 1);
    s.span(4, "shim task", 0, 40); // a plain span on a DMA track: a transfer
    s.detailed_span(2, TraceKind::Transfer, "bd", 2, 30, {});
    s.detailed_span(2, TraceKind::Streaming, "streaming", 20, 30, {});
    s.instant(1, TraceKind::LockAcquire, "acquire request", 1, {});
    s.detailed_span(1, TraceKind::LockStall, "lock stall: lk", 1, 30, {});
    s.instant(5, TraceKind::LockAcquire, "acquire", 30, {}); // lock track: not in mlir-aie's format
    s.detailed_span(1, TraceKind::KernelCall, "k", 31, 50, {});
    s.detailed_span(1, TraceKind::KernelCall, "k", 50, 60, {}); // back to back
    s.instant(1, TraceKind::LockRelease, "release request", 60, {});
    s.detailed_span(3, TraceKind::Transfer, "bd", 61, 70, {});
    s.detailed_span(3, TraceKind::Streaming, "streaming", 62, 70, {});
    s.detailed_span(0, TraceKind::KernelCall, "k", 5, 6, {});
    s.detailed_span(1, TraceKind::Blocked, "blocked: x", 70, 80, {}); // not an event
    s.span(6, "await", 0, 80);
}

} // namespace

TEST_CASE("MlirAieTraceSink without a trace configuration: every core, IRON's default events, parse.py's text",
          "[traces][mlir-aie]") {
    MlirAieTempDir dir;
    const fs::path file = dir.path / "t.json";
    MlirAieTraceSink sink(file.string());
    sink.begin_run({"d", "npu1", npusim::model::Arch::AIE2, 1000, nullptr});
    tracks(sink);
    activity(sink);
    sink.finish(80);
    CHECK(sink.warnings().empty());
    CHECK(sink.totals().dropped == 0);

    const std::string text = slurp(file);
    // json.dumps(list) with ", {" -> ",\n{" and print's newline, as parse.py writes it.
    CHECK(text.starts_with("[{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": {\"name\": "
                           "\"core_trace for tile2,1\"}},\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, "
                           "\"tid\": 0, \"args\": {\"name\": \"INSTR_EVENT_0\"}},\n"));
    CHECK(text.ends_with("}]\n"));
    const json doc = json::parse(text);
    REQUIRE(doc.is_array());
    REQUIRE(doc.size() >= 18);
    CHECK(doc[9]["args"]["name"] == "core_trace for tile2,0");
    const std::vector<std::string> threads = {"INSTR_EVENT_0", "INSTR_EVENT_1", "INSTR_VECTOR",   "MEMORY_STALL",
                                              "STREAM_STALL",  "LOCK_STALL",    "PORT_RUNNING_0", "PORT_RUNNING_1"};
    for (std::size_t t = 0; t < 8; ++t) {
        CHECK(doc[1 + t]["args"]["name"] == threads[t]);
        CHECK(doc[10 + t]["args"]["name"] == threads[t]);
    }

    // pid 1 = the core at (0,2): its events in time order, E before B at one ts.
    std::vector<std::string> got;
    for (std::size_t i = 18; i < doc.size(); ++i)
        if (doc[i]["pid"] == 1)
            got.push_back(fmt::format("{} {} {}", doc[i]["ts"].get<int>(), doc[i]["ph"].get<std::string>(),
                                      doc[i]["name"].get<std::string>()));
    const std::vector<std::string> want = {
        "1 B LOCK_STALL",      "20 B PORT_RUNNING_0", // S2MM 0 streams from 20, not from the BD's start at 2
        "30 E PORT_RUNNING_0", "30 E LOCK_STALL",     "31 B INSTR_EVENT_0",  "31 B INSTR_VECTOR",
        "32 E INSTR_EVENT_0",  "50 E INSTR_VECTOR",   "50 B INSTR_EVENT_1",  "50 B INSTR_EVENT_0",
        "50 B INSTR_VECTOR",   "51 E INSTR_EVENT_1",  "51 E INSTR_EVENT_0",  "60 E INSTR_VECTOR",
        "60 B INSTR_EVENT_1",  "61 E INSTR_EVENT_1",  "62 B PORT_RUNNING_1", "70 E PORT_RUNNING_1",
    };
    CHECK(got == want);
    // pid 0's events come before pid 1's.
    CHECK(doc[18]["pid"] == 0);
    CHECK(doc[18]["name"] == "INSTR_EVENT_0");
    CHECK(doc[18]["ts"] == 5);
}

TEST_CASE("MlirAieTraceSink with enable_trace's units: their order, events and ports", "[traces][mlir-aie]") {
    MlirAieTempDir dir;
    const fs::path file = dir.path / "t.json";
    npusim::model::TraceConfig cfg;
    cfg.enabled = true;
    cfg.buffer_bytes = 1 << 20;
    auto unit = [](TraceUnitType t, npusim::model::TileCoord tile, std::vector<TraceEvent> ev) {
        ev.resize(8, TraceEvent("NONE"));
        return npusim::model::TraceUnit{t, tile, "", std::move(ev)};
    };
    cfg.units = {
        unit(TraceUnitType::ShimTile, {0, 0}, {"DMA_MM2S_0_START_TASK", "DMA_MM2S_0_FINISHED_TASK"}),
        unit(TraceUnitType::Core, {0, 2},
             {"INSTR_LOCK_RELEASE_REQ", "INSTR_LOCK_ACQUIRE_REQ", TraceEvent::port("PORT_RUNNING_3", 0, false),
              "INSTR_CALL", "CASCADE_STALL"}),
        unit(TraceUnitType::Mem, {0, 2}, {"DMA_S2MM_0_START_TASK", "DMA_S2MM_0_FINISHED_BD", "DMA_S2MM_1_FINISHED_BD"}),
    };
    MlirAieTraceSink sink(file.string());
    sink.begin_run({"d", "npu2", npusim::model::Arch::AIE2P, 1000, &cfg});
    tracks(sink);
    activity(sink);
    sink.finish(80);
    const json doc = json::parse(slurp(file));
    // parse.py numbers pids by packet type: core (0), mem (1), shim (2); the core at (1,2) is not traced.
    CHECK(doc[0]["args"]["name"] == "core_trace for tile2,0");
    CHECK(doc[9]["args"]["name"] == "mem_trace for tile2,0");
    CHECK(doc[18]["args"]["name"] == "shim_trace for tile0,0");
    CHECK(doc[3]["args"]["name"] == "PORT_RUNNING_3");
    CHECK(doc[26]["args"]["name"] == "NONE");
    std::vector<std::string> got;
    for (std::size_t i = 27; i < doc.size(); ++i)
        got.push_back(fmt::format("{} {} {} {}", doc[i]["pid"].get<int>(), doc[i]["ts"].get<int>(),
                                  doc[i]["ph"].get<std::string>(), doc[i]["name"].get<std::string>()));
    const std::vector<std::string> want = {
        "0 1 B INSTR_LOCK_ACQUIRE_REQ",
        "0 2 E INSTR_LOCK_ACQUIRE_REQ",
        "0 31 B INSTR_CALL",
        "0 32 E INSTR_CALL",
        "0 50 B INSTR_CALL",
        "0 51 E INSTR_CALL",
        "0 60 B INSTR_LOCK_RELEASE_REQ",
        "0 61 E INSTR_LOCK_RELEASE_REQ",
        "0 62 B PORT_RUNNING_3", // MM2S 0
        "0 70 E PORT_RUNNING_3",
        "1 2 B DMA_S2MM_0_START_TASK",
        "1 3 E DMA_S2MM_0_START_TASK",
        "1 30 B DMA_S2MM_0_FINISHED_BD",
        "1 31 E DMA_S2MM_0_FINISHED_BD",
        "2 0 B DMA_MM2S_0_START_TASK",
        "2 1 E DMA_MM2S_0_START_TASK",
        "2 40 B DMA_MM2S_0_FINISHED_TASK",
        "2 41 E DMA_MM2S_0_FINISHED_TASK",
    };
    CHECK(got == want);
    CHECK(sink.totals().events == 9);
    CHECK(sink.totals().dropped == 0);
}

TEST_CASE("MlirAieTraceSink: a trace buffer too small for the run keeps the first packets and warns",
          "[traces][mlir-aie]") {
    MlirAieTempDir dir;
    const fs::path file = dir.path / "t.json";
    npusim::model::TraceConfig cfg;
    cfg.enabled = true;
    cfg.buffer_bytes = 32; // one packet: 28 payload bytes
    npusim::model::TraceUnit u;
    u.type = TraceUnitType::Core;
    u.tile = {0, 2};
    u.events = npusim::model::trace_unit_events(npusim::model::Arch::AIE2, TraceUnitType::Core, std::nullopt, "t");
    cfg.units = {u};
    MlirAieTraceSink sink(file.string());
    sink.begin_run({"d", "npu1", npusim::model::Arch::AIE2, 1000, &cfg});
    sink.add_track(0, {Kind::Core, 0, 2, "w"});
    // 40 kernel calls 100 cycles apart: each call is 4 changes (event0 on/off, vector on, ...).
    for (int k = 0; k < 40; ++k) sink.detailed_span(0, TraceKind::KernelCall, "k", 100 * k + 10, 100 * k + 60, {});
    sink.finish(4000);
    const auto& t = sink.totals();
    CHECK(t.buffer_packets == 1);
    CHECK(t.packets > 1);
    CHECK(t.events > 0);
    CHECK(t.dropped > 0);
    CHECK(t.events + t.dropped == 40 * 3);
    REQUIRE(sink.warnings().size() == 1);
    CHECK_THAT(sink.warnings()[0], Catch::StartsWith("trace buffer full: enable_trace's trace_size of 32 B holds 1 "
                                                     "packets of 32 B, the run produced "));
    // What is kept is a prefix in time: the first calls, whole.
    const json doc = json::parse(slurp(file));
    std::uint64_t last_b = 0;
    for (const auto& e : doc)
        if (e["ph"] == "B") last_b = std::max(last_b, e["ts"].get<std::uint64_t>());
    CHECK(last_b < 1000);
}

TEST_CASE("MlirAieTraceSink rejects unknown and duplicate tracks and names the path it cannot write",
          "[traces][mlir-aie]") {
    MlirAieTempDir dir;
    MlirAieTraceSink sink((dir.path / "no_dir" / "t.json").string());
    sink.add_track(0, {Kind::Core, 0, 2, "core"});
    CHECK_THROWS_AS(sink.add_track(0, {Kind::Core, 0, 2, "again"}), std::invalid_argument);
    CHECK_THROWS_WITH(sink.span(9, "k", 0, 1), Catch::Contains("track 9") && Catch::Contains("never added"));
    CHECK_THROWS_AS(sink.instant(3, TraceKind::LockAcquire, "a", 0, {}), std::out_of_range);
    CHECK_THROWS_WITH(sink.finish(5), Catch::StartsWith("cannot write mlir-aie trace to '"));
    CHECK(MlirAieTraceSink::process_name(TraceUnitType::MemTile, {3, 1}) == "memtile_trace for tile1,3");
    CHECK(MlirAieTraceSink::process_name(TraceUnitType::ShimTile, {2, 0}) == "shim_trace for tile0,2");
}

TEST_CASE("MlirAieTraceSink: a DMA channel waiting on its stream fires STREAM_STARVATION (S2MM) and "
          "STREAM_BACKPRESSURE (MM2S)",
          "[traces][mlir-aie]") {
    MlirAieTempDir dir;
    const fs::path file = dir.path / "t.json";
    npusim::model::TraceConfig cfg;
    cfg.enabled = true;
    cfg.buffer_bytes = 1 << 20;
    std::vector<TraceEvent> ev = {"DMA_S2MM_0_STREAM_STARVATION", "DMA_MM2S_0_STREAM_BACKPRESSURE",
                                  "DMA_S2MM_0_STREAM_BACKPRESSURE"}; // the last: not a direction that waits so
    ev.resize(8, TraceEvent("NONE"));
    cfg.units = {npusim::model::TraceUnit{TraceUnitType::Mem, {0, 2}, "", ev}};
    MlirAieTraceSink sink(file.string());
    sink.begin_run({"d", "npu1_1col", npusim::model::Arch::AIE2, 1000, &cfg});
    tracks(sink);
    sink.detailed_span(2, TraceKind::StreamStall, "stream stall: starved", 2, 20, {});
    sink.detailed_span(2, TraceKind::Streaming, "streaming", 20, 30, {});
    sink.detailed_span(3, TraceKind::StreamStall, "stream stall: back-pressure", 40, 45, {});
    sink.finish(80);
    const json doc = json::parse(slurp(file));
    std::vector<std::string> got;
    for (const auto& e : doc)
        if (e["ph"] == "B" || e["ph"] == "E")
            got.push_back(
                fmt::format("{} {} {}", e["ts"].get<int>(), e["ph"].get<std::string>(), e["name"].get<std::string>()));
    const std::vector<std::string> want = {"2 B DMA_S2MM_0_STREAM_STARVATION", "20 E DMA_S2MM_0_STREAM_STARVATION",
                                           "40 B DMA_MM2S_0_STREAM_BACKPRESSURE",
                                           "45 E DMA_MM2S_0_STREAM_BACKPRESSURE"};
    CHECK(got == want);
}

// aie-rt's core event CASCADE_STALL: the core waits on its cascade (docs/traces.md).
TEST_CASE("MlirAieTraceSink: a core waiting on its cascade fires CASCADE_STALL", "[traces][mlir-aie][cascade]") {
    MlirAieTempDir dir;
    const fs::path file = dir.path / "t.json";
    npusim::model::TraceConfig cfg;
    cfg.enabled = true;
    cfg.buffer_bytes = 1 << 20;
    std::vector<TraceEvent> ev = {"CASCADE_STALL", "LOCK_STALL"};
    ev.resize(8, TraceEvent("NONE"));
    cfg.units = {npusim::model::TraceUnit{TraceUnitType::Core, {0, 2}, "", ev}};
    MlirAieTraceSink sink(file.string());
    sink.begin_run({"d", "npu1_1col", npusim::model::Arch::AIE2, 1000, &cfg});
    tracks(sink);
    sink.detailed_span(1, TraceKind::KernelCall, "k", 0, 10, {});
    sink.detailed_span(1, TraceKind::CascadeStall, "cascade stall: kernel 'k'", 10, 25, {});
    sink.detailed_span(1, TraceKind::LockStall, "lock stall: l", 30, 33, {});
    sink.finish(80);
    const json doc = json::parse(slurp(file));
    std::vector<std::string> got;
    for (const auto& e : doc)
        if (e["ph"] == "B" || e["ph"] == "E")
            got.push_back(
                fmt::format("{} {} {}", e["ts"].get<int>(), e["ph"].get<std::string>(), e["name"].get<std::string>()));
    const std::vector<std::string> want = {"10 B CASCADE_STALL", "25 E CASCADE_STALL", "30 B LOCK_STALL",
                                           "33 E LOCK_STALL"};
    CHECK(got == want);
}

// PerfettoTraceSink: feed a small synthetic run, parse the JSON back and check its structure, the
// clock metadata, arguments and instants.
#include "npusim/traces/PerfettoTraceSink.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using npusim::sim::TrackInfo;
using npusim::traces::PerfettoTraceSink;
using Kind = TrackInfo::Kind;
using nlohmann::json;

namespace {

struct PerfettoTempDir : npusim::test::TempDir {
    PerfettoTempDir() : npusim::test::TempDir("npusim_perfetto_test") {}
};
using npusim::test::slurp;

// Tracks deliberately added out of tile order; ids are the call order.
void feed(npusim::sim::TraceSink& s) {
    s.add_track(0, {Kind::Core, 0, 2, "core (0,2) worker_0"});
    s.add_track(1, {Kind::Dma, 0, 2, "(0,2) S2MM 0"});
    s.add_track(2, {Kind::Lock, 0, 2, "in_cons_prod_lock_0"});
    s.add_track(3, {Kind::Dma, 0, 1, "(0,1) MM2S 0"});
    s.add_track(4, {Kind::Dma, 0, 0, "(0,0) S2MM 0"});
    s.add_track(5, {Kind::Runtime, 0, 0, "runtime sequence"});
    s.add_track(6, {Kind::Core, 1, 2, "core \"q\"\tname"});
    s.add_track(7, {Kind::Lock, 0, 2, "in_cons_prod_lock_0"}); // same name as track 2
    s.counter(2, 0, 2);
    s.span(3, "mm2s", 5, 15);
    s.span(1, "bd 0", 10, 30);
    s.counter(2, 20, 1);
    s.span(1, "bd 1", 30, 40);
    s.span(0, "kernel_a", 20, 50);
    s.counter(7, 35, 1);
    s.counter(2, 50, 2);
    s.span(6, "k \"x\"\n\\", 55, 55);
    s.span(4, "shim", 40, 60);
    s.span(5, "await out", 0, 70);
    s.finish(100);
}

} // namespace

TEST_CASE("PerfettoTraceSink process names follow mlir-aie (tile<row>,<col>)", "[traces][perfetto]") {
    CHECK(PerfettoTraceSink::process_name({Kind::Core, 1, 2, "x"}) == "core_trace for tile2,1");
    CHECK(PerfettoTraceSink::process_name({Kind::Dma, 3, 2, "x"}) == "mem_trace for tile2,3");
    CHECK(PerfettoTraceSink::process_name({Kind::Dma, 3, 1, "x"}) == "memtile_trace for tile1,3");
    CHECK(PerfettoTraceSink::process_name({Kind::Dma, 3, 0, "x"}) == "shim_trace for tile0,3");
    CHECK(PerfettoTraceSink::process_name({Kind::Lock, 0, 5, "x"}) == "locks tile5,0");
    CHECK(PerfettoTraceSink::process_name({Kind::Runtime, 0, 0, "x"}) == "runtime");
}

TEST_CASE("PerfettoTraceSink writes a Chrome trace event object", "[traces][perfetto]") {
    PerfettoTempDir dir;
    const fs::path file = dir.path / "trace.json";
    PerfettoTraceSink sink(file.string());
    CHECK(sink.path() == file.string());
    feed(sink);

    const std::string text = slurp(file);
    REQUIRE(!text.empty());
    CHECK(text.front() == '{');
    const json top = json::parse(text); // throws (fails the test) on malformed or mis-escaped JSON
    REQUIRE(top.is_object());
    CHECK(top["displayTimeUnit"] == "ns");
    CHECK(top["otherData"]["ts_unit"] == "cycles");
    json doc = top["traceEvents"];
    REQUIRE(doc.is_array());
    // The clock metadata event (without begin_run: clock 0) goes after the names.
    const auto clock = std::find_if(doc.begin(), doc.end(), [](const json& e) { return e["name"] == "clock"; });
    REQUIRE(clock != doc.end());
    CHECK((*clock)["ph"] == "M");
    CHECK((*clock)["args"]["ts_unit"] == "cycles");
    doc.erase(clock);

    // Metadata first, then the timed events.
    std::size_t first_timed = 0;
    while (first_timed < doc.size() && doc[first_timed]["ph"] == "M") ++first_timed;
    for (std::size_t i = first_timed; i < doc.size(); ++i) CHECK(doc[i]["ph"] != "M");

    std::map<int, std::string> process; // pid -> name
    std::map<std::pair<int, int>, std::string> thread; // (pid, tid) -> name
    for (std::size_t i = 0; i < first_timed; ++i) {
        const json& e = doc[i];
        if (e["name"] == "process_name") {
            CHECK(!e.contains("tid"));
            process[e["pid"].get<int>()] = e["args"]["name"].get<std::string>();
        } else {
            REQUIRE(e["name"] == "thread_name");
            thread[{e["pid"].get<int>(), e["tid"].get<int>()}] = e["args"]["name"].get<std::string>();
        }
    }
    const std::map<int, std::string> expected_process = {
        {0, "runtime"},
        {1, "shim_trace for tile0,0"},
        {2, "memtile_trace for tile1,0"},
        {3, "core_trace for tile2,0"},
        {4, "mem_trace for tile2,0"},
        {5, "locks tile2,0"},
        {6, "core_trace for tile2,1"},
    };
    CHECK(process == expected_process);
    // Lock tracks without spans get no thread_name.
    const std::map<std::pair<int, int>, std::string> expected_thread = {
        {{0, 0}, "runtime sequence"},    {{1, 0}, "(0,0) S2MM 0"}, {{2, 0}, "(0,1) MM2S 0"},
        {{3, 0}, "core (0,2) worker_0"}, {{4, 0}, "(0,2) S2MM 0"}, {{6, 0}, "core \"q\"\tname"},
    };
    CHECK(thread == expected_thread);

    // Timed events in file order: sorted by ts, call order for ties.
    struct Expect {
        const char* ph;
        std::string name;
        std::uint64_t ts;
        std::int64_t dur_or_value;
        int pid, tid;
    };
    const std::vector<Expect> expected = {
        {"C", "in_cons_prod_lock_0", 0, 2, 5, 0},
        {"X", "await out", 0, 70, 0, 0},
        {"X", "mm2s", 5, 10, 2, 0},
        {"X", "bd 0", 10, 20, 4, 0},
        {"C", "in_cons_prod_lock_0", 20, 1, 5, 0},
        {"X", "kernel_a", 20, 30, 3, 0},
        {"X", "bd 1", 30, 10, 4, 0},
        {"C", "in_cons_prod_lock_0 #7", 35, 1, 5, 1}, // duplicate counter name made unique
        {"X", "shim", 40, 20, 1, 0},
        {"C", "in_cons_prod_lock_0", 50, 2, 5, 0},
        {"X", "k \"x\"\n\\", 55, 0, 6, 0},
    };
    REQUIRE(doc.size() - first_timed == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const json& e = doc[first_timed + i];
        const Expect& x = expected[i];
        INFO("event " << i << ": " << e.dump());
        CHECK(e["ph"] == x.ph);
        CHECK(e["name"] == x.name);
        CHECK(e["ts"].get<std::uint64_t>() == x.ts);
        CHECK(e["pid"].get<int>() == x.pid);
        CHECK(e["tid"].get<int>() == x.tid);
        if (std::string(x.ph) == "X") {
            CHECK(e["dur"].get<std::int64_t>() == x.dur_or_value);
            CHECK(e["args"] == json::object());
            CHECK(e["cat"] == "other");
        } else {
            CHECK(!e.contains("dur"));
            CHECK(e["args"] == json{{"value", x.dur_or_value}});
        }
    }
}

TEST_CASE("PerfettoTraceSink handles empty runs, odd spans and bad bytes", "[traces][perfetto]") {
    PerfettoTempDir dir;
    SECTION("no tracks at all: no events") {
        const fs::path file = dir.path / "empty.json";
        PerfettoTraceSink sink(file.string());
        sink.finish(0);
        CHECK(json::parse(slurp(file))["traceEvents"] == json::array());
    }
    SECTION("end before begin gives dur 0; invalid UTF-8 is replaced, not fatal") {
        const fs::path file = dir.path / "odd.json";
        PerfettoTraceSink sink(file.string());
        sink.add_track(3, {Kind::Core, 0, 2, "core\xff"});
        sink.span(3, "bad\xfe", 9, 4);
        sink.finish(10);
        const json doc = json::parse(slurp(file))["traceEvents"];
        REQUIRE(doc.size() == 4); // process, thread, clock, span
        CHECK(doc[1]["args"]["name"] == "core\xEF\xBF\xBD"); // U+FFFD
        CHECK(doc[3]["ts"] == 9);
        CHECK(doc[3]["dur"] == 0);
    }
}

TEST_CASE("PerfettoTraceSink rejects unknown and duplicate tracks", "[traces][perfetto]") {
    PerfettoTempDir dir;
    PerfettoTraceSink sink(dir.file("unused.json"));
    sink.add_track(0, {Kind::Core, 0, 2, "core"});
    CHECK_THROWS_AS(sink.add_track(0, {Kind::Core, 0, 2, "again"}), std::invalid_argument);
    CHECK_THROWS_WITH(sink.span(9, "k", 0, 1), Catch::Contains("track 9") && Catch::Contains("never added"));
    CHECK_THROWS_AS(sink.counter(-1, 0, 1), std::out_of_range);
}

TEST_CASE("PerfettoTraceSink names the path it cannot write", "[traces][perfetto]") {
    PerfettoTempDir dir;
    const std::string bad = (dir.path / "no_such_dir" / "trace.json").string();
    PerfettoTraceSink sink(bad);
    sink.add_track(0, {Kind::Core, 0, 2, "core"});
    sink.span(0, "k", 0, 5);
    CHECK_THROWS_AS(sink.finish(5), std::runtime_error);
    CHECK_THROWS_WITH(sink.finish(5), Catch::StartsWith("cannot write Perfetto trace to '" + bad + "': ") &&
                                          Catch::Contains("No such file or directory"));
}

TEST_CASE("PerfettoTraceSink: the clock in the metadata, arguments on detailed spans, instants on lock threads",
          "[traces][perfetto]") {
    PerfettoTempDir dir;
    const fs::path file = dir.path / "rich.json";
    PerfettoTraceSink sink(file.string());
    npusim::sim::RunInfo info;
    info.design = "d";
    info.device = "npu2";
    info.arch = npusim::model::Arch::AIE2P;
    info.clock_mhz = 1250;
    sink.begin_run(info);
    sink.add_track(0, {Kind::Core, 0, 2, "core"});
    sink.add_track(1, {Kind::Lock, 0, 2, "lk", -1});
    sink.add_track(2, {Kind::Dma, 0, 2, "(0,2) S2MM 0", 0, npusim::model::Direction::S2MM});
    using npusim::sim::TraceArg;
    using npusim::sim::TraceKind;
    const TraceArg kargs[] = {TraceArg::str("kernel", "k\"1"), TraceArg::num("call", 3)};
    sink.detailed_span(0, TraceKind::KernelCall, "k", 10, 20, kargs);
    sink.detailed_span(0, TraceKind::LockStall, "lock stall: lk", 4, 10, {});
    const TraceArg bd[] = {TraceArg::str("fifo", "in"), TraceArg::num("element", 1), TraceArg::num("bytes", 1024),
                           TraceArg::num("BD", 2)};
    sink.detailed_span(2, TraceKind::Transfer, "bd", 0, 9, bd);
    sink.detailed_span(2, TraceKind::Streaming, "streaming", 5, 9, bd);
    const TraceArg by_dma[] = {TraceArg::str("by", "dma"), TraceArg::num("amount", 1)};
    const TraceArg by_core[] = {TraceArg::str("by", "core"), TraceArg::num("amount", 1)};
    sink.instant(1, TraceKind::LockRelease, "release", 9, by_dma);
    sink.instant(1, TraceKind::LockAcquire, "acquire", 9, by_core);
    sink.counter(1, 9, 0);
    sink.finish(20);

    const json top = json::parse(slurp(file));
    CHECK(top["otherData"] == json{{"ts_unit", "cycles"},
                                   {"clock_mhz", 1250},
                                   {"cycle_ns", 0.8},
                                   {"design", "d"},
                                   {"device", "npu2"},
                                   {"arch", "AIE2P"}});
    const json& doc = top["traceEvents"];
    std::map<std::string, json> by_name;
    std::vector<json> instants;
    bool lock_thread = false;
    for (const auto& e : doc) {
        if (e["ph"] == "i") instants.push_back(e);
        if (e["name"] == "thread_name" && e["args"]["name"] == "lk") lock_thread = true;
        by_name[e["name"].get<std::string>()] = e;
    }
    CHECK(lock_thread); // instants give a lock track its thread
    CHECK(by_name["clock"]["args"]["clock_mhz"] == 1250);
    CHECK(by_name["k"]["cat"] == "kernel");
    CHECK(by_name["k"]["args"] == json{{"kernel", "k\"1"}, {"call", 3}});
    CHECK(by_name["lock stall: lk"]["cat"] == "lock_stall");
    CHECK(by_name["lock stall: lk"]["dur"] == 6);
    CHECK(by_name["bd"]["args"] == json{{"fifo", "in"}, {"element", 1}, {"bytes", 1024}, {"BD", 2}});
    CHECK(by_name["streaming"]["cat"] == "streaming");
    REQUIRE(instants.size() == 2);
    // One cycle, two marks on the lock's thread: the release, then the acquire it allowed.
    CHECK(instants[0]["name"] == "release");
    CHECK(instants[1]["name"] == "acquire");
    CHECK(instants[0]["ts"] == 9);
    CHECK(instants[1]["ts"] == 9);
    CHECK(instants[0]["tid"] == instants[1]["tid"]);
    CHECK(instants[0]["s"] == "t");
    CHECK(instants[1]["args"]["by"] == "core");
}

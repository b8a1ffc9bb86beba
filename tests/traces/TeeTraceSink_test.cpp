// TeeTraceSink: forwarding to several sinks, and finishing all of them when one fails.
#include "npusim/traces/PerfettoTraceSink.hpp"
#include "npusim/traces/SummaryTraceSink.hpp"
#include "npusim/traces/TeeTraceSink.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

using npusim::sim::TraceSink;
using npusim::sim::TrackInfo;
using npusim::traces::PerfettoTraceSink;
using npusim::traces::SummaryTraceSink;
using npusim::traces::TeeTraceSink;
using Kind = TrackInfo::Kind;

namespace {

/// Records every call as a line of text.
struct Recorder final : TraceSink {
    std::vector<std::string> calls;
    void add_track(int track, const TrackInfo& info) override {
        calls.push_back("add " + std::to_string(track) + " " + info.name);
    }
    void span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) override {
        calls.push_back("span " + std::to_string(track) + " " + std::string(name) + " " + std::to_string(begin) + " " +
                        std::to_string(end));
    }
    void counter(int track, std::uint64_t cycle, std::int64_t value) override {
        calls.push_back("counter " + std::to_string(track) + " " + std::to_string(cycle) + " " + std::to_string(value));
    }
    void finish(std::uint64_t end_cycle) override { calls.push_back("finish " + std::to_string(end_cycle)); }
};

/// Also records the detailed calls and has a warning.
struct DetailedRecorder final : TraceSink {
    std::vector<std::string> calls;
    void begin_run(const npusim::sim::RunInfo& info) override { calls.push_back("begin " + info.design); }
    void add_track(int, const TrackInfo&) override {}
    void span(int, std::string_view name, std::uint64_t, std::uint64_t) override {
        calls.push_back("span " + std::string(name));
    }
    void detailed_span(int, npusim::sim::TraceKind, std::string_view name, std::uint64_t, std::uint64_t,
                       npusim::sim::TraceArgs args) override {
        calls.push_back("detailed " + std::string(name) + " " + std::to_string(args.size()));
    }
    void instant(int, npusim::sim::TraceKind, std::string_view name, std::uint64_t cycle,
                 npusim::sim::TraceArgs) override {
        calls.push_back("instant " + std::string(name) + " " + std::to_string(cycle));
    }
    void counter(int, std::uint64_t, std::int64_t) override {}
    void finish(std::uint64_t) override {}
    std::vector<std::string> warnings() const override { return {"w"}; }
};

} // namespace

TEST_CASE("TeeTraceSink forwards every call in order", "[traces][tee]") {
    Recorder a, b;
    TeeTraceSink tee({&a, nullptr, &b});
    CHECK(tee.sinks().size() == 2); // null dropped
    tee.add_track(0, {Kind::Core, 0, 2, "core"});
    tee.span(0, "k", 3, 7);
    tee.counter(0, 4, -2);
    tee.finish(9);
    const std::vector<std::string> expected = {"add 0 core", "span 0 k 3 7", "counter 0 4 -2", "finish 9"};
    CHECK(a.calls == expected);
    CHECK(b.calls == expected);
}

TEST_CASE("TeeTraceSink finishes every sink, then rethrows the first failure", "[traces][tee]") {
    const std::string bad = (std::filesystem::temp_directory_path() / "npusim_no_such_dir_xyz" / "t.json").string();
    PerfettoTraceSink perfetto(bad);
    SummaryTraceSink summary;
    Recorder rec;
    TeeTraceSink tee({&perfetto, &summary, &rec});
    tee.add_track(0, {Kind::Core, 0, 2, "core"});
    tee.span(0, "k", 0, 5);
    CHECK_THROWS_WITH(tee.finish(10), Catch::Contains(bad));
    CHECK(summary.end_cycle() == 10u);
    CHECK(summary.find(0)->busy_cycles == 5);
    CHECK(rec.calls.back() == "finish 10");
}

TEST_CASE("TeeTraceSink forwards the detailed calls: each sink gets them or its own default", "[traces][tee]") {
    Recorder plain;
    DetailedRecorder detailed, other;
    TeeTraceSink tee({&plain, &detailed, &other});
    npusim::sim::RunInfo info;
    info.design = "d";
    tee.begin_run(info);
    tee.add_track(0, {Kind::Core, 0, 2, "core"});
    const npusim::sim::TraceArg args[] = {npusim::sim::TraceArg::num("n", 1)};
    tee.detailed_span(0, npusim::sim::TraceKind::KernelCall, "k", 0, 5, args);
    tee.detailed_span(0, npusim::sim::TraceKind::LockStall, "stall", 5, 9, args);
    tee.instant(0, npusim::sim::TraceKind::LockAcquire, "acquire", 9, args);
    // The plain sink sees the kernel call as a span (the default) and neither the stall nor the instant.
    CHECK(plain.calls == std::vector<std::string>{"add 0 core", "span 0 k 0 5"});
    CHECK(detailed.calls ==
          std::vector<std::string>{"begin d", "detailed k 1", "detailed stall 1", "instant acquire 9"});
    CHECK(tee.warnings() == std::vector<std::string>{"w", "w"});
}

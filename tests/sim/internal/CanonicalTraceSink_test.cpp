// CanonicalTraceSink: the sink behind it gets the same calls in the same order whatever order the
// simulator reported the events in; a lock's counter gets one value per cycle (its value at the
// cycle's end, summed from the changes in cycle order, not the transient value of one report
// order); a lock's release comes before the acquire at the same cycle.
#include "CanonicalTraceSink.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <functional>
#include <string>
#include <vector>

using namespace npusim::sim;

namespace {
class Recording final : public TraceSink {
public:
    std::vector<std::string> lines;
    void add_track(int track, const TrackInfo& info) override {
        lines.push_back(fmt::format("track {} {}", track, info.name));
    }
    void span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) override {
        lines.push_back(fmt::format("span {} {} {} {}", track, name, begin, end));
    }
    void detailed_span(int track, TraceKind kind, std::string_view name, std::uint64_t begin, std::uint64_t end,
                       TraceArgs args) override {
        std::string a;
        for (const auto& x : args)
            a += x.is_number ? fmt::format(" {}={}", x.key, x.number) : fmt::format(" {}={}", x.key, x.text);
        lines.push_back(fmt::format("dspan {} {} {} {} {}{}", track, static_cast<int>(kind), name, begin, end, a));
    }
    void instant(int track, TraceKind, std::string_view name, std::uint64_t cycle, TraceArgs args) override {
        lines.push_back(fmt::format("instant {} {} {} by={}", track, name, cycle, args.empty() ? "" : args[0].text));
    }
    void counter(int track, std::uint64_t cycle, std::int64_t value) override {
        lines.push_back(fmt::format("counter {} {} {}", track, cycle, value));
    }
    void finish(std::uint64_t end) override { lines.push_back(fmt::format("finish {}", end)); }
};

// One run's reports: two tracks (a core and a lock), a lock that core and DMA hand over at cycle 10.
// `order` permutes the reports after the tracks; the lock's values are what each order would show.
std::vector<std::string> replay(const std::vector<int>& order) {
    Recording out;
    CanonicalTraceSink c(out);
    c.add_track(0, {TrackInfo::Kind::Core, 0, 2, "core (0,2) w"});
    c.add_track(1, {TrackInfo::Kind::Lock, 0, 2, "in_cons_lock"});
    c.counter(1, 0, 1); // the initial value, reported first as the engine does
    const TraceArg by_core[] = {TraceArg::str("by", "core")};
    const TraceArg by_dma[] = {TraceArg::str("by", "dma")};
    const TraceArg bytes[] = {TraceArg::num("bytes", 64)};
    // A release (+1) and an acquire (-1) at cycle 10: the counter reports depend on their order.
    const bool release_first = std::find(order.begin(), order.end(), 2) < std::find(order.begin(), order.end(), 3);
    std::vector<std::function<void()>> reports = {
        [&] { c.detailed_span(0, TraceKind::KernelCall, "kernel k", 2, 10, bytes); },
        [&] { c.span(0, "other", 0, 10); },
        [&] {
            c.instant(1, TraceKind::LockRelease, "release", 10, by_dma);
            c.counter(1, 10, release_first ? 2 : 1);
        },
        [&] {
            c.instant(1, TraceKind::LockAcquire, "acquire", 10, by_core);
            c.counter(1, 10, release_first ? 1 : 0);
        },
        [&] { c.detailed_span(0, TraceKind::LockStall, "stall", 10, 12, {}); },
    };
    for (int i : order) reports[static_cast<std::size_t>(i)]();
    c.finish(20);
    return out.lines;
}
} // namespace

TEST_CASE("the canonical trace order does not depend on the report order", "[sim][trace][canonical]") {
    std::vector<int> order = {0, 1, 2, 3, 4};
    const auto first = replay(order);
    int orders = 0;
    do {
        INFO(fmt::format("order {}", fmt::join(order, ",")));
        CHECK(replay(order) == first);
        ++orders;
    } while (std::next_permutation(order.begin(), order.end()));
    CHECK(orders == 120);
    const std::vector<std::string> expected = {
        "track 0 core (0,2) w",
        "track 1 in_cons_lock",
        "counter 1 0 1",
        "span 0 other 0 10",
        "dspan 0 1 kernel k 2 10 bytes=64",
        "counter 1 10 1", // one value at cycle 10: 1 + 1 - 1, never the transient 2 or 0
        "instant 1 release 10 by=dma",
        "instant 1 acquire 10 by=core", // the release that let it through comes first
        "dspan 0 4 stall 10 12", // reported at its end
        "finish 20",
    };
    CHECK(first == expected);
}

TEST_CASE("a lock's counter sums its changes in cycle order when they were reported out of order",
          "[sim][trace][canonical]") {
    Recording out;
    CanonicalTraceSink c(out);
    c.add_track(0, {TrackInfo::Kind::Lock, 0, 1, "l"});
    c.add_track(1, {TrackInfo::Kind::Dma, 0, 1, "(0,1) MM2S 0"});
    c.counter(0, 0, 0);
    c.counter(0, 30, 2); // +2 at 30, applied first (a release ahead of simulated time)
    c.counter(0, 20, 1); // -1 at 20, reported later by a process behind in time
    c.counter(1, 5, 7); // a counter on another kind of track passes through as it is
    c.counter(1, 5, 9);
    c.finish(40);
    CHECK(out.lines == std::vector<std::string>{"track 0 l", "track 1 (0,1) MM2S 0", "counter 0 0 0", "counter 1 5 7",
                                                "counter 1 5 9", "counter 0 20 -1", "counter 0 30 1", "finish 40"});
}

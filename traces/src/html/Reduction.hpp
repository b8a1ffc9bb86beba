#pragma once
// The HTML report's reducing part: from the collected run to what is drawn and tabulated.
//  - the timeline: the tracks in display order (runtime, then tiles by column from the top row
//    down), per track one series of spans per kind; beyond a span limit, neighbouring spans of one
//    kind on one track merge (the smallest gap, 0 or a power of two, that brings the count under
//    the limit);
//  - the counters: each fifo end's full-slot lock against the ring's depth, then the other locks;
//    beyond a point limit, a counter becomes its per-interval minimum and maximum;
//  - the utilisation figures of each core and DMA channel against the channels' peaks.
#include "SpanCollector.hpp"

#include "npusim/sim/Simulator.hpp"

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace npusim::traces::html {

/// The span kinds as the page names and colours them (index: kind_index()).
inline constexpr const char* kKinds[] = {"other",      "kernel call", "transfer",     "streaming",
                                         "lock stall", "blocked",     "stream stall", "cascade stall"};
inline constexpr const char* kColors[] = {"#9aa5b1", "#4e79a7", "#59a14f", "#1e6b2e",
                                          "#e15759", "#9b59b6", "#f28e2b", "#d4a017"};
int kind_index(sim::TraceKind k);

/// Sort key of a track on the timeline: the runtime first, then tiles by column and from the top
/// row down, the core before its DMA channels, S2MM before MM2S.
std::tuple<int, int, int, int, int, int> timeline_key(const sim::TrackInfo& t);

/// A span on the timeline: one recorded span, or several merged.
struct MergedSpan {
    std::uint64_t begin = 0, end = 0;
    std::uint64_t busy = 0; ///< the cycles of the spans it stands for
    std::uint64_t count = 1; ///< the spans it stands for
    std::uint32_t name = 0, args = 0; ///< its first span's
};
struct Series {
    int kind = 0; ///< kind_index()
    std::vector<MergedSpan> spans; ///< by begin
};
struct TimelineRow {
    const Track* track = nullptr;
    std::vector<Series> series; ///< in drawing order: long spans first
};
struct ReducedTimeline {
    std::uint64_t quantum = 0; ///< the merging gap, 0: nothing merged
    std::size_t embedded = 0; ///< spans after merging
    std::vector<TimelineRow> rows; ///< every track but the locks, in timeline order
};
/// `max_spans` 0: no limit.
ReducedTimeline reduce_timeline(const CollectedRun& run, std::size_t max_spans);

struct ReducedCounter {
    std::string label, sub, kind; ///< kind "fifo" or "lock"
    std::int64_t cap = 1; ///< the chart's top: a fifo's depth, a lock's largest value
    bool envelope = false; ///< reduced: per interval of `width` cycles, lo and hi
    std::uint64_t width = 0;
    std::vector<std::uint64_t> t;
    std::vector<std::int64_t> v, lo, hi;
};
/// `max_points` 0: no limit.
std::vector<ReducedCounter> reduce_counters(const CollectedRun& run, std::size_t max_points);

struct CoreFigures {
    const Track* track = nullptr;
    double busy = 0, stalled = 0; ///< percent of the run
};
struct DmaFigures {
    const Track* track = nullptr;
    std::uint64_t bytes = 0, active = 0, transfers = 0;
    double peak = 0; ///< bytes per cycle
    double streaming = 0; ///< percent of the run
    double rate = 0, while_active = 0; ///< bytes per cycle over the run, while streaming
    double of_peak = 0; ///< percent
};
struct Utilisation {
    std::vector<CoreFigures> cores;
    std::vector<DmaFigures> dmas;
};
/// Shim channels take a finished run's figures (`result`) when there is one.
Utilisation utilisation(const CollectedRun& run, const sim::SimResult* result);

} // namespace npusim::traces::html

#pragma once
// Chrome Trace Event JSON that opens in ui.perfetto.dev, shaped like the output of mlir-aie's
// trace parser (python/utils/trace/parse.py), so tools written against that output apply:
//
//   - a bare JSON array (no {"traceEvents": ...} wrapper), one event per line;
//   - "M" metadata first: one process_name per pid, one thread_name per tid;
//   - time unit = cycles, written as microseconds (mlir-aie's "1 us = 1 cycle" convention).
//
// Processes (pids). Like mlir-aie, one pid per (trace type, tile), named after the trace type with
// mlir-aie's tile label "tile<row>,<col>" (parse.py builds it as row + "," + col, so the golden
// "core_trace for tile2,1" is the core at col 1, row 2):
//   Core track             -> "core_trace for tile<row>,<col>"
//   Dma track, row 0       -> "shim_trace for tile<row>,<col>"
//   Dma track, row 1       -> "memtile_trace for tile<row>,<col>"
//   Dma track, rows >= 2   -> "mem_trace for tile<row>,<col>"
//   Lock track             -> "locks tile<row>,<col>"        (npusim's own; mlir-aie has none)
//   Runtime track          -> "runtime"                      (one process for all runtime tracks)
// pids are numbered from 0 in this order: the runtime process, then by (col, row), then core,
// DMA, locks. tids number a process's tracks from 0 in track-id order.
//
// Events. Each span is ONE complete event {"ph": "X", "ts": begin, "dur": end - begin}, not a
// B/E pair as in mlir-aie: one line per span, no pairing to get wrong for back-to-back or
// zero-length spans (a span with end < begin gets dur 0). Each thread_name is the track name.
// Counters are {"ph": "C", "name": <track name>, "args": {"value": v}} on the track's pid (tid is
// written for reference; Chrome counters are per process). Lock tracks get no thread_name unless
// they also carry spans. Span and counter events are written in time order (ties: call order).
//
// Everything is buffered in memory; the file is written by finish(), which throws
// std::runtime_error naming the path if it cannot be written.
#include "npusim/sim/TraceSink.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npusim::traces {

class PerfettoTraceSink final : public sim::TraceSink {
public:
    explicit PerfettoTraceSink(std::string path);

    /// Throws std::invalid_argument if `track` was already added.
    void add_track(int track, const sim::TrackInfo& info) override;
    /// span()/counter() throw std::out_of_range for a track that was never added.
    void span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) override;
    void counter(int track, std::uint64_t cycle, std::int64_t value) override;
    /// Writes the file (again, if called twice).
    void finish(std::uint64_t end_cycle) override;

    const std::string& path() const noexcept { return path_; }

    /// The process a track is filed under, e.g. "core_trace for tile2,0" for the core at (0,2).
    static std::string process_name(const sim::TrackInfo& info);

private:
    struct Event {
        std::uint64_t ts = 0;
        std::uint64_t dur = 0; ///< spans
        std::int64_t value = 0; ///< counters
        std::uint32_t track = 0; ///< index into tracks_
        std::uint32_t name = 0; ///< index into names_ (spans)
        bool is_counter = false;
    };
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };

    std::uint32_t index_of(int track, const char* call) const;
    std::uint32_t intern(std::string_view name);

    std::string path_;
    std::vector<int> ids_; ///< track id per track index
    std::vector<sim::TrackInfo> tracks_; ///< in add_track order
    std::unordered_map<int, std::uint32_t> index_; ///< track id -> index
    std::vector<std::string> names_; ///< interned span names
    std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> name_ids_;
    std::vector<Event> events_; ///< in call order
};

} // namespace npusim::traces

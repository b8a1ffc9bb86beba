#pragma once
// Chrome Trace Event JSON for ui.perfetto.dev: npusim's rich trace (`--trace F.json`, the default
// `--trace-format rich`), every span, instant and counter the simulator reports, with their
// arguments. (`--trace-format mlir-aie` writes MlirAieTraceSink's file instead.)
//
//   {"displayTimeUnit": "ns",
//    "otherData": {"ts_unit": "cycles", "clock_mhz": 1000, "cycle_ns": 1, "design": ..., "device": ..., "arch": ...},
//    "traceEvents": [
//   <one event per line>
//   ]}
//
// Time unit: ts and dur are cycles of the array clock (RunInfo::clock_mhz, also in "otherData" and
// in the "clock" metadata event). "displayTimeUnit": "ns" makes Perfetto read them as nanoseconds,
// so its time axis counts cycles (1 ns shown = 1 cycle; real time = cycles / clock_mhz us), as
// the VCD does.
//
// Processes (pids), named with mlir-aie's tile label "tile<row>,<col>" (parse.py builds it as
// row + "," + col, so "core_trace for tile2,1" is the core at col 1, row 2):
//   Core track             -> "core_trace for tile<row>,<col>"
//   Dma track, row 0       -> "shim_trace for tile<row>,<col>"
//   Dma track, row 1       -> "memtile_trace for tile<row>,<col>"
//   Dma track, rows >= 2   -> "mem_trace for tile<row>,<col>"
//   Lock track             -> "locks tile<row>,<col>"
//   Runtime track          -> "runtime"                      (one process for all runtime tracks)
// pids are numbered from 0 in this order: the runtime process, then by (col, row), then core,
// DMA, locks. tids number a process's tracks from 0 in track-id order.
//
// Events, after the "M" metadata (process_name per pid, thread_name per tid, one "clock" event
// with the unit and clock in its args):
//   - span / detailed_span: ONE complete event {"ph": "X", "ts": begin, "dur": end - begin,
//     "args": {...}} (end < begin gives dur 0). Detailed spans carry their arguments (kernel calls:
//     kernel, worker, call, kernel_cycles, call_overhead_cycles; BDs: fifo, role, element, bytes,
//     BD; lock stalls: what, lock, amount, named "lock stall: <lock>") and a "cat" naming their
//     kind ("kernel", "transfer", "lock_stall", "blocked", "other").
//   - instant: {"ph": "i", "s": "t", ...} on the track's thread: on lock tracks every acquire,
//     release and set (args lock, by, amount), so a release and an acquire in one cycle are two
//     marks at the same ts; on core tracks the core's acquire and release requests.
//   - counter: {"ph": "C", "name": <track name>, "args": {"value": v}} on the track's pid (lock
//     values; Chrome counters are per process, tid is written for reference).
// Lock tracks get a thread_name only if they carry spans or instants. Timed events are written in
// time order (ties: call order).
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

    /// The clock, design and device for the metadata (without it: clock_mhz 0, names empty).
    void begin_run(const sim::RunInfo& info) override;
    /// Throws std::invalid_argument if `track` was already added.
    void add_track(int track, const sim::TrackInfo& info) override;
    /// span()/detailed_span()/instant()/counter() throw std::out_of_range for a track that was
    /// never added.
    void span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) override;
    void detailed_span(int track, sim::TraceKind kind, std::string_view name, std::uint64_t begin, std::uint64_t end,
                       sim::TraceArgs args) override;
    void instant(int track, sim::TraceKind kind, std::string_view name, std::uint64_t cycle,
                 sim::TraceArgs args) override;
    void counter(int track, std::uint64_t cycle, std::int64_t value) override;
    /// Writes the file (again, if called twice).
    void finish(std::uint64_t end_cycle) override;

    const std::string& path() const noexcept { return path_; }

    /// The process a track is filed under, e.g. "core_trace for tile2,0" for the core at (0,2).
    static std::string process_name(const sim::TrackInfo& info);

private:
    enum class Ph : std::uint8_t { Span, Instant, Counter };
    struct Event {
        std::uint64_t ts = 0;
        std::uint64_t dur = 0; ///< spans
        std::int64_t value = 0; ///< counters
        std::uint32_t track = 0; ///< index into tracks_
        std::uint32_t name = 0; ///< index into names_ (spans, instants)
        std::uint32_t args = 0; ///< index into args_ (0: no arguments)
        Ph ph = Ph::Span;
        sim::TraceKind kind = sim::TraceKind::Other;
    };
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };

    std::uint32_t index_of(int track, const char* call) const;
    std::uint32_t intern(std::string_view name);
    std::uint32_t add_args(sim::TraceArgs args);
    void add_span(int track, sim::TraceKind kind, std::string_view name, std::uint64_t begin, std::uint64_t end,
                  sim::TraceArgs args);

    std::string path_;
    std::vector<int> ids_; ///< track id per track index
    std::vector<sim::TrackInfo> tracks_; ///< in add_track order
    std::unordered_map<int, std::uint32_t> index_; ///< track id -> index
    std::vector<std::string> names_; ///< interned span names
    std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> name_ids_;
    std::vector<Event> events_; ///< in call order
    std::vector<std::string> args_{"{}"}; ///< rendered JSON objects of event arguments
    sim::RunInfo run_;
};

} // namespace npusim::traces

#pragma once
// The HTML report's collecting part: what the TraceSink callbacks deliver (the run, its tracks,
// spans and counter values) and what begin_run copies from the netlist (tiles, locks, flows, the
// shim tasks' sizes) and the timing parameters (DMA peaks). Per track it also sums the cycles of
// each kind and the bytes moved, over every span, for the utilisation figures.
#include "npusim/sim/TraceSink.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace npusim::traces::html {

struct Span {
    std::uint64_t begin = 0, end = 0;
    std::uint32_t name = 0; ///< index into CollectedRun::names
    std::uint32_t args = 0; ///< index into CollectedRun::args (0: none)
    std::uint32_t merged = 1; ///< spans it stands for
    sim::TraceKind kind = sim::TraceKind::Other;
};

struct Track {
    int id = 0;
    sim::TrackInfo info;
    std::vector<Span> spans;
    std::vector<std::pair<std::uint64_t, std::int64_t>> values; ///< counter
    std::uint64_t kernel_cycles = 0, stall_cycles = 0, transfer_cycles = 0, streaming_cycles = 0;
    std::uint64_t blocked_cycles = 0, bytes = 0, calls = 0, transfers = 0;
};

struct LockInfo {
    std::string name, object, role;
    model::TileCoord tile;
    int init = 0;
};

struct TileInfo {
    model::TileCoord tile;
    std::vector<std::string> workers, buffers, locks, fifo_ends;
    std::uint64_t buffer_bytes = 0;
};

struct FlowInfo {
    std::string label; ///< "'in' stream"
    model::StreamEndpoint source;
    std::vector<model::StreamEndpoint> dests;
    std::vector<std::vector<model::TileCoord>> paths;
};

/// Everything the report is rendered from.
struct CollectedRun {
    bool finished = false;
    std::uint64_t end_cycle = 0;
    std::size_t span_count = 0;
    sim::RunInfo run; ///< without its pointers (not valid past the run)
    double tile_dma_peak = 0, shim_dma_peak = 0; ///< bytes per cycle, 0: unknown
    int cols = 0, rows = 0;
    std::vector<LockInfo> locks;
    std::vector<TileInfo> tiles; ///< the tiles the design uses, by column then row
    std::vector<FlowInfo> flows;
    std::vector<Track> tracks; ///< in add_track order
    std::vector<std::string> names; ///< span names, interned
    std::vector<std::string> args{""}; ///< span arguments as rendered JSON objects, interned
};

class SpanCollector {
public:
    void begin_run(const sim::RunInfo& info);
    /// Throws std::invalid_argument if `track` was already added.
    void add_track(int track, const sim::TrackInfo& info);
    /// Throws std::out_of_range for a track never added.
    void add_span(int track, sim::TraceKind kind, std::string_view name, std::uint64_t begin, std::uint64_t end,
                  sim::TraceArgs args);
    /// Throws std::out_of_range for a track never added.
    void counter(int track, std::uint64_t cycle, std::int64_t value);
    void finish(std::uint64_t end_cycle);

    const CollectedRun& run() const noexcept { return run_; }

private:
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };

    Track& track_of(int track, const char* call);
    std::uint32_t intern(std::string_view name);

    CollectedRun run_;
    /// Per shim channel ("(c,0) MM2S n"), the bytes of its tasks in sequence order (a completed
    /// task span is the next one, cyclically over invocations).
    std::unordered_map<std::string, std::vector<std::uint64_t>> shim_task_bytes_;
    std::unordered_map<int, std::size_t> index_; ///< track id -> index
    std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> name_ids_;
    std::unordered_map<std::string, std::uint32_t> arg_ids_; ///< rendered JSON object -> index
};

} // namespace npusim::traces::html

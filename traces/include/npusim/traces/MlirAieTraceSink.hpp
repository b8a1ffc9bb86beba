#pragma once
// The JSON that mlir-aie's trace parser (python/utils/trace/parse.py) makes from a hardware trace,
// made from a simulation instead (`--trace F.json --trace-format mlir-aie`), so mlir-aie's
// summary and visualisation scripts (get_trace_summary.py, print_cycles_summary, Perfetto) work
// on it unchanged:
//
//   [{"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "core_trace for tile2,0"}},
//   {"name": "thread_name", "ph": "M", "pid": 0, "tid": 0, "args": {"name": "INSTR_EVENT_0"}},
//   ...
//   {"name": "INSTR_EVENT_0", "ts": 120, "ph": "B", "pid": 0, "tid": 0, "args": {}},
//   {"name": "INSTR_EVENT_0", "ts": 121, "ph": "E", "pid": 0, "tid": 0, "args": {}},
//   ...]
//
// (json.dumps spacing, one object per line, as parse.py prints it.)
//
// Trace units: the design's Netlist::trace (Program::enable_trace: the chosen workers' cores, mem
// and shim tiles, their event lists), or, when the design has none, every core with IRON's
// default core events and no buffer limit. Processes: one per unit, named
// "<core|mem|shim|memtile>_trace for tile<row>,<col>", pids numbered as parse.py numbers them:
// by packet type (core, mem, shim, memtile), then in the order the units were configured. Eight
// threads per process (tid = slot 0..7) named after the slot's event ("NONE" for an empty slot).
//
// Events: B/E pairs in cycles (ts is the run's cycle count, the same time base for every unit).
// What fires (docs/traces.md has the table): on a core, INSTR_EVENT_0 one cycle at each kernel
// call's start and INSTR_EVENT_1 one cycle at its end (as event0()/event1() bracket a kernel in
// mlir-aie's kernels), INSTR_CALL / INSTR_RETURN likewise, INSTR_VECTOR over the whole call,
// LOCK_STALL while the core waits for a lock, INSTR_LOCK_ACQUIRE_REQ / _RELEASE_REQ one cycle per
// request, PORT_RUNNING_n while the DMA channel its slot watches moves data; on a core's memory
// module DMA_<dir>_<n>_START_TASK (first BD), _FINISHED_BD, _STALLED_LOCK; on a mem tile
// PORT_RUNNING_n; on a shim tile DMA_<dir>_<n>_START_TASK / _FINISHED_TASK / _FINISHED_BD per task
// and PORT_RUNNING_n. Known events the simulator does not model (MEMORY_STALL, STREAM_STALL,
// CONFLICT_DM_BANK_n, ...) never fire. Events are written per pid, in time order (at one ts:
// ends before begins, then in the order their causes happened).
//
// Trace buffer: with a configured trace_size, each unit's events are encoded as the hardware's
// event-time frames would be (8-byte Start, then 1-4 bytes per cycle at which slots change,
// packed 28 payload bytes into 32-byte packets); packets go into the buffer in the order they
// fill, and once it is full the rest is dropped, as on the NPU. An event whose begin falls in a
// dropped packet is left out (with its end); warnings() then says how many.
#include "npusim/sim/TraceSink.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npusim::traces {

class MlirAieTraceSink final : public sim::TraceSink {
public:
    explicit MlirAieTraceSink(std::string path);

    /// The architecture (event names), and the design's trace configuration if it has one.
    void begin_run(const sim::RunInfo& info) override;
    /// Throws std::invalid_argument if `track` was already added.
    void add_track(int track, const sim::TrackInfo& info) override;
    /// span()/detailed_span()/instant() throw std::out_of_range for a track never added. A plain
    /// span on a DMA track is a transfer (the shim DMA's tasks); on other tracks it is ignored.
    void span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) override;
    void detailed_span(int track, sim::TraceKind kind, std::string_view name, std::uint64_t begin, std::uint64_t end,
                       sim::TraceArgs args) override;
    void instant(int track, sim::TraceKind kind, std::string_view name, std::uint64_t cycle,
                 sim::TraceArgs args) override;
    /// Lock values have no place in mlir-aie's format: ignored.
    void counter(int track, std::uint64_t cycle, std::int64_t value) override;
    /// Writes the file (again, if called twice).
    void finish(std::uint64_t end_cycle) override;
    /// After finish(): the trace-buffer overflow, if events were dropped.
    std::vector<std::string> warnings() const override;

    const std::string& path() const noexcept { return path_; }

    /// What the last finish() wrote.
    struct Totals {
        std::uint64_t events = 0; ///< B/E pairs written
        std::uint64_t dropped = 0; ///< B/E pairs left out because the trace buffer was full
        std::uint64_t packets = 0; ///< 32-byte trace packets the run produced
        std::uint64_t buffer_packets = 0; ///< packets the trace buffer holds (0: no limit)
    };
    const Totals& totals() const noexcept { return totals_; }

    /// mlir-aie's process name: "core_trace for tile2,0" for the core unit at col 0, row 2.
    static std::string process_name(model::TraceUnitType type, model::TileCoord tile);

private:
    /// What a track reported, in call order.
    struct Record {
        sim::TraceKind kind = sim::TraceKind::Other;
        std::uint64_t begin = 0;
        std::uint64_t end = 0; ///< == begin for instants
        std::uint64_t seq = 0; ///< call order over all tracks
    };
    std::uint32_t index_of(int track, const char* call) const;
    void record(int track, const char* call, sim::TraceKind kind, std::uint64_t begin, std::uint64_t end);

    std::string path_;
    model::Arch arch_ = model::Arch::AIE2;
    std::optional<model::TraceConfig> config_;
    std::vector<sim::TrackInfo> tracks_; ///< in add_track order
    std::vector<std::vector<Record>> records_; ///< per track
    std::unordered_map<int, std::uint32_t> index_; ///< track id -> index
    std::uint64_t seq_ = 0;
    Totals totals_;
    std::vector<std::string> warnings_;
};

} // namespace npusim::traces

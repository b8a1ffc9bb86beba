#pragma once
// `npusim run --html F.html`: one self-contained HTML report of a run (inline CSS, JavaScript and
// SVG; nothing is loaded from the network), for a browser:
//   - the header: design, device, arch, clock, cycles, the status (PASS, FAIL, deadlock, limit,
//     error) and the run's figures;
//   - the deadlock (or limit) diagnosis when the run ended in one: its case, the wait-for graph
//     drawn as SVG (the cycle red, the causal chain bold) and the report's text;
//   - a per-tile timeline: one row per core and DMA channel (and the runtime), spans coloured by
//     kind (kernel call, transfer, streaming, lock stall, blocked, other), zoom and pan (wheel,
//     drag, buttons), a tooltip with the span's name, cycles and arguments;
//   - fifo occupancy over time: the value of each fifo end's full-slot lock (`<fifo>_cons_lock_N`,
//     role "... cons_lock (full slots)") as a step chart against the ring's depth, on the
//     timeline's time axis; other locks (barriers) too;
//   - utilisation against peak: per core, kernel cycles over the run; per DMA channel, streaming
//     cycles and bytes per cycle against the channel's peak (TimingParams tile_dma / shim_dma
//     bytes_per_cycle);
//   - the design graph: the array's tiles (DeviceSpec columns x rows), the stream flows as arrows
//     along their switchbox paths, and per tile its worker, buffers, locks and fifo ends.
//
// The sink collects every track, span and counter (RunInfo::netlist and ::timing give the design
// graph and the peaks; begin_run copies what it needs). The file is written by finish() or, with
// write_on_finish false, by write(outcome) once the caller knows how the run ended (the CLI writes
// it after a pass, a mismatch or a failure alike). Large runs are reduced: beyond
// Limits::max_spans, neighbouring spans of one kind on one track are merged (the smallest gap
// that brings the count under the limit; the report says so), and a counter with more than
// Limits::max_counter_points values is drawn as its per-interval minimum and maximum.
//
// Every text from the design (names, arguments, messages) is escaped: HTML text and attributes
// with &amp; &lt; &gt; &quot; &#39;, the embedded JSON with \u003c \u003e \u0026, so a name such
// as `<script>` shows as text. Write errors are std::runtime_error naming the path
// ("cannot write HTML report to '...': ...").
#include "npusim/sim/Diagnosis.hpp"
#include "npusim/sim/Simulator.hpp"
#include "npusim/sim/TraceSink.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace npusim::traces {

class HtmlReportSink final : public sim::TraceSink {
public:
    /// How the run ended, for the header and the diagnosis section.
    struct Outcome {
        std::string status; ///< "PASS", "FAIL", "deadlock", "limit", "error"; empty: "finished"
        std::string message; ///< a failure's text (SimulationError::what())
        const sim::Diagnosis* diagnosis = nullptr; ///< deadlock or limit
        const sim::SimResult* result = nullptr; ///< a finished run: channel bytes and active cycles
        std::vector<std::pair<std::string, std::string>> figures; ///< more header lines: label, value
        /// The design and device, for a run that failed before simulating (no begin_run).
        std::string design, device;
    };
    struct Limits {
        std::size_t max_spans = 200'000; ///< spans embedded, over all tracks
        std::size_t max_counter_points = 2'000; ///< values per counter
    };

    explicit HtmlReportSink(std::string path, bool write_on_finish = true);
    HtmlReportSink(std::string path, bool write_on_finish, Limits limits);

    void begin_run(const sim::RunInfo& info) override;
    /// Throws std::invalid_argument if `track` was already added.
    void add_track(int track, const sim::TrackInfo& info) override;
    /// span()/detailed_span()/counter() throw std::out_of_range for a track never added.
    void span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) override;
    void detailed_span(int track, sim::TraceKind kind, std::string_view name, std::uint64_t begin, std::uint64_t end,
                       sim::TraceArgs args) override;
    void counter(int track, std::uint64_t cycle, std::int64_t value) override;
    /// Records the end; writes the file (with no outcome) when write_on_finish.
    void finish(std::uint64_t end_cycle) override;

    /// Writes the report with `outcome` (again, if called twice).
    void write(const Outcome& outcome);
    /// The whole page.
    std::string render(const Outcome& outcome) const;

    const std::string& path() const noexcept { return path_; }
    bool finished() const noexcept { return finished_; }
    std::size_t span_count() const noexcept { return span_count_; }

    /// Text for HTML content and attribute values: & < > " ' as entities.
    static std::string escape_html(std::string_view s);
    /// A JSON string literal (quotes included) safe inside a <script> element: < > & as \u003c
    /// \u003e \u0026, control characters escaped, invalid UTF-8 as U+FFFD.
    static std::string json_string(std::string_view s);

private:
    struct Span {
        std::uint64_t begin = 0, end = 0;
        std::uint32_t name = 0; ///< index into names_
        std::uint32_t args = 0; ///< index into args_ (0: none)
        std::uint32_t merged = 1; ///< spans it stands for (after reduction)
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
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };

    Track& track_of(int track, const char* call);
    std::uint32_t intern(std::string_view name);
    void add_span(int track, sim::TraceKind kind, std::string_view name, std::uint64_t begin, std::uint64_t end,
                  sim::TraceArgs args);

    // Parts of the page (HtmlReportSink.cpp).
    std::string render_header(const Outcome& o) const;
    std::string render_diagnosis(const Outcome& o) const;
    std::string render_utilisation(const Outcome& o) const;
    std::string render_design() const;
    std::string render_data(std::uint64_t& merged_quantum, std::size_t& embedded) const;

    std::string path_;
    bool write_on_finish_ = true;
    Limits limits_;
    bool finished_ = false;
    std::uint64_t end_cycle_ = 0;
    std::size_t span_count_ = 0;
    sim::RunInfo run_;
    double tile_dma_peak_ = 0, shim_dma_peak_ = 0; ///< bytes per cycle, 0: unknown
    int cols_ = 0, rows_ = 0;
    std::vector<LockInfo> locks_;
    std::vector<TileInfo> tiles_;
    std::vector<FlowInfo> flows_;
    /// Per shim channel ("(c,0) MM2S n"), the bytes of its tasks in sequence order (a completed
    /// task span is the next one, cyclically over invocations).
    std::unordered_map<std::string, std::vector<std::uint64_t>> shim_task_bytes_;
    std::vector<Track> tracks_; ///< in add_track order
    std::unordered_map<int, std::size_t> index_; ///< track id -> index
    std::vector<std::string> names_;
    std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> name_ids_;
    std::vector<std::string> args_{""}; ///< rendered JSON objects
    std::unordered_map<std::string, std::uint32_t> arg_ids_; ///< rendered JSON object -> index
};

} // namespace npusim::traces

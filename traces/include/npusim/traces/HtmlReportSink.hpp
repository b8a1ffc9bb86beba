#pragma once
// `npusim run --html F.html`: one self-contained HTML report of a run (inline CSS, JavaScript and
// SVG; nothing is loaded from the network), for a browser:
//   - the header: design, device, arch, clock, cycles, the status (PASS, FAIL, deadlock, limit,
//     error) and the run's figures;
//   - the deadlock (or limit) diagnosis when the run ended in one: its case, the wait-for graph
//     of `--dot` drawn as SVG (the cycle red, the causal chain bold) and the report's text;
//   - a per-tile timeline: one row per core and DMA channel (and the runtime), spans coloured by
//     kind (kernel call, transfer, streaming, lock stall, blocked, other), zoom and pan (wheel,
//     drag, buttons), a tooltip with the span's name, cycles and arguments;
//   - fifo occupancy over time: the value of each fifo end's full-slot lock (`<fifo>_cons_lock_N`,
//     role "... cons_lock (full slots)") as a step chart against the ring's depth, on the
//     timeline's time axis; other locks (barriers) too;
//   - utilisation against peak: per core, kernel cycles over the run; per DMA channel, streaming
//     cycles and bytes per cycle against the channel's peak (TimingParams tile_dma / shim_dma
//     bytes_per_cycle);
//   - the design graph: the array's tiles (DeviceSpec columns x rows, a cluster per column), the
//     stream flows as arrows labelled with their names, and per tile its worker, buffers, locks
//     and fifo ends.
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
//
// The parts, in traces/src/html/: SpanCollector (the callbacks' data), Reduction (timeline
// merging, counter reduction, utilisation figures), ReportPage and its sections (Sections,
// DiagnosisSection, DesignSection, DataJson). The wait-for and design graphs are laid out by
// Graphviz's library (GraphvizSvg: libgvc, the dot engine) and inlined as SVG; the page's style
// and script are traces/resources/report.css and report.js, embedded at build time.
#include "npusim/sim/Diagnosis.hpp"
#include "npusim/sim/Simulator.hpp"
#include "npusim/sim/TraceSink.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npusim::traces {

namespace html {
class SpanCollector;
}

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
    ~HtmlReportSink() override;

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
    bool finished() const noexcept;
    std::size_t span_count() const noexcept;

    /// Text for HTML content and attribute values: & < > " ' as entities.
    static std::string escape_html(std::string_view s);
    /// A JSON string literal (quotes included) safe inside a <script> element: < > & as \u003c
    /// \u003e \u0026, control characters escaped, invalid UTF-8 as U+FFFD.
    static std::string json_string(std::string_view s);

private:
    std::string path_;
    bool write_on_finish_ = true;
    Limits limits_;
    std::unique_ptr<html::SpanCollector> collector_;
};

} // namespace npusim::traces

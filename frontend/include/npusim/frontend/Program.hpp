#pragma once
// Program (IRON aie.iron.Program): device + runtime + workers. resolve() places tiles, allocates
// memory, locks, BDs and DMA channels, lowers every ObjectFifo, routes the stream flows and
// records the runtime sequence, producing the netlist the simulator executes. Every structural
// problem is a DesignError naming the design object, found here before anything is simulated.
#include "npusim/frontend/Runtime.hpp"
#include "npusim/frontend/Worker.hpp"
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Netlist.hpp"

#include <optional>
#include <string>
#include <vector>

namespace npusim::iron {

/// The number of buffers one fifo endpoint gets, set from outside the design (`npusim depth`): used
/// verbatim, as an explicit per-endpoint depth is, and still checked against the endpoint's acquires.
struct DepthOverride {
    std::string fifo; ///< fifo name
    int consumer = -1; ///< -1: the producer end; else the consumer's index among the fifo's consumers
    int depth = 0;
    friend bool operator==(const DepthOverride&, const DepthOverride&) = default;
};

struct ResolveOptions {
    /// aiecc `--alloc-scheme`; a Tile's own `allocation_scheme` overrides it for that tile.
    AllocScheme alloc_scheme = AllocScheme::Default;
    /// Operations a worker body may perform during its resolve-time trace before tracing stops
    /// (the largest acquire seen so far is then used for the depth rule).
    std::uint64_t trace_op_budget = 1u << 20;
    /// Turn the first resolve-time warning (static hang checks, allocation fallback) into a
    /// DesignError (`--werror`).
    bool werror = false;
    /// Depths of single endpoints, replacing what the depth rule would give them. Naming a fifo or
    /// end that does not exist or has no buffers of its own is a DesignError.
    std::vector<DepthOverride> depth_overrides{};
};

/// A trace event of IRON's enable_trace lists: a bare name (CoreEvent.INSTR_EVENT_0 ->
/// "INSTR_EVENT_0") or a port event, PortEvent(CoreEvent.PORT_RUNNING_0, WireBundle.DMA, 0, True)
/// -> TraceEvent::port("PORT_RUNNING_0", 0, true).
using TraceEvent = model::TraceEvent;

/// IRON Program.enable_trace (python/iron/program.py), the options npusim models. nullopt event
/// lists take IRON's defaults (python/utils/trace/setup.py _get_default_events_for_tile).
struct TraceOptions {
    std::uint64_t trace_size = 0; ///< bytes of the trace buffer; 0 (as IRON's None): no trace
    /// The workers to trace; nullopt: every worker whose WorkerOptions::trace is set (IRON's
    /// workers=None). IRON traces the core of each (and its memory module with coremem_events).
    std::optional<std::vector<Worker>> workers{};
    std::optional<std::vector<TraceEvent>> coretile_events{};
    std::optional<std::vector<TraceEvent>> coremem_events{}; ///< given: also trace each core tile's memory module
    std::optional<std::vector<TraceEvent>> memtile_events{};
    std::optional<std::vector<TraceEvent>> shimtile_events{};
    /// Mem and shim tiles to trace as well. IRON's Program traces worker tiles only; its lower-level
    /// configure_trace(tiles_to_trace) also takes mem and shim tiles, which is what this mirrors.
    std::vector<model::TileCoord> tiles{};
};

class Program {
public:
    Program(const model::DeviceSpec& device, Runtime rt, std::vector<Worker> workers, std::string name = "design");
    Program(const std::string& device_name, Runtime rt, std::vector<Worker> workers, std::string name = "design");

    /// Lower the design to a netlist (throws DesignError).
    model::Netlist resolve(const ResolveOptions& opts = {}) const;

    const model::DeviceSpec& device() const { return *device_; }
    const std::string& name() const { return name_; }
    const Runtime& runtime() const { return runtime_; }
    const std::vector<Worker>& workers() const { return workers_; }

    /// IRON Program.enable_trace(trace_size, workers, coretile_events, memtile_events,
    /// shimtile_events): record the chosen workers' cores (and tiles) in a trace buffer of
    /// `trace_size` bytes. Checked by resolve() (DesignError: more than eight events, an unknown
    /// event, a worker not in the program). Calling it again replaces the configuration.
    void enable_trace(std::uint64_t trace_size, std::optional<std::vector<Worker>> workers = std::nullopt,
                      std::optional<std::vector<TraceEvent>> coretile_events = std::nullopt,
                      std::optional<std::vector<TraceEvent>> memtile_events = std::nullopt,
                      std::optional<std::vector<TraceEvent>> shimtile_events = std::nullopt);
    /// The same with every option (coremem_events, mem and shim tiles).
    void enable_trace(TraceOptions opts);
    /// What enable_trace recorded; nullopt if it was not called.
    const std::optional<TraceOptions>& trace_options() const { return trace_; }

private:
    const model::DeviceSpec* device_;
    Runtime runtime_;
    std::vector<Worker> workers_;
    std::string name_;
    std::optional<TraceOptions> trace_;
};

} // namespace npusim::iron

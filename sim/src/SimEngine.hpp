#pragma once
// SimEngine: one simulation run. It owns a fresh SystemC context, the run's control state, tile
// memories, locks, and the parts the Elaborator builds from a netlist (DMA channels, stream links,
// core processes, the runtime controller); it hands each component only the services it needs
// (RunServices and the *Services struct next to each component), runs the event loop, and turns
// the outcome into a SimResult or a SimulationError (deadlock report, protocol violation, limit).
#include "CanonicalTraceSink.hpp"
#include "CoreStreamInput.hpp"
#include "DeadlockAnalyzer.hpp"
#include "Elaborator.hpp"
#include "KernelPool.hpp"
#include "RunControl.hpp"
#include "RunServices.hpp"
#include "ScContextGuard.hpp"
#include "SemaphoreLock.hpp"
#include "SharedBandwidth.hpp"
#include "TaskBoard.hpp"
#include "TileMemory.hpp"
#include "npusim/sim/Simulator.hpp"

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace npusim::sim {

class SimEngine {
public:
    SimEngine(const model::Netlist& net, std::vector<std::vector<std::uint8_t>> host, const SimOptions& opts);
    /// On the caller's memory (simulate_in_place): nothing is owned, SimResult::host stays empty.
    SimEngine(const model::Netlist& net, std::vector<std::span<std::uint8_t>> host, const SimOptions& opts);
    ~SimEngine();
    SimResult run();

private:
    SimEngine(const model::Netlist& net, std::vector<std::span<std::uint8_t>> views, const SimOptions& opts,
              std::vector<std::vector<std::uint8_t>> owned);
    /// Builds the run's parts (Elaborator) and spawns its processes.
    void build();
    /// Wake every process with the run terminating, so each unwinds its stack.
    void terminate_processes();
    /// The state of the stopped run, for its diagnosis (deadlock or limit).
    DeadlockAnalyzer analyzer() const;
    void close_trace_on_failure();
    [[noreturn]] void throw_limit(std::uint64_t at) const;
    /// Between slices of the run: note the cycle when the run last progressed (host bytes moved
    /// by the shim channels, or runtime sequence instructions done, changed since the last call).
    void note_progress();

    ScContextGuard ctx_; // first member: created first, destroyed last
    const model::Netlist& net_;
    std::vector<std::vector<std::uint8_t>> host_; ///< the tensors, when the engine owns them
    std::vector<std::span<std::uint8_t>> views_; ///< what the run reads and writes: host_ or the caller's
    SimOptions opts_; ///< its trace is canonical_ (the user's sink behind it)
    RunControl run_;
    std::unique_ptr<CanonicalTraceSink> canonical_; ///< the trace in a report-order-free order
    TraceTracks tracks_;
    RunServices services_;
    TileMemory memory_;
    LockTable locks_;
    SharedBandwidth ddr_; ///< host memory shared by every shim channel
    std::map<model::TileCoord, SharedBandwidth> memtile_paths_; ///< per mem tile: its banks, shared by its channels
    RunStats stats_;
    TaskBoard board_;
    /// The links, channels, cores, cascades and runtime controller (Elaborator), in their
    /// construction order; after the tile memories, locks and shared paths they use.
    SimParts parts_;
    /// note_progress: host bytes + sequence instructions at the last call, and the cycle they last
    /// changed (the limit diagnosis tells a run still progressing from one repeating itself).
    std::uint64_t progress_sum_ = 0;
    std::uint64_t progress_cycle_ = 0;
    std::vector<InvocationResult> invocations_; ///< completed runs of the runtime sequence
};

} // namespace npusim::sim

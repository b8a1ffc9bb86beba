#pragma once
// SimEngine: one simulation run. It owns a fresh SystemC context, the tile memories, locks, DMA
// channels, stream links, core processes and the runtime controller built from a netlist, runs
// the event loop, and turns the outcome into a SimResult or a SimulationError (deadlock report,
// protocol violation, limit).
#include "ProcessClock.hpp"
#include "npusim/model/Error.hpp"
#include "npusim/sim/Simulator.hpp"

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace npusim::sim {

class SemaphoreLock;
class StreamLink;
class TileDmaChannel;
class ShimDmaChannel;
class CoreProcess;
class RuntimeController;

/// Creates a fresh sc_simcontext and makes it current; deletes it on destruction.
class ScContextGuard {
public:
    ScContextGuard();
    ~ScContextGuard();
    ScContextGuard(const ScContextGuard&) = delete;
    ScContextGuard& operator=(const ScContextGuard&) = delete;

private:
    sc_core::sc_simcontext* ctx_;
};

/// Thrown by SimEngine::fail (and at teardown) to unwind a process; caught by every process wrapper.
using ProcessAbort = ProcessClock::Terminate;

class SimEngine {
public:
    SimEngine(const model::Netlist& net, std::vector<std::vector<std::uint8_t>> host, const SimOptions& opts);
    ~SimEngine();
    SimResult run();

    // ---- services for components ----
    const model::Netlist& net() const { return net_; }
    const model::TimingParams& timing() const { return opts_.timing; }
    std::uint8_t* tile_memory(model::TileCoord t);
    std::vector<std::uint8_t>& host(int i) { return host_.at(static_cast<std::size_t>(i)); }
    SemaphoreLock& lock(int i) { return *locks_.at(static_cast<std::size_t>(i)); }
    TraceSink* trace() const { return opts_.trace; }
    int add_track(TrackInfo info);
    void register_process(ProcessState* ps) { processes_.push_back(ps); }
    /// Record the first error, stop the simulation and unwind the calling process.
    [[noreturn]] void fail(SimulationError err);
    bool failed() const { return error_.has_value(); }
    ShimDmaChannel* shim_channel(const model::StreamEndpoint& e);
    int task_queue_depth() const { return net_.device->task_queue_depth; }
    void task_done(int task);
    bool task_complete(int task) const { return task_done_.at(static_cast<std::size_t>(task)); }
    const sc_core::sc_event& task_event() const { return task_event_; }
    void controller_finished();
    void add_bytes(std::uint64_t b) { bytes_moved_ += b; }
    void count_bd() { ++bd_transfers_; }
    void warn(std::string w) { warnings_.push_back(std::move(w)); }

private:
    void build();
    /// Wake every process with ProcessClock::terminating set, so each unwinds its stack.
    void terminate_processes();
    std::string deadlock_report() const;
    [[noreturn]] void throw_limit(std::uint64_t at) const;

    ScContextGuard ctx_;   // first member: created first, destroyed last
    const model::Netlist& net_;
    std::vector<std::vector<std::uint8_t>> host_;
    SimOptions opts_;
    std::map<model::TileCoord, std::vector<std::uint8_t>> memory_;
    std::vector<std::unique_ptr<SemaphoreLock>> locks_;
    std::vector<std::unique_ptr<StreamLink>> links_;
    std::vector<std::unique_ptr<TileDmaChannel>> tile_channels_;
    std::vector<std::unique_ptr<ShimDmaChannel>> shim_channels_;
    std::vector<std::unique_ptr<CoreProcess>> cores_;
    std::unique_ptr<RuntimeController> controller_;
    std::vector<ProcessState*> processes_;
    std::vector<bool> task_done_;
    sc_core::sc_event task_event_;
    bool finished_ = false;
    std::optional<SimulationError> error_;
    int tracks_ = 0;
    std::uint64_t bytes_moved_ = 0;
    std::uint64_t bd_transfers_ = 0;
    std::vector<std::string> warnings_;
};

} // namespace npusim::sim

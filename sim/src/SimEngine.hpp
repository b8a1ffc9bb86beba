#pragma once
// SimEngine: one simulation run. It owns a fresh SystemC context, the run's control state, tile
// memories, locks, DMA channels, stream links, core processes and the runtime controller built
// from a netlist; it hands each component only the services it needs (RunServices and the
// *Services struct next to each component), runs the event loop, and turns the outcome into a
// SimResult or a SimulationError (deadlock report, protocol violation, limit).
#include "CanonicalTraceSink.hpp"
#include "CoreStreamInput.hpp"
#include "DeadlockAnalyzer.hpp"
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

class StreamLink;
class PacketSwitch;
class StreamReceiver;
class CascadeLink;
class SimProcess;
class TileDmaChannel;
class ShimDmaChannel;
class CoreProcess;
class RuntimeController;

class SimEngine {
public:
    SimEngine(const model::Netlist& net, std::vector<std::vector<std::uint8_t>> host, const SimOptions& opts);
    ~SimEngine();
    SimResult run();

private:
    void build();
    void build_packet_switches(const std::function<ShimDmaChannel*(const model::StreamEndpoint&)>& shim,
                               const std::function<TileDmaChannel*(int)>& tile_channel);
    ShimDmaChannel* shim_channel(const model::StreamEndpoint& e);
    /// Wake every process with the run terminating, so each unwinds its stack.
    void terminate_processes();
    /// The state of the stopped run, for its diagnosis (deadlock or limit).
    DeadlockAnalyzer analyzer() const;
    void close_trace_on_failure();
    [[noreturn]] void throw_limit(std::uint64_t at) const;

    ScContextGuard ctx_; // first member: created first, destroyed last
    const model::Netlist& net_;
    std::vector<std::vector<std::uint8_t>> host_;
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
    std::vector<std::unique_ptr<StreamLink>> links_; ///< one per netlist flow, in order
    std::vector<std::unique_ptr<PacketSwitch>> packet_switches_; ///< one per group of packet flows
    std::vector<const SimProcess*> link_senders_; ///< per link: its sending channel
    std::vector<std::unique_ptr<TileDmaChannel>> tile_channels_;
    std::vector<std::unique_ptr<ShimDmaChannel>> shim_channels_;
    /// Kernel calls' threads (SimOptions::kernel_threads > 1). Declared after the tile memories:
    /// it ends (every call finished) before they go.
    std::unique_ptr<KernelPool> kernel_pool_;
    std::vector<KernelTiming> kernel_nanos_; ///< CoreProcessServices::kernel_nanos
    std::vector<std::unique_ptr<CoreProcess>> cores_;
    std::vector<std::unique_ptr<CascadeLink>> cascades_; ///< one per netlist cascade, in order
    /// Per netlist flow that ends at a core's stream port (Flow::to_core): that port's receiver.
    std::map<std::size_t, std::unique_ptr<CoreStreamInput>> core_inputs_;
    std::unique_ptr<RuntimeController> controller_;
    std::vector<const SimProcess*> processes_; ///< in creation order (the deadlock report's order)
    std::vector<InvocationResult> invocations_; ///< completed runs of the runtime sequence
};

} // namespace npusim::sim

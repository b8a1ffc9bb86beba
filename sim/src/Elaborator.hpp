#pragma once
// Elaborator: builds the parts of a run from a netlist, one function per kind of element - the
// trace's start, tile memories, locks, tile DMA channels, stream links (with the shim channels
// they reach), packet switches, the kernel pool, cores and their stream ports, cascades, and the
// runtime controller - then spawns the processes. The order is fixed: it decides the order of the
// processes (the deadlock report's) and of their first events, and so the run's event order,
// cycles and traces.
#include "CoreStreamInput.hpp"
#include "KernelPool.hpp"
#include "RunServices.hpp"
#include "SemaphoreLock.hpp"
#include "SharedBandwidth.hpp"
#include "ShimDmaChannel.hpp"
#include "TaskBoard.hpp"
#include "TileMemory.hpp"
#include "npusim/model/NetlistRelations.hpp"
#include "npusim/sim/Simulator.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <vector>

namespace npusim::sim {

class StreamLink;
class PacketSwitch;
class CascadeLink;
class SimProcess;
class TileDmaChannel;
class CoreProcess;
class RuntimeController;

/// The parts of a run the elaborator builds. The engine owns them, declared in this order, so they
/// go in reverse: the controller and the cores before the kernel pool, the channels and the links
/// they use.
struct SimParts {
    SimParts();
    ~SimParts();
    SimParts(const SimParts&) = delete;
    SimParts& operator=(const SimParts&) = delete;

    /// The shim channel at `e`, nullptr if the run has none there.
    ShimDmaChannel* shim_channel(const model::StreamEndpoint& e) const;

    std::vector<std::unique_ptr<StreamLink>> links; ///< one per netlist flow, in order
    std::vector<std::unique_ptr<PacketSwitch>> packet_switches; ///< one per group of packet flows
    std::vector<const SimProcess*> link_senders; ///< per link: its sending channel or core
    std::vector<std::unique_ptr<TileDmaChannel>> tile_channels; ///< Netlist::channels order
    std::vector<std::unique_ptr<ShimDmaChannel>> shim_channels; ///< in the order flows first reach them
    /// Kernel calls' threads (SimOptions::kernel_threads > 1). Declared after the tile memories
    /// (the engine's): it ends (every call finished) before they go.
    std::unique_ptr<KernelPool> kernel_pool;
    std::vector<KernelTiming> kernel_nanos; ///< CoreProcessServices::kernel_nanos
    std::vector<std::unique_ptr<CoreProcess>> cores; ///< Netlist::cores order
    std::vector<std::unique_ptr<CascadeLink>> cascades; ///< one per netlist cascade, in order
    /// Per netlist flow that ends at a core's stream port (Flow::to_core): that port's receiver.
    std::map<std::size_t, std::unique_ptr<CoreStreamInput>> core_inputs;
    std::unique_ptr<RuntimeController> controller;
    std::vector<const SimProcess*> processes; ///< in creation order (the deadlock report's order)
};

/// What the elaborator builds on: the run's shared state, owned by the engine.
struct ElaborationInputs {
    const model::Netlist& net;
    const SimOptions& opts; ///< its trace is the run's (canonical) sink
    RunServices services;
    TileMemory& memory;
    LockTable& locks;
    SharedBandwidth& ddr; ///< host memory shared by every shim channel
    std::map<model::TileCoord, SharedBandwidth>& memtile_paths; ///< per mem tile: its banks, filled here
    RunStats& stats;
    TaskBoard& board;
    std::vector<std::span<std::uint8_t>>& host; ///< host tensors
    /// Called when invocation `index` of the runtime sequence has run to its end.
    std::function<void(std::uint32_t index, std::uint64_t begin, std::uint64_t end)> invocation_done;
};

class Elaborator {
public:
    Elaborator(const ElaborationInputs& in, SimParts& parts);
    /// Builds every part, in order, and spawns the processes. Throws SimulationError (Protocol)
    /// when the netlist names an end no channel or core serves.
    void elaborate();

private:
    void begin_trace();
    void tile_memories();
    void locks();
    void tile_dma_channels();
    void stream_links();
    void stream_link(std::size_t fi, const model::LinkEnds& e);
    void packet_switches();
    void kernel_pool();
    void cores();
    void core_stream_ports();
    void cascades();
    void runtime_controller();
    void spawn();

    /// The shim channel at `e`, created (and added to the processes) on first use.
    ShimDmaChannel* shim(const model::StreamEndpoint& e);
    /// Netlist::channels entry `index`'s channel, nullptr for -1 (no channel program).
    TileDmaChannel* tile_channel(int index) const;
    /// The banks of mem tile `t`, created on first use; nullptr for other tiles.
    SharedBandwidth* memtile_path(model::TileCoord t);

    const ElaborationInputs& in_;
    SimParts& parts_;
    const model::Netlist& net_;
    const model::DeviceSpec& dev_;
    const SimOptions& opts_;
    const ShimDmaServices shim_services_;
};

} // namespace npusim::sim

#pragma once
// ResolveContext: the plain state resolve's passes share (see docs/resolve.md). Each pass reads
// what earlier passes filled in and adds its own part; the netlist is the result.
#include "FifoState.hpp"
#include "npusim/frontend/Program.hpp"
#include "npusim/model/Netlist.hpp"
#include "resolve/DepthRule.hpp"
#include "resolve/ResourceLedger.hpp"

#include <map>
#include <set>
#include <vector>

namespace npusim::iron::detail {

/// A link and where it was placed; the channels of its fifos are filled in by FifoLowering.
struct LinkPlan {
    LinkState* link = nullptr;
    model::TileCoord tile;
    std::map<FifoState*, int> s2mm_of; ///< S2MM channel of each input fifo
    std::map<FifoState*, int> mm2s_of; ///< MM2S channel of each output fifo
};

/// An unplaced Tile that low-level objects name (one per Tile::logical, in first-use order): what
/// the placer needs to place it as aie-place-tiles places a logical tile (LowLevelPlacement).
struct LogicalTileRequest {
    Tile tile; ///< its kind and any column/row constraint
    model::TileKind kind = model::TileKind::Mem;
    std::string who; ///< the first object naming it, for messages
    std::pair<int, int> need{0, 0}; ///< S2MM, MM2S DMA channels its flow ends take
    std::vector<std::vector<Tile>> flows; ///< per flow through it: the flow's other ends
};

struct ResolveContext {
    ResolveContext(const Program& program, const ResolveOptions& opts);

    const Program& program;
    ResolveOptions opts;
    const model::DeviceSpec& dev;
    model::Netlist net;
    ResourceLedger ledger{dev, net};

    std::vector<WorkerState*> workers; ///< Program order
    std::vector<FifoState*> fifos; ///< sorted by name
    std::vector<LinkPlan> links; ///< in order of first fifo
    std::map<LinkState*, std::size_t> link_index;
    AcquireTable max_acquire; ///< endpoint uid -> largest acquire
    /// Endpoint uid -> what one traced iteration of its worker's body did to it: objects still held
    /// at its end (kept across iterations) and objects released. Only for bodies traced to the end.
    AcquireTable retained, released;
    std::map<WorkerState*, model::TileCoord> worker_tile;
    std::map<WorkerState*, int> worker_core; ///< index into net.cores
    std::set<model::TileCoord> worker_tiles; ///< compute tiles taken (workers, links, low-level objects)
    std::map<int, int> buffer_of; ///< Buffer uid -> NetBuffer index
    std::map<int, std::vector<int>> barrier_locks; ///< WorkerRuntimeBarrier uid -> its lock per worker
    std::map<int, model::StreamEndpoint> shim_alloc; ///< runtime endpoint uid -> shim channel
    /// Flow/PacketFlow shim_symbol -> its shim channel (aie.shim_dma_allocation @symbol)
    std::map<std::string, model::StreamEndpoint> shim_symbols;
    std::map<int, int> lock_of; ///< Lock uid -> NetLock index
    /// The unplaced Tiles of the low-level objects, and where each was placed (by Tile::logical).
    std::vector<LogicalTileRequest> logical_requests;
    std::map<std::uint64_t, model::TileCoord> logical_tile;
    /// DMA channels (S2MM, MM2S) the low-level flows' ends take on pinned tiles.
    std::map<model::TileCoord, std::pair<int, int>> pinned_flow_need;
    /// (worker, Lock uid) -> what its traced body did to that Lock; only for bodies traced to the
    /// end (an unfinished trace leaves both uses assumed).
    std::map<std::pair<WorkerState*, int>, std::pair<bool, bool>> user_lock_use;
    /// ScratchpadParameters the workers declare (fn_args), in worker and argument order, and the
    /// ones each worker's body reads (first-read order); see resolve/ScratchpadLowering.
    std::vector<std::shared_ptr<ScratchpadParamState>> declared_params;
    std::map<WorkerState*, std::vector<ScratchpadParamState*>> param_reads;
    /// Per reading core, in worker order: (parameter, its __param_ buffer) and the core's sync lock.
    std::vector<std::pair<ScratchpadParamState*, int>> param_buffers;
    std::vector<int> param_sync_locks;
    std::map<const ScratchpadParamState*, int> param_index; ///< -> Netlist::scratchpad_params index
    bool param_synced = false; ///< the sequence's parameter sync was lowered

    /// Endpoint uid -> its depth from ResolveOptions::depth_overrides (apply_depth_overrides).
    std::map<int, int> depth_override;

    model::CoreProgram& core_of(WorkerState* w);
    /// The buffers endpoint `ep` gets on `tile`: resolved_depth with its override, if any;
    /// recorded in net.fifo_ends as holding them (`holding`: OwnCopy, SharedPool or LinkPool).
    int endpoint_depth(const EndpointState& ep, model::TileCoord tile, BufferHolding rule,
                       model::FifoEndHolding holding);
    /// Record an endpoint without buffers of its own in net.fifo_ends (`pool_owner`: the endpoint
    /// whose buffers it uses, for SharesProducerPool and SharesLinkPool).
    void record_bufferless_end(const EndpointState& ep, model::TileCoord tile, model::FifoEndHolding holding,
                               const EndpointState* pool_owner);
    LinkPlan& plan_of(LinkState* l);
};

/// Check ResolveOptions::depth_overrides against the design's fifos and fill ctx.depth_override
/// (DesignError for a fifo or end that does not exist, or a depth below 1).
void apply_depth_overrides(ResolveContext& ctx);
/// After lowering: every override reached an end with buffers of its own (DesignError naming the
/// end that holds them otherwise).
void check_depth_overrides_used(const ResolveContext& ctx);

} // namespace npusim::iron::detail

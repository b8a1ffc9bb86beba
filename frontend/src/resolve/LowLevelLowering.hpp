#pragma once
// LowLevelLowering: the hand-written, below-ObjectFifo part of a design (IRON's Lock, Flow,
// TileDma registered with Runtime.add_lock / add_flow / add_tile_dma) straight into the netlist:
// locks at their ids, buffers of the DMA programs, channel programs with the users' BD chains and
// lock uses, and the flows with their shim allocations. The same limits as ObjectFifo lowering
// apply (ResourceLedger, BdEncoding); every rule cites its mlir-aie source (docs/resolve.md).
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

/// Default names of the design's unnamed Locks, TileDmas and WorkerRuntimeBarriers: "<kind>_<k>",
/// k counting that kind's unnamed objects of this design in first-use order (Locks as place_locks
/// takes them, TileDmas in add_tile_dma order, barriers in worker order), skipping a name the user
/// gave another object of the kind. Per design, not per process: the same design gets the same
/// names whatever the process built before it.
void name_unnamed_objects(ResolveContext& ctx);
/// Every Lock in first-use order: Runtime.add_lock, then workers' fn_args, then TileDma BDs.
std::vector<LockState*> all_locks(const ResolveContext& ctx);
/// A low-level object's tile: its coordinates when pinned (on the device), else where the placer
/// put its logical tile (LowLevelPlacement). `who` names the object in a DesignError.
model::TileCoord low_level_tile(const ResolveContext& ctx, const Tile& t, const std::string& who);
/// Every Lock of the design (Runtime.add_lock, workers' fn_args, the TileDmas' BDs): explicit ids
/// first, then the others at the lowest free id of their tile (AIEAssignLockIDs.cpp); each
/// worker's Locks bound to its core, reachable from it (UsesAreAccessible, AIEDialect.cpp).
void place_locks(ResolveContext& ctx);
/// The buffers of TileDma BDs no worker placed: on their own pinned tile, else the TileDma's tile.
void place_tile_dma_buffers(ResolveContext& ctx);
/// Runtime.add_flow: one netlist flow per source port (several dests: broadcast), shim channels
/// claimed, shim_symbol recorded as the shim allocation (flow.py _emit_shim_dma_alloc).
void lower_flows(ResolveContext& ctx);
/// Runtime.add_tile_dma: one channel program per DmaChannel, with the user's BDs.
void lower_tile_dmas(ResolveContext& ctx);
/// Every tile end of a hand-written Flow or PacketFlow (`object`) is a DMA channel with a BD
/// program (a TileDma channel); DesignError naming the end otherwise. Shim ends are the sequence's.
void check_ends_programmed(const ResolveContext& ctx, const std::string& object, const model::StreamEndpoint& source,
                           const std::vector<model::StreamEndpoint>& dests);

} // namespace npusim::iron::detail

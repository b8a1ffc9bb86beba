#pragma once
// LowLevelPlacement: where the low-level objects (Lock, Buffer, TileDma, Flow and PacketFlow ends)
// go when their Tile is not pinned (AnyMemTile, AnyComputeTile, Tile::any(kind), or only a column).
// IRON emits one aie.logical_tile per Tile object (python/iron/device/device.py resolve_tile) and
// aiecc's aie-place-tiles places it (mlir-aie lib/Dialect/AIE/Transforms/AIEPlacer.cpp at 3ca0193):
// compute logical tiles on the first free compute tile, column by column (SequentialPlacer::place,
// findUnconstrainedCoreCandidate), mem and shim ones with the links, by descending DMA demand, at
// the centroid column of the cores their flows reach (placeNonCoreTileByCentroid, l.1238). Every
// object naming one Tile (Tile::logical) lands on the same tile.
#include "resolve/ResolveContext.hpp"

#include <optional>

namespace npusim::iron::detail {

/// Gather the unplaced Tiles the low-level objects name (ctx.logical_requests, first-use order
/// as IRON's resolve_program collects them: flows, packet flows, TileDmas, Locks, the TileDmas'
/// Buffers), each with the DMA channels its flow ends take (addChannelRequirementsFromFlows:
/// one per DMA (tile, channel) and direction) and the flows' other ends; the same for pinned
/// tiles (ctx.pinned_flow_need). A Tile shared with an unpinned worker takes the worker's tile.
/// DesignError for a Tile with neither kind nor row (device.py: "tile_type must be set").
void collect_logical_tiles(ResolveContext& ctx);
/// Take the compute tiles that pinned low-level objects name (the Runtime's Locks, TileDmas, Flow and
/// PacketFlow ends, workers' Buffers, Switchboxes) out of the free ones, before any unpinned
/// worker or logical tile is placed: the toolchain places fully pinned logical tiles first.
void reserve_pinned_low_level_tiles(ResolveContext& ctx);
/// The compute logical tiles: after the workers, each on the first free compute tile in column
/// order that meets its column/row constraint, with the DMA channels its flows need
/// (validateAndUpdateChannelUsage). DesignError with the toolchain's words when none is free.
void place_logical_compute_tiles(ResolveContext& ctx);
/// SequentialPlacer::computeCentroidColumn for a low-level logical tile: the column minimising
/// the routing span to the cores its flows reach (through one intermediate tile); nullopt when
/// they reach none (the toolchain then uses column 0).
std::optional<int> logical_centroid_column(const ResolveContext& ctx, const LogicalTileRequest& r);

} // namespace npusim::iron::detail

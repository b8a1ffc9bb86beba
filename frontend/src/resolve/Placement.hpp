#pragma once
// Placement: which tile every worker, Buffer, link and runtime (shim) endpoint goes on. Links
// follow mlir-aie's SequentialPlacer (lib/Dialect/AIE/Transforms/AIEPlacer.cpp); workers and shim
// endpoints use our own deterministic rule; both are documented in docs/resolve.md, step 3.
#include "FifoState.hpp"
#include "resolve/ResolveContext.hpp"

#include <optional>

namespace npusim::iron::detail {

/// Pinned workers on their tile, the others on the first free compute tile (columns left to
/// right, rows bottom to top); one core program per worker, in Program order.
void place_workers(ResolveContext& ctx);
/// Each worker's Buffers on their tile (or the worker's), which the core must reach.
void place_buffers(ResolveContext& ctx);
void place_barriers(ResolveContext& ctx);
/// Links and the low-level objects' unplaced mem/shim tiles as SequentialPlacer places non-core
/// logical tiles: pinned links on their tile (which must have the DMA channels), then the others
/// by descending channel demand, each on the tile of its kind (mem by default) minimising
/// (|col - centroid column|, channels in use, col, row) among those with the channels it needs. Channels only: BDs and locks are not considered, as
/// in the toolchain (docs/resolve.md).
void place_links(ResolveContext& ctx);
/// SequentialPlacer::computeCentroidColumn for a link: the column that minimises the routing
/// span to the cores it serves; nullopt when it serves none (the toolchain then uses column 0).
std::optional<int> link_centroid_column(ResolveContext& ctx, const LinkState& link);
/// computeCentroidColumn's choice over `cols` columns given, per flow, the core columns it
/// reaches: the least total routing span, ties to the mean of all of them, then the lowest column.
int centroid_of(int cols, const std::vector<std::vector<int>>& flows);
/// The column of the other end of `self`'s fifo (0 when it has none yet).
int preferred_column(ResolveContext& ctx, FifoState* f, EndpointState* self);
/// The tile of an endpoint: its worker's, its link's, or for the runtime the pinned shim tile or
/// the shim tile nearest `preferred_col` with a free `shim_dir` channel.
model::TileCoord endpoint_tile(ResolveContext& ctx, EndpointState* ep, model::Direction shim_dir, int preferred_col);

} // namespace npusim::iron::detail

#pragma once
// Placement: which tile every worker, Buffer, link and runtime (shim) endpoint goes on. aiecc's
// placer is a compiler pass we do not have; this rule is our own, deterministic and documented in
// docs/resolve.md, step 3.
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

/// Pinned workers on their tile, the others on the first free compute tile (columns left to
/// right, rows bottom to top); one core program per worker, in Program order.
void place_workers(ResolveContext& ctx);
/// Each worker's Buffers on their tile (or the worker's), which the core must reach.
void place_buffers(ResolveContext& ctx);
/// Links on their requested tile, else on the tile of the requested kind (mem by default)
/// nearest the column of the cores they serve with enough free DMA channels; links with only
/// shim endpoints on the least loaded such tile.
void place_links(ResolveContext& ctx);
/// The column of the other end of `self`'s fifo (0 when it has none yet).
int preferred_column(ResolveContext& ctx, FifoState* f, EndpointState* self);
/// The tile of an endpoint: its worker's, its link's, or for the runtime the pinned shim tile or
/// the shim tile nearest `preferred_col` with a free `shim_dir` channel.
model::TileCoord endpoint_tile(ResolveContext& ctx, EndpointState* ep, model::Direction shim_dir, int preferred_col);

} // namespace npusim::iron::detail

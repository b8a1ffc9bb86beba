#pragma once
// Where the elements of a mem tile's ObjectFifo pools go, as mlir-aie's ObjectFifo lowering
// places them (AIEObjectFifoStatefulTransform.cpp at 3ca0193, createObjectFifoElements
// l.1029-1099, the order of l.2362-2391): on their own mem tile while it has room, else on the
// west or east neighbour mem tile, whose memory the mem tile's DMA also addresses
// (DeviceSpec::mem_tile_neighbours).
#include "resolve/ResolveContext.hpp"

#include <map>
#include <string>

namespace npusim::iron::detail {

/// Before allocate_memory. The pools are taken in the fifos' order (by name, as IRON's
/// resolve_program emits them) except that the fifos a mem tile produces (link outputs) are
/// reordered among themselves largest object first. Each element stays on its tile when the
/// tile's used bytes (sum of its buffers' sizes, no alignment: calculateCurrentUsedMemory
/// l.776-805) plus its size fit the tile; else it moves to the neighbour with fewer used bytes
/// (west first on a tie) that has room; when neither has, it stays and the allocator refuses the
/// tile. Unlike the toolchain, the used bytes also count the tile's other buffers (Buffers placed
/// on it), which must fit as well.
/// Returns, per mem tile that still holds an element no neighbour had room for, the reason, for
/// the allocator's out-of-memory error.
std::map<model::TileCoord, std::string> spill_mem_tile_buffers(ResolveContext& ctx);

} // namespace npusim::iron::detail

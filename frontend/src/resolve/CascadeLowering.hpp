#pragma once
// Cascades (IRON CascadeFlow -> aie.cascade_flow -> aie.configure_cascade): the toolchain's rules
// on a cascade's two tiles, the placement preference for unpinned workers with cascade peers, and
// the lowering into Netlist::cascades. See docs/resolve.md, "Cascades".
#include "npusim/model/DeviceSpec.hpp"
#include "resolve/ResolveContext.hpp"

#include <string>

namespace npusim::iron::detail {

/// What the toolchain checks of one cascade from `src` to `dst` (DesignError prefixed by `what`):
/// * both are compute tiles: CascadeFlowOp::verify "shimTile row has no cascade stream interface",
///   "memTile row has no cascade stream interface" (lib/Dialect/AIE/IR/AIEDialect.cpp l.1203-1206);
/// * adjacent: "tiles must be adjacent" (l.1213-1221);
/// * dst directly south of src or directly east of it (AIELowerCascadeFlows.cpp l.50-63, "source
///   tile must be to the North or West of the destination tile"), which is what configure_cascade
///   accepts on AIE2/AIE2P: input from North or West, output to South or East (AIEDialect.cpp
///   l.1264-1273).
void verify_cascade_tiles(const model::DeviceSpec& dev, model::TileCoord src, model::TileCoord dst,
                          const std::string& what);

/// The placer's cascade predicate (AIEPlacer.cpp l.230-237): dst is one row south or one column east of src.
bool cascade_adjacent(model::TileCoord src, model::TileCoord dst);

/// True if worker `w` on `tile` satisfies the cascade predicate with every cascade peer already
/// placed (SequentialPlacer::satisfiesAdjacency with the cascade adjacency, AIEPlacer.cpp l.533).
bool cascade_placement_fits(const ResolveContext& ctx, const WorkerState* w, model::TileCoord tile);

/// Check every CascadeFlow of the Program's workers and lower it into Netlist::cascades and the
/// cores' cascade_in / cascade_out (after placement: the cores exist).
void lower_cascades(ResolveContext& ctx);

} // namespace npusim::iron::detail

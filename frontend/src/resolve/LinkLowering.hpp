#pragma once
// LinkLowering: a forward, split or join link on its tile (R4, R9 of docs/resolve.md, step 5;
// mlir-aie lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp, linkAllocation and
// the split/join BD chains). The link keeps one buffer pool: forward and split use the input's
// link-side copy, join the output's. A split or join with n sub-fifos gets n lock pairs; the
// pool side walks n segment BDs per buffer, each sub-fifo's channel one BD per buffer.
#include "FifoState.hpp"
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

void lower_link(ResolveContext& ctx, LinkPlan& plan);

} // namespace npusim::iron::detail

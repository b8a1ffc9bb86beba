#pragma once
// FifoLowering: one ObjectFifo to buffers, locks, core rings, DMA channels and a flow, as
// mlir-aie's object-fifo transform does (lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp;
// docs/resolve.md, step 4): a shared pool when producer and consumer cores share memory,
// otherwise a producer copy and one consumer copy per consumer, linked by one stream flow.
// Shim endpoints only get a channel; link endpoints get a channel their link's chain uses.
#include "FifoState.hpp"
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

void lower_fifo(ResolveContext& ctx, FifoState* f);
/// Whether `f` is lowered to one pool in memory both worker ends reach (no DMA, no channels).
bool lowers_to_shared_pool(ResolveContext& ctx, FifoState* f);

} // namespace npusim::iron::detail

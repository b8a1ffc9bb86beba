#pragma once
// SharedPoolRules: the two fifo options that only concern a fifo's shared-memory pool, as mlir-aie
// checks and lowers them (commit 3ca0193):
//  * `delegate_tile` (the op `aie.objectfifo.allocate`): ObjectFifoAllocateOp::verify
//    (lib/Dialect/AIE/IR/AIEDialect.cpp l.781-800) and the shared-memory test of
//    createObjectFifoElements (lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp
//    l.981-994): the pool goes to the delegate's memory, which both cores must reach;
//  * `disable_synchronization`: createObjectFifoLocks makes no locks (l.711-712), so a core's
//    acquire and release only keep the held count and rotate the buffer index (l.380-387,
//    l.453-457), and the pool has as many buffers as without the option.
// The npusim departures are stated where they are made (see docs/resolve.md step 4).
#include "FifoState.hpp"
#include "npusim/model/DeviceSpec.hpp"

namespace npusim::iron::detail {

/// ObjectFifoAllocateOp::verify on a fifo with a delegate tile, with the toolchain's messages
/// ("can only be used in 1-to-1 object FIFOs", "cannot allocate a shared memory module to
/// objectfifo with set `via_DMA` attribute", ... `repeat_count` ..., "... set dimensions
/// attribute", "... using stream port"); and the delegate must be a pinned tile of `dev` (npusim
/// places no tile for it: upstream's sequential placer does not either). Throws DesignError.
void verify_fifo_allocate(const FifoState& f, const model::DeviceSpec& dev);

/// The tile whose memory holds the shared pool of a fifo from the core on `producer` to the core
/// on `consumer` when it has a delegate tile: the delegate, if both cores reach its memory;
/// otherwise DesignError "objectfifo has no shared memory access to delegate tile's memory module".
model::TileCoord delegate_pool_tile(const FifoState& f, const model::DeviceSpec& dev, model::TileCoord producer,
                                    model::TileCoord consumer);

/// A fifo that is not lowered to a shared pool (it uses DMA, or a runtime, link or stream end):
/// disable_synchronization or a delegate tile there is a DesignError (npusim departures: upstream
/// gives the DMA chains BDs without locks, which run on without end (Stateful l.1186), and
/// allocates only the producer side's buffers on the delegate, which the producer's DMA cannot
/// read unless it is the producer's own tile).
void check_dma_fifo_options(const FifoState& f);

} // namespace npusim::iron::detail

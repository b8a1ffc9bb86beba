#pragma once
// The two object-fifo lock rules that both resolve (frontend/src/resolve/DepthRule) and the engine
// (sim/src/CoreProcess) apply, so each lives once: how many lock units a number of objects is
// worth under a repeat_count, and whether an acquire fits an endpoint's depth.
// Source: mlir-aie lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp —
// createObjectFifoLocks (lock values x repeatCount) and the use-lock lowering
// (acquire/release numbers x repeatCount); see docs/resolve.md rules R5 and R11.

namespace npusim::model {

/// Lock units for `objects` objects of a fifo whose objects are each sent `repeat_count` times.
constexpr int repeat_scaled(int objects, int repeat_count) { return objects * repeat_count; }

/// An acquire of `n` objects fits an endpoint of depth `depth` (otherwise it can never complete).
constexpr bool acquire_fits(int n, int depth) { return n <= depth; }

} // namespace npusim::model

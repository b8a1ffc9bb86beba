#pragma once
// FifoVerifier: mlir-aie's ObjectFifoCreateOp::verify (lib/Dialect/AIE/IR/AIEDialect.cpp) on one
// fifo of the design, with the toolchain's messages: what a runtime (shim) producer or consumer
// may not carry, and init_values that must fill every object of the producer's depth.
#include "FifoState.hpp"
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

/// Throws DesignError "fifo 'f': <verifier message> ..." for the first rule `f` breaks.
void verify_fifo(const FifoState& f);

/// DMABDOp::verify: a fifo that moves through DMA has objects of whole 32-bit words. Only for
/// fifos lowered with DMA (a shared-memory pool has no BD).
void check_dma_object_size(const FifoState& f);

} // namespace npusim::iron::detail

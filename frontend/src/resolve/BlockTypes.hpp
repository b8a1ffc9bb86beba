#pragma once
// Block floating-point element types (DType::bfp16ebs8) need AIE2P: the design's fifos and runtime
// tensors are checked against the device before anything is placed.
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

/// DesignError naming the first fifo or runtime tensor of a block type when the device is not AIE2P
/// (mlir-aie's aie-transform-bfp-types refuses them the same way).
void refuse_block_types_without_bfp(const ResolveContext& ctx);

} // namespace npusim::iron::detail

#pragma once
// How many shim tasks one runtime transfer (fill or drain) becomes. aie-decompose-large-dma-bd
// (AIEDecomposeLargeDmaBd.cpp, DmaDecomposition.cpp decomposeRecursive) splits a pattern whose
// outermost (repeat) size is beyond the shim BD's iteration field and whose inner dimensions are
// not one contiguous run into pieces of 2^iteration_bits repeats, each a task with its own BD id
// and queue slot. resolve lowers transfers by this rule; a design that plans its task groups
// around the shim's queue and BD ids can ask it too.
#include "npusim/frontend/TensorAccessPattern.hpp"
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>

namespace npusim::iron {

/// d0..d2 of a shim pattern form one contiguous run (linear mode; AIEDecomposeLargeDmaBd
/// isContiguousTransfer, which ignores the outermost dimension).
bool shim_inner_contiguous(const TensorAccessPattern& tap);

/// The shim tasks a transfer of `tap` becomes on a shim tile with resources `shim`: one, unless its
/// repeat exceeds the iteration range (size - 1 > 2^iteration_bits) and its inner dimensions are
/// not contiguous; then ceil(repeat / 2^iteration_bits).
std::int64_t shim_task_count(const TensorAccessPattern& tap, const model::TileResources& shim);

} // namespace npusim::iron

#include "npusim/frontend/ShimTasks.hpp"

namespace npusim::iron {

bool shim_inner_contiguous(const TensorAccessPattern& tap) {
    const auto& s = tap.sizes();
    const auto& st = tap.strides();
    return st[3] == 1 && (s[2] == 1 || st[2] == s[3]) && (s[1] == 1 || st[1] == s[2] * s[3]);
}

std::int64_t shim_task_count(const TensorAccessPattern& tap, const model::TileResources& shim) {
    const std::int64_t repeat = tap.sizes()[0];
    const std::int64_t chunk = std::int64_t{1} << shim.iteration_bits;
    if (repeat - 1 <= chunk || shim_inner_contiguous(tap)) return 1;
    return (repeat + chunk - 1) / chunk;
}

} // namespace npusim::iron

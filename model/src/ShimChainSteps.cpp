#include "npusim/model/ShimChainSteps.hpp"

namespace npusim::model {

std::uint64_t shim_task_steps(const ShimTask& task) {
    if (task.chain_passes == 0) return 1;
    return (task.chain.size() + 1) * std::uint64_t{task.chain_passes};
}

ShimStep shim_task_step(const ShimTask& task, std::uint64_t k, std::uint64_t shift) {
    if (task.chain_passes == 0)
        return {task.bd_id, task.host_tensor, AddressPattern(static_cast<std::int64_t>(task.offset_bytes + shift), task.dims)};
    const std::uint64_t n = task.chain.size() + 1;
    const std::uint64_t pass = k / n, at = k % n;
    const int bd_id = at == 0 ? task.bd_id : task.chain[at - 1].bd_id;
    const int host = at == 0 ? task.host_tensor : task.chain[at - 1].host_tensor;
    const std::uint64_t offset = at == 0 ? task.offset_bytes + shift : task.chain[at - 1].offset_bytes;
    const auto& dims = at == 0 ? task.dims : task.chain[at - 1].dims;
    // dims[0]: the BD's iteration (wrap, stride in words); the pass picks its current value.
    std::int64_t iteration = 0;
    if (!dims.empty() && dims[0].size > 0) iteration = static_cast<std::int64_t>(pass % dims[0].size) * dims[0].stride * 4;
    std::vector<Dim> inner(dims.begin() + (dims.empty() ? 0 : 1), dims.end());
    inner.insert(inner.begin(), Dim{1, 0});
    return {bd_id, host, AddressPattern(static_cast<std::int64_t>(offset) + iteration, inner)};
}

} // namespace npusim::model

#include "resolve/StaticChecks.hpp"

#include "resolve/DepthRule.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron::detail {

void check_shared_pool_acquires(ResolveContext& ctx, const FifoState& f, int pool_depth) {
    auto check = [&](const EndpointState* ep) {
        if (!ep || ep->owner != OwnerKind::Worker) return;
        const int n = largest_acquire(ctx.max_acquire, *ep);
        if (n > pool_depth)
            ctx.net.warnings.push_back(fmt::format(
                "fifo '{}': worker '{}' acquires {} objects of its {} but the shared pool holds {} (the producer's "
                "depth): that acquire can never complete, the design will deadlock",
                f.name, ep->worker->name, n, ep->role == Role::Producer ? "producer end" : "consumer end", pool_depth));
    };
    check(f.prod.get());
    for (const auto& c : f.cons) check(c.get());
}

void check_transfer_whole_objects(ResolveContext& ctx, const RecordedTransfer& tr, std::int64_t elem_bytes) {
    const FifoState& f = *tr.endpoint->fifo;
    const std::int64_t bytes = tr.tap.transfer_elements() * elem_bytes;
    const std::int64_t obj = static_cast<std::int64_t>(f.obj_type.bytes());
    if (obj > 0 && bytes % obj != 0)
        ctx.net.warnings.push_back(fmt::format(
            "{} of fifo '{}' moves {} B, not a whole number of its {} B objects ({} and {} B over): the last partial "
            "object is never {}, so the design will hang there",
            tr.fill ? "fill" : "drain", f.name, bytes, obj, bytes / obj, bytes % obj,
            tr.fill ? "consumed" : "completed"));
}

void apply_werror(const ResolveContext& ctx) {
    if (ctx.opts.werror && !ctx.net.warnings.empty())
        throw DesignError(fmt::format("warning treated as an error (--werror): {}", ctx.net.warnings.front()));
}

} // namespace npusim::iron::detail

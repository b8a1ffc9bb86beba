#include "resolve/StaticChecks.hpp"

#include "resolve/DepthRule.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>
#include <optional>

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
    // Held together: one end acquires a objects at once (all it holds then) while the other keeps
    // r held from its previous iteration; when a + r > pool, the first waits for buffers the
    // second never frees and the second waits for objects the first never produces.
    const EndpointState* prod = f.prod.get();
    const EndpointState* cons = nullptr;
    for (const auto& c : f.cons)
        if (c->owner == OwnerKind::Worker) cons = c.get();
    if (!prod || !cons || prod->owner != OwnerKind::Worker) return;
    const auto traced = [&](const EndpointState* ep) { return ctx.retained.count(ep->uid) > 0; };
    if (!traced(prod) || !traced(cons)) return;
    const auto pair = [&](const EndpointState* a, const EndpointState* b) {
        const int acquire = largest_acquire(ctx.max_acquire, *a);
        const int kept = ctx.retained.at(b->uid);
        if (acquire > pool_depth || kept == 0 || acquire + kept <= pool_depth) return false;
        ctx.net.warnings.push_back(fmt::format(
            "fifo '{}': worker '{}' acquires {} objects of its {} at once while worker '{}' keeps {} of the {} shared "
            "buffers held from one iteration to the next ({} + {} > {}): producer and consumer together hold more than "
            "the depth, the design will deadlock",
            f.name, a->worker->name, acquire, a->role == Role::Producer ? "producer end" : "consumer end",
            b->worker->name, kept, pool_depth, acquire, kept, pool_depth));
        return true;
    };
    if (!pair(prod, cons)) pair(cons, prod);
}

namespace {
// Objects a worker's endpoint moves in its whole run: per traced iteration times the iterations
// (one for while_true=false); nullopt when unbounded (while_true) or not traced to the end.
std::optional<std::int64_t> lifetime_objects(const ResolveContext& ctx, const EndpointState& ep) {
    if (ep.owner != OwnerKind::Worker || !ep.worker || ep.worker->opts.while_true) return std::nullopt;
    const auto it = ctx.released.find(ep.uid);
    if (it == ctx.released.end()) return std::nullopt;
    return it->second;
}
// Objects the runtime sequence fills into (or drains from) fifo `name`, from the netlist's tasks.
std::optional<std::int64_t> runtime_objects(const ResolveContext& ctx, const FifoState& f, const char* role) {
    std::uint64_t bytes = 0;
    bool any = false;
    for (const auto& t : ctx.net.tasks)
        if (t.prov.object == f.name && t.prov.role == role) {
            bytes += t.bytes();
            any = true;
        }
    const auto obj = f.obj_type.bytes();
    if (!any || obj == 0) return std::nullopt;
    return static_cast<std::int64_t>(bytes / obj);
}
} // namespace

void check_link_rates(ResolveContext& ctx, const LinkState& link) {
    if (link.kind == LinkState::Kind::Forward) return;
    const bool split = link.kind == LinkState::Kind::Split;
    // The worker ends on the many side: the split's consumers, the join's producers.
    struct End {
        const EndpointState* ep;
        const FifoState* fifo;
        std::optional<std::int64_t> total;
    };
    std::vector<End> ends;
    auto add = [&](const FifoState& f, const EndpointState* ep) {
        if (ep && ep->owner == OwnerKind::Worker) ends.push_back({ep, &f, lifetime_objects(ctx, *ep)});
    };
    if (split) {
        for (const auto& f : link.outputs)
            for (const auto& c : f->cons) add(*f, c.get());
    } else {
        for (const auto* f : link.inputs) add(*f, f->prod.get());
    }
    // Passes the link makes: what the runtime moves through its one side, when it does.
    const FifoState* one = split ? link.inputs.front() : link.outputs.front().get();
    const auto passes = runtime_objects(ctx, *one, split ? "fill" : "drain");
    const End* least = nullptr;
    for (const auto& e : ends)
        if (e.total && (!least || *e.total < *least->total)) least = &e;
    if (!least) return;
    bool mismatch = false;
    for (const auto& e : ends)
        if (!e.total || *e.total != *least->total) mismatch = true;
    if (!mismatch && (!passes || *passes <= *least->total)) return;
    if (passes && *passes <= *least->total) return;
    ctx.net.warnings.push_back(fmt::format(
        "{} of fifo '{}': worker '{}' (while_true=false) {} {} object(s) of '{}' in its whole run, but the {} needs "
        "one from every {} per pass{}: after {} pass(es) the link stops and the design will deadlock",
        split ? "split" : "join", one->name, least->ep->worker->name, split ? "consumes" : "produces", *least->total,
        least->fifo->name, split ? "split" : "join", split ? "output" : "input",
        passes ? fmt::format(" and the runtime sequence moves {} object(s) of '{}'", *passes, one->name)
               : std::string(", and another side goes on"),
        *least->total));
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

#include "resolve/Collect.hpp"

#include "FifoState.hpp"
#include "resolve/BodyTracer.hpp"
#include "resolve/FifoVerifier.hpp"
#include "resolve/Padding.hpp"
#include "resolve/SharedPoolRules.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <functional>

namespace npusim::iron::detail {

namespace {

void collect_workers(ResolveContext& ctx) {
    std::set<WorkerState*> seen_workers;
    for (std::size_t i = 0; i < ctx.program.workers().size(); ++i) {
        auto* w = ctx.program.workers()[i].state().get();
        if (!seen_workers.insert(w).second)
            throw DesignError(fmt::format("worker '{}' is listed twice in the Program", w->name));
        if (w->name.empty()) w->name = fmt::format("worker_{}", i);
        // Reports, traces and core symbols name workers: two with one name would be ambiguous.
        for (auto* other : ctx.workers)
            if (other->name == w->name)
                throw DesignError(fmt::format("two workers are named '{}'; worker names must be unique (reports, "
                                              "traces and core symbols name them)",
                                              w->name));
        ctx.workers.push_back(w);
    }
}

// Every fifo reachable from the workers' and the runtime's handles and through links, sorted by
// name (IRON emits them sorted); names must be unique.
void collect_fifos(ResolveContext& ctx) {
    std::set<FifoState*> seen;
    std::function<void(FifoState*)> visit = [&](FifoState* f) {
        if (!seen.insert(f).second) return;
        ctx.fifos.push_back(f);
        if (f->link_from_cons) {
            for (auto* in : f->link_from_cons->inputs) visit(in);
            for (auto& out : f->link_from_cons->outputs) visit(out.get());
        }
        if (f->link_to_prod) {
            for (auto* in : f->link_to_prod->inputs) visit(in);
        }
    };
    for (auto* w : ctx.workers)
        for (auto* ep : w->endpoints) visit(ep->fifo);
    for (auto* ep : ctx.program.runtime().state()->endpoints) visit(ep->fifo);
    auto& fifos = ctx.fifos;
    std::sort(fifos.begin(), fifos.end(), [](auto* a, auto* b) { return a->name < b->name; });
    for (std::size_t i = 1; i < fifos.size(); ++i)
        if (fifos[i]->name == fifos[i - 1]->name)
            throw DesignError(
                fmt::format("two different fifos are named '{}'; fifo names must be unique", fifos[i]->name));
}

void check_fifo_ends(const FifoState& f, const std::set<WorkerState*>& listed) {
    if (!f.prod || f.prod->owner == OwnerKind::None)
        throw DesignError(
            fmt::format("fifo '{}' has no producer: pass its prod() handle to a Worker or the Runtime", f.name));
    int consumers = 0;
    for (auto& c : f.cons)
        if (c->owner != OwnerKind::None) ++consumers;
    if (consumers == 0)
        throw DesignError(
            fmt::format("fifo '{}' has no consumer: pass a cons() handle to a Worker or the Runtime", f.name));
    auto check_worker = [&](const EndpointState* ep) {
        if (ep->owner == OwnerKind::Worker && !listed.count(ep->worker))
            throw DesignError(fmt::format("{} belongs to worker '{}', which is not in the Program's workers",
                                          ep->describe(), ep->worker->name.empty() ? "<unnamed>" : ep->worker->name));
    };
    check_worker(f.prod.get());
    for (auto& c : f.cons) check_worker(c.get());
}

void collect_link(ResolveContext& ctx, FifoState* f) {
    if (!f->link_from_cons || ctx.link_index.count(f->link_from_cons.get())) return;
    ctx.link_index[f->link_from_cons.get()] = ctx.links.size();
    ctx.links.push_back(LinkPlan{f->link_from_cons.get(), {}, {}, {}});
}

} // namespace

void collect_design(ResolveContext& ctx) {
    collect_workers(ctx);
    collect_fifos(ctx);
    const std::set<WorkerState*> listed(ctx.workers.begin(), ctx.workers.end());
    for (auto* f : ctx.fifos) {
        check_fifo_ends(*f, listed);
        verify_fifo(*f);
        verify_fifo_allocate(*f, ctx.dev);
        verify_pad_value(*f, ctx.dev);
        collect_link(ctx, f);
    }
}

void trace_bodies(ResolveContext& ctx) {
    // Module-level aiex.scratchpad_parameter ops: the ScratchpadParameters among the workers'
    // fn_args, in worker and argument order (python/iron/program.py resolve_program).
    for (auto* w : ctx.workers)
        for (const auto& p : w->params)
            if (std::find(ctx.declared_params.begin(), ctx.declared_params.end(), p) == ctx.declared_params.end())
                ctx.declared_params.push_back(p);
    for (auto* w : ctx.workers) {
        BodyTracer tracer(w->name, ctx.opts.trace_op_budget);
        for (auto* ep : w->endpoints) {
            TracedPort p;
            p.describe = ep->describe();
            p.depth = declared_depth(*ep);
            p.elem_bytes = ep->fifo->obj_type.bytes();
            tracer.add_port(ep->uid, std::move(p));
        }
        for (const auto& b : w->buffers) tracer.add_buffer(b->uid, b->type.bytes());
        for (const auto& b : w->barriers)
            tracer.add_lock(b->uid, ctx.dev.resources(model::TileKind::Compute).lock_max_value, b->name);
        for (const auto& l : w->locks)
            tracer.add_lock(l->uid, ctx.dev.resources(model::TileKind::Compute).lock_max_value, l->name, true);
        for (const auto& p : ctx.declared_params) tracer.add_param(p->uid, p->name);
        if (!w->body) throw DesignError(fmt::format("worker '{}' has no body", w->name));
        const bool complete = tracer.run(w->body);
        for (int key : tracer.param_reads())
            for (const auto& p : ctx.declared_params)
                if (p->uid == key) ctx.param_reads[w].push_back(p.get());
        if (complete)
            for (const auto& l : w->locks) {
                const auto it = tracer.user_lock_use().find(l->uid);
                const bool acq = it != tracer.user_lock_use().end() && it->second.acquired;
                const bool rel = it != tracer.user_lock_use().end() && it->second.released;
                ctx.user_lock_use[{w, l->uid}] = {acq, rel};
            }
        for (const auto& [key, port] : tracer.ports()) {
            ctx.max_acquire[key] = port.max_acquire;
            if (complete) {
                ctx.retained[key] = port.held;
                ctx.released[key] = port.released;
            }
        }
    }
}

} // namespace npusim::iron::detail

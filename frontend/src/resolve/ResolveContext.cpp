#include "resolve/ResolveContext.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron::detail {

ResolveContext::ResolveContext(const Program& p, const ResolveOptions& o) : program(p), opts(o), dev(p.device()) {
    net.device = &dev;
    net.design = program.name();
}

model::CoreProgram& ResolveContext::core_of(WorkerState* w) {
    return net.cores[static_cast<std::size_t>(worker_core.at(w))];
}

LinkPlan& ResolveContext::plan_of(LinkState* l) { return links[link_index.at(l)]; }

namespace {

model::FifoEndpointInfo end_info(const EndpointState& ep, model::TileCoord tile, model::FifoEndHolding holding) {
    model::FifoEndpointInfo info;
    info.fifo = ep.fifo->name;
    info.consumer = ep.role == Role::Producer ? -1 : ep.index;
    info.end = ep.role == Role::Producer ? std::string("producer") : fmt::format("consumer {}", ep.index);
    info.holding = holding;
    info.tile = tile;
    info.declared = declared_depth(ep);
    const auto& type =
        ep.role == Role::Consumer && ep.fifo->consumer_obj_type ? *ep.fifo->consumer_obj_type : ep.fifo->obj_type;
    info.object_bytes = static_cast<std::uint32_t>(type.bytes());
    return info;
}

std::string end_name(int consumer) { return consumer < 0 ? "producer" : fmt::format("consumer {}", consumer); }

} // namespace

int ResolveContext::endpoint_depth(const EndpointState& ep, model::TileCoord tile, BufferHolding rule,
                                   model::FifoEndHolding holding) {
    const auto it = depth_override.find(ep.uid);
    const std::optional<int> over = it == depth_override.end() ? std::nullopt : std::optional<int>(it->second);
    const int depth = resolved_depth(ep, dev.kind_at(tile), rule, max_acquire, over);
    auto info = end_info(ep, tile, holding);
    info.depth = depth;
    info.overridden = over.has_value();
    if (holding == model::FifoEndHolding::LinkPool) {
        // The pool holds objects of the owner fifo's type (a split's input, a join's output).
        info.object_bytes = static_cast<std::uint32_t>(ep.fifo->obj_type.bytes());
    }
    net.fifo_ends.push_back(std::move(info));
    return depth;
}

void ResolveContext::record_bufferless_end(const EndpointState& ep, model::TileCoord tile,
                                           model::FifoEndHolding holding, const EndpointState* pool_owner) {
    auto info = end_info(ep, tile, holding);
    if (pool_owner) info.pool_owner = pool_owner->describe();
    net.fifo_ends.push_back(std::move(info));
}

void apply_depth_overrides(ResolveContext& ctx) {
    for (const auto& o : ctx.opts.depth_overrides) {
        const std::string end = end_name(o.consumer);
        FifoState* f = nullptr;
        for (auto* x : ctx.fifos)
            if (x->name == o.fifo) f = x;
        if (!f) {
            std::string names;
            for (auto* x : ctx.fifos) names += (names.empty() ? "" : ", ") + x->name;
            throw DesignError(fmt::format("depth override of fifo '{}' {}: design '{}' has no fifo '{}' (fifos: {})",
                                          o.fifo, end, ctx.net.design, o.fifo, names));
        }
        const EndpointState* ep = nullptr;
        if (o.consumer < 0)
            ep = f->prod.get();
        else if (static_cast<std::size_t>(o.consumer) < f->cons.size())
            ep = f->cons[static_cast<std::size_t>(o.consumer)].get();
        if (!ep || ep->owner == OwnerKind::None) {
            std::string used;
            for (const auto& c : f->cons)
                if (c->owner != OwnerKind::None) used += fmt::format("{}{}", used.empty() ? "" : ", ", c->index);
            throw DesignError(fmt::format("depth override of fifo '{}' {}: fifo '{}' has no {} (its consumers: {})",
                                          o.fifo, end, o.fifo, end, used.empty() ? "none" : used));
        }
        if (o.depth < 1)
            throw DesignError(
                fmt::format("depth override of {}: depth {} must be at least 1", ep->describe(), o.depth));
        if (ctx.depth_override.count(ep->uid))
            throw DesignError(fmt::format("depth override of {}: given twice", ep->describe()));
        ctx.depth_override[ep->uid] = o.depth;
    }
}

void check_depth_overrides_used(const ResolveContext& ctx) {
    for (const auto& o : ctx.opts.depth_overrides)
        for (const auto& e : ctx.net.fifo_ends) {
            if (e.fifo != o.fifo || e.consumer != o.consumer || e.owns_buffers()) continue;
            const std::string why =
                e.holding == model::FifoEndHolding::Runtime
                    ? std::string("the runtime sequence fills or drains it from host memory; it has no buffers")
                : e.holding == model::FifoEndHolding::StreamPort
                    ? std::string("it is its core's stream port (Port::stream); it has no buffers")
                    : fmt::format("it {} ({}) and has no buffers of its own; override that end instead",
                                  model::fifo_end_holding_name(e.holding), e.pool_owner);
            throw DesignError(fmt::format("depth override of {}: {}", e.describe(), why));
        }
}

} // namespace npusim::iron::detail

#include "resolve/Placement.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::iron::detail {

using model::Direction;
using model::TileCoord;
using model::TileKind;

namespace {

std::string tile_str(TileCoord t) { return model::to_string(t); }

void place_pinned_worker(ResolveContext& ctx, WorkerState* w) {
    const auto& dev = ctx.dev;
    const TileCoord t = w->opts.tile.coord();
    if (!dev.contains(t) || dev.kind_at(t) != TileKind::Compute)
        throw DesignError(
            fmt::format("worker '{}': tile {} is not a compute tile of {} ({} columns, compute rows 2-{})", w->name,
                        tile_str(t), dev.name, dev.cols, dev.rows - 1));
    if (!ctx.worker_tiles.insert(t).second)
        throw DesignError(fmt::format("worker '{}': tile {} already runs another worker", w->name, tile_str(t)));
    ctx.worker_tile[w] = t;
}

void place_unpinned_worker(ResolveContext& ctx, WorkerState* w, const std::vector<TileCoord>& compute) {
    auto it = std::find_if(compute.begin(), compute.end(), [&](TileCoord t) { return !ctx.worker_tiles.count(t); });
    if (it == compute.end())
        throw DesignError(fmt::format("worker '{}': no free compute tile left on {} ({} compute tiles, {} workers)",
                                      w->name, ctx.dev.name, compute.size(), ctx.workers.size()));
    ctx.worker_tiles.insert(*it);
    ctx.worker_tile[w] = *it;
}

void add_core(ResolveContext& ctx, WorkerState* w) {
    model::CoreProgram core;
    core.worker = w->name;
    core.tile = ctx.worker_tile[w];
    core.body = w->body;
    core.while_true = w->opts.while_true;
    core.stack_bytes = w->opts.stack_size;
    ctx.worker_core[w] = static_cast<int>(ctx.net.cores.size());
    ctx.net.cores.push_back(std::move(core));
}

// The column of the first core (or pinned shim endpoint) a link serves; -1 if none.
int link_column(ResolveContext& ctx, const LinkState& link) {
    int col = -1;
    auto consider = [&](EndpointState* ep) {
        if (col < 0 && ep && ep->owner == OwnerKind::Worker) col = ctx.worker_tile[ep->worker].col;
        if (col < 0 && ep && ep->owner == OwnerKind::Runtime && ep->tile.pinned()) col = ep->tile.coord().col;
    };
    for (auto* in : link.inputs) consider(in->prod.get());
    for (const auto& out : link.outputs)
        for (auto& c : out->cons) consider(c.get());
    return col;
}

// Channels the links placed so far will take on each tile (allocated later, in fifo order).
using Reserved = std::map<TileCoord, std::pair<int, int>>;

std::vector<TileCoord> link_candidates(ResolveContext& ctx, TileKind kind, int col, Reserved& reserved) {
    std::vector<TileCoord> candidates = ctx.dev.tiles_of(kind);
    if (col >= 0) { // nearest to the column of the cores it serves
        std::stable_sort(candidates.begin(), candidates.end(),
                         [&](TileCoord a, TileCoord b) { return std::abs(a.col - col) < std::abs(b.col - col); });
    } else { // only shim endpoints: the least loaded tile, so such links spread over columns
        auto load = [&](TileCoord t) {
            const auto& r = reserved[t];
            return ctx.ledger.channels_used(t, Direction::S2MM) + ctx.ledger.channels_used(t, Direction::MM2S) +
                   r.first + r.second;
        };
        std::stable_sort(candidates.begin(), candidates.end(),
                         [&](TileCoord a, TileCoord b) { return load(a) < load(b); });
    }
    return candidates;
}

bool has_link_channels(ResolveContext& ctx, TileCoord t, int need_in, int need_out, const std::pair<int, int>& r) {
    const int used_in = ctx.ledger.channels_used(t, Direction::S2MM) + r.first;
    const int used_out = ctx.ledger.channels_used(t, Direction::MM2S) + r.second;
    return used_in + need_in <= ctx.dev.dma_channels(t, Direction::S2MM) &&
           used_out + need_out <= ctx.dev.dma_channels(t, Direction::MM2S);
}

void place_link(ResolveContext& ctx, LinkPlan& plan, Reserved& reserved) {
    const auto& dev = ctx.dev;
    auto* link = plan.link;
    const int need_in = static_cast<int>(link->inputs.size());
    const int need_out = static_cast<int>(link->outputs.size());
    const std::string who = fmt::format("link of fifo '{}'", link->inputs.front()->name);
    if (link->tile.pinned()) {
        const TileCoord t = link->tile.coord();
        if (!dev.contains(t) || dev.kind_at(t) == TileKind::Shim)
            throw DesignError(
                fmt::format("{}: tile {} is not a mem or compute tile of {}", who, tile_str(t), dev.name));
        plan.tile = t;
        reserved[t].first += need_in;
        reserved[t].second += need_out;
        return;
    }
    const TileKind kind = link->tile.kind.value_or(TileKind::Mem);
    for (auto t : link_candidates(ctx, kind, link_column(ctx, *link), reserved)) {
        if (kind == TileKind::Compute && ctx.worker_tiles.count(t)) continue;
        auto& r = reserved[t];
        if (has_link_channels(ctx, t, need_in, need_out, r)) {
            plan.tile = t;
            r.first += need_in; // later links see these channels as taken
            r.second += need_out;
            if (kind == TileKind::Compute) ctx.worker_tiles.insert(plan.tile);
            return;
        }
    }
    throw DesignError(fmt::format("{}: no {} tile with {} free S2MM and {} free MM2S DMA channels on {}", who,
                                  model::tile_kind_name(kind), need_in, need_out, dev.name));
}

TileCoord runtime_endpoint_tile(ResolveContext& ctx, EndpointState* ep, Direction shim_dir, int preferred_col) {
    const auto& dev = ctx.dev;
    if (ep->tile.pinned()) {
        const TileCoord t = ep->tile.coord();
        if (!dev.contains(t) || dev.kind_at(t) != TileKind::Shim)
            throw DesignError(
                fmt::format("{}: tile {} is not a shim tile of {}", ep->describe(), tile_str(t), dev.name));
        return t;
    }
    auto shims = dev.tiles_of(TileKind::Shim);
    std::stable_sort(shims.begin(), shims.end(), [&](TileCoord a, TileCoord b) {
        return std::abs(a.col - preferred_col) < std::abs(b.col - preferred_col);
    });
    for (auto t : shims)
        if (ctx.ledger.channels_used(t, shim_dir) < dev.dma_channels(t, shim_dir)) return t;
    throw DesignError(fmt::format("{}: no shim tile of {} has a free {} DMA channel", ep->describe(), dev.name,
                                  model::direction_name(shim_dir)));
}

} // namespace

void place_workers(ResolveContext& ctx) {
    for (auto* w : ctx.workers)
        if (w->opts.tile.pinned()) place_pinned_worker(ctx, w);
    const auto compute = ctx.dev.tiles_of(TileKind::Compute);
    for (auto* w : ctx.workers)
        if (!w->opts.tile.pinned()) place_unpinned_worker(ctx, w, compute);
    for (auto* w : ctx.workers) add_core(ctx, w);
}

void place_buffers(ResolveContext& ctx) {
    const auto& dev = ctx.dev;
    for (auto* w : ctx.workers) {
        const TileCoord wt = ctx.worker_tile[w];
        for (const auto& b : w->buffers) {
            const TileCoord bt = b->tile && b->tile->pinned() ? b->tile->coord() : wt;
            if (!dev.contains(bt) || dev.kind_at(bt) != TileKind::Compute)
                throw DesignError(
                    fmt::format("buffer '{}': tile {} is not a compute tile of {}", b->name, tile_str(bt), dev.name));
            if (!dev.core_can_access(wt, bt))
                throw DesignError(
                    fmt::format("buffer '{}' on {} is not reachable from worker '{}' on {} (a core reaches its own, "
                                "west, north and south memory)",
                                b->name, tile_str(bt), w->name, tile_str(wt)));
            auto it = ctx.buffer_of.find(b->uid);
            if (it == ctx.buffer_of.end()) {
                const int idx = ctx.ledger.add_buffer(bt, b->name, b->type.bytes(), {b->name, "buffer"});
                ctx.net.buffers[static_cast<std::size_t>(idx)].init = b->init;
                it = ctx.buffer_of.emplace(b->uid, idx).first;
            }
            ctx.core_of(w).buffers.push_back({b->uid, it->second});
        }
    }
}

void place_links(ResolveContext& ctx) {
    Reserved reserved;
    for (auto& plan : ctx.links) place_link(ctx, plan, reserved);
}

int preferred_column(ResolveContext& ctx, FifoState* f, EndpointState* self) {
    auto col_of = [&](EndpointState* ep) -> int {
        if (!ep || ep == self) return -1;
        if (ep->owner == OwnerKind::Worker) return ctx.worker_tile[ep->worker].col;
        if (ep->owner == OwnerKind::Link) return ctx.plan_of(ep->link).tile.col;
        if (ep->owner == OwnerKind::Runtime && ep->tile.pinned()) return ep->tile.coord().col;
        return -1;
    };
    if (self->role == Role::Producer) {
        for (auto& c : f->cons)
            if (int col = col_of(c.get()); col >= 0) return col;
    } else if (int col = col_of(f->prod.get()); col >= 0) {
        return col;
    }
    return 0;
}

TileCoord endpoint_tile(ResolveContext& ctx, EndpointState* ep, Direction shim_dir, int preferred_col) {
    switch (ep->owner) {
    case OwnerKind::Worker: return ctx.worker_tile.at(ep->worker);
    case OwnerKind::Link: return ctx.plan_of(ep->link).tile;
    case OwnerKind::Runtime: return runtime_endpoint_tile(ctx, ep, shim_dir, preferred_col);
    case OwnerKind::None: break;
    }
    throw DesignError(fmt::format("{} is not used by any worker, the runtime or a link", ep->describe()));
}

} // namespace npusim::iron::detail

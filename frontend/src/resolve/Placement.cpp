#include "resolve/Placement.hpp"

#include "resolve/CascadeLowering.hpp"
#include "resolve/LowLevelPlacement.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <tuple>

namespace npusim::iron::detail {

using model::Direction;
using model::TileCoord;
using model::TileKind;

namespace {


void place_pinned_worker(ResolveContext& ctx, WorkerState* w) {
    const auto& dev = ctx.dev;
    const TileCoord t = w->opts.tile.coord();
    if (!dev.contains(t) || dev.kind_at(t) != TileKind::Compute)
        throw DesignError(
            fmt::format("worker '{}': tile {} is not a compute tile of {} ({} columns, compute rows 2-{})", w->name,
                        model::to_string(t), dev.name, dev.cols, dev.rows - 1));
    if (!ctx.worker_tiles.insert(t).second)
        throw DesignError(fmt::format("worker '{}': tile {} already runs another worker", w->name, model::to_string(t)));
    ctx.worker_tile[w] = t;
}

void place_unpinned_worker(ResolveContext& ctx, WorkerState* w, const std::vector<TileCoord>& compute) {
    // A worker with cascade peers already placed takes the first free tile the cascade fits
    // (SequentialPlacer: satisfiesAdjacency with the cascade adjacency, AIEPlacer.cpp l.533); if
    // none fits, the first free tile, and lower_cascades names the broken rule.
    auto it = std::find_if(compute.begin(), compute.end(), [&](TileCoord t) {
        return !ctx.worker_tiles.count(t) && cascade_placement_fits(ctx, w, t);
    });
    if (it == compute.end())
        it = std::find_if(compute.begin(), compute.end(), [&](TileCoord t) { return !ctx.worker_tiles.count(t); });
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

// Channels the links placed so far take on each tile (allocated later, in fifo order):
// SequentialPlacer's availability.inputChannelsUsed / outputChannelsUsed.
using Reserved = std::map<TileCoord, std::pair<int, int>>;

std::string link_name(const LinkState& link) { return fmt::format("link of fifo '{}'", link.inputs.front()->name); }

// A link's channel demand (SequentialPlacer::buildChannelRequirements for a link's logical tile):
// one S2MM per input fifo, one MM2S per output fifo.
std::pair<int, int> link_demand(const LinkState& link) {
    return {static_cast<int>(link.inputs.size()), static_cast<int>(link.outputs.size())};
}

std::pair<int, int> channels_in_use(ResolveContext& ctx, TileCoord t, Reserved& reserved) {
    const auto& r = reserved[t];
    return {ctx.ledger.channels_used(t, Direction::S2MM) + r.first,
            ctx.ledger.channels_used(t, Direction::MM2S) + r.second};
}

// SequentialPlacer::hasAvailableChannels.
bool has_channels(ResolveContext& ctx, TileCoord t, std::pair<int, int> need, Reserved& reserved) {
    const auto [in, out] = channels_in_use(ctx, t, reserved);
    return in + need.first <= ctx.dev.dma_channels(t, Direction::S2MM) &&
           out + need.second <= ctx.dev.dma_channels(t, Direction::MM2S);
}

void reserve(Reserved& reserved, TileCoord t, std::pair<int, int> need) {
    reserved[t].first += need.first;
    reserved[t].second += need.second;
}

// The columns of the cores at the other end of one flow (fifo) of a link: the fifo's worker
// endpoints, and through a neighbouring link the cores of that link's flows (computeCentroidColumn
// resolves one level of indirection, shim -> mem tile -> core). Runtime (shim) ends add nothing.
std::vector<int> flow_core_columns(ResolveContext& ctx, const std::vector<EndpointState*>& peers,
                                   const LinkState* self) {
    std::vector<int> cols;
    for (auto* ep : peers) {
        if (!ep) continue;
        if (ep->owner == OwnerKind::Worker) {
            cols.push_back(ctx.worker_tile.at(ep->worker).col);
        } else if (ep->owner == OwnerKind::Link && ep->link != self) {
            const LinkState& other = *ep->link;
            auto add = [&](EndpointState* e) {
                if (e && e->owner == OwnerKind::Worker) cols.push_back(ctx.worker_tile.at(e->worker).col);
            };
            for (auto* in : other.inputs) add(in->prod.get());
            for (const auto& out : other.outputs)
                for (auto& c : out->cons) add(c.get());
        }
    }
    return cols;
}

} // namespace

// mlir-aie AIEPlacer.cpp SequentialPlacer::computeCentroidColumn: per flow, |S - D| for a single
// core destination, the distance to the span [lo, hi] for several (broadcast); the column S with
// the least total cost, ties broken by the distance to the mean of all destinations, then the
// lowest column. 0 when the link serves no core.
std::optional<int> link_centroid_column(ResolveContext& ctx, const LinkState& link) {
    std::vector<std::vector<int>> flows;
    for (auto* in : link.inputs)
        if (auto cols = flow_core_columns(ctx, {in->prod.get()}, &link); !cols.empty()) flows.push_back(cols);
    for (const auto& out : link.outputs) {
        std::vector<EndpointState*> cons;
        for (auto& c : out->cons) cons.push_back(c.get());
        if (auto cols = flow_core_columns(ctx, cons, &link); !cols.empty()) flows.push_back(cols);
    }
    if (flows.empty()) return std::nullopt;
    return centroid_of(ctx.dev.cols, flows);
}

int centroid_of(int cols, const std::vector<std::vector<int>>& flows) {
    double mean = 0;
    int count = 0;
    for (const auto& f : flows)
        for (int d : f) {
            mean += d;
            ++count;
        }
    mean /= count;
    int best_col = 0;
    int best_cost = std::numeric_limits<int>::max();
    double best_tie = std::numeric_limits<double>::infinity();
    for (int s = 0; s < cols; ++s) {
        int cost = 0;
        for (const auto& f : flows) {
            if (f.size() == 1) {
                cost += std::abs(s - f[0]);
            } else {
                const int lo = *std::min_element(f.begin(), f.end());
                const int hi = *std::max_element(f.begin(), f.end());
                cost += s < lo ? lo - s : s > hi ? s - hi : 0;
            }
        }
        const double tie = std::abs(s - mean);
        if (cost < best_cost || (cost == best_cost && tie < best_tie)) {
            best_cost = cost;
            best_tie = tie;
            best_col = s;
        }
    }
    return best_col;
}

namespace {

// Pinned: SequentialPlacer::validateAndUpdateChannelUsage (the tile must have the channels).
void place_pinned_link(ResolveContext& ctx, LinkPlan& plan, Reserved& reserved) {
    const auto& dev = ctx.dev;
    const auto* link = plan.link;
    const TileCoord t = link->tile.coord();
    if (!dev.contains(t) || dev.kind_at(t) == TileKind::Shim)
        throw DesignError(
            fmt::format("{}: tile {} is not a mem or compute tile of {}", link_name(*link), model::to_string(t), dev.name));
    const auto need = link_demand(*link);
    if (!has_channels(ctx, t, need, reserved)) {
        const auto [in, out] = channels_in_use(ctx, t, reserved);
        throw DesignError(fmt::format("{}: tile ({}, {}) requires {} input/{} output DMA channels, but only {} "
                                      "input/{} output available",
                                      link_name(*link), t.col, t.row, need.first, need.second,
                                      dev.dma_channels(t, Direction::S2MM) - in,
                                      dev.dma_channels(t, Direction::MM2S) - out));
    }
    plan.tile = t;
    reserve(reserved, t, need);
}

// A non-core logical tile to place: a link's or the low-level objects' on one unplaced Tile.
struct NonCore {
    LinkPlan* link = nullptr;
    LogicalTileRequest* low = nullptr;
    const Tile& tile() const { return link ? link->link->tile : low->tile; }
    TileKind kind() const { return link ? link->link->tile.kind.value_or(TileKind::Mem) : low->kind; }
    std::pair<int, int> need() const { return link ? link_demand(*link->link) : low->need; }
    std::string name() const { return link ? link_name(*link->link) : low->who; }
};

// Unpinned: SequentialPlacer::placeNonCoreTileByCentroid (AIEPlacer.cpp l.1238) +
// findTileWithCapacity, the lexicographic minimum of (|col - centroid|, channels in use, col, row)
// over the tiles of its kind with the channels it needs.
void place_unpinned(ResolveContext& ctx, NonCore& nc, Reserved& reserved) {
    const Tile& tile = nc.tile();
    const TileKind kind = nc.kind();
    const auto centroid_of_cores =
        nc.link ? link_centroid_column(ctx, *nc.link->link) : logical_centroid_column(ctx, *nc.low);
    const int centroid = centroid_of_cores.value_or(0); // the toolchain's value without cores
    const int target = tile.col.value_or(centroid);
    // npusim departure (docs/resolve.md): a tile that serves no core and has no column request
    // ignores the distance term, so such tiles spread over the least loaded ones (the toolchain
    // stacks them at column 0, which npusim's router cannot always route).
    const bool by_distance = centroid_of_cores.has_value() || tile.col.has_value();
    const auto need = nc.need();
    std::optional<TileCoord> best;
    std::tuple<int, int, int, int> best_key;
    for (auto t : ctx.dev.tiles_of(kind)) {
        if (kind == TileKind::Compute && ctx.worker_tiles.count(t)) continue;
        if (tile.row && t.row != *tile.row) continue;
        if (!has_channels(ctx, t, need, reserved)) continue;
        const auto [in, out] = channels_in_use(ctx, t, reserved);
        const std::tuple<int, int, int, int> key{by_distance ? std::abs(t.col - target) : 0, in + out, t.col, t.row};
        if (!best || key < best_key) {
            best = t;
            best_key = key;
        }
    }
    if (!best) {
        const char* type = kind == TileKind::Mem       ? "MemTile" // stringifyAIETileType
                           : kind == TileKind::Compute ? "CoreTile"
                                                       : "ShimNOCTile";
        throw DesignError(fmt::format("{}: no {} has sufficient DMA capacity for {} input/{} output channels {} {}",
                                      nc.name(), type, need.first, need.second,
                                      tile.col ? "at column" : "near centroid column", target));
    }
    reserve(reserved, *best, need);
    if (kind == TileKind::Compute) ctx.worker_tiles.insert(*best);
    if (nc.link)
        nc.link->tile = *best;
    else
        ctx.logical_tile[nc.low->tile.logical] = *best;
}

TileCoord runtime_endpoint_tile(ResolveContext& ctx, EndpointState* ep, Direction shim_dir, int preferred_col) {
    const auto& dev = ctx.dev;
    if (ep->tile.pinned()) {
        const TileCoord t = ep->tile.coord();
        if (!dev.contains(t) || dev.kind_at(t) != TileKind::Shim)
            throw DesignError(
                fmt::format("{}: tile {} is not a shim tile of {}", ep->describe(), model::to_string(t), dev.name));
        return t;
    }
    auto shims = dev.tiles_of(TileKind::Shim);
    std::stable_sort(shims.begin(), shims.end(), [&](TileCoord a, TileCoord b) {
        return std::abs(a.col - preferred_col) < std::abs(b.col - preferred_col);
    });
    for (auto t : shims)
        if (ep->channel ? ctx.ledger.channel_free(t, shim_dir, *ep->channel)
                        : ctx.ledger.channels_used(t, shim_dir) < dev.dma_channels(t, shim_dir))
            return t;
    // A pin no shim tile has free: the nearest one, whose allocation raises the toolchain's words.
    if (ep->channel && !shims.empty()) return shims.front();
    throw DesignError(fmt::format("{}: no shim tile of {} has a free {} DMA channel", ep->describe(), dev.name,
                                  model::direction_name(shim_dir)));
}

// A mem-tile producer endpoint (set_endpoint): its pinned mem tile, or the mem tile nearest the
// consumer's column with a free MM2S channel (the SequentialPlacer's distance-then-load order).
TileCoord mem_endpoint_tile(ResolveContext& ctx, EndpointState* ep, int preferred_col) {
    const auto& dev = ctx.dev;
    if (ep->tile.pinned()) {
        const TileCoord t = ep->tile.coord();
        if (!dev.contains(t) || dev.kind_at(t) != TileKind::Mem)
            throw DesignError(
                fmt::format("{}: tile {} is not a mem tile of {}", ep->describe(), model::to_string(t), dev.name));
        return t;
    }
    auto mems = dev.tiles_of(TileKind::Mem);
    if (mems.empty()) throw DesignError(fmt::format("{}: {} has no mem tile", ep->describe(), dev.name));
    std::stable_sort(mems.begin(), mems.end(), [&](TileCoord a, TileCoord b) {
        const int da = std::abs(a.col - preferred_col), db = std::abs(b.col - preferred_col);
        if (da != db) return da < db;
        return ctx.ledger.channels_used(a, Direction::MM2S) < ctx.ledger.channels_used(b, Direction::MM2S);
    });
    for (auto t : mems)
        if (ep->channel ? ctx.ledger.channel_free(t, Direction::MM2S, *ep->channel)
                        : ctx.ledger.channels_used(t, Direction::MM2S) < dev.dma_channels(t, Direction::MM2S))
            return t;
    if (ep->channel) return mems.front(); // as for a shim end: the allocation names the pin
    throw DesignError(fmt::format("{}: no mem tile of {} has a free MM2S DMA channel", ep->describe(), dev.name));
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
            // A Buffer on a Tile some low-level object also names goes where that Tile was placed.
            TileCoord bt = wt;
            if (b->tile && b->tile->pinned())
                bt = b->tile->coord();
            else if (const auto lt = b->tile ? ctx.logical_tile.find(b->tile->logical) : ctx.logical_tile.end();
                     lt != ctx.logical_tile.end())
                bt = lt->second;
            if (!dev.contains(bt) || dev.kind_at(bt) != TileKind::Compute)
                throw DesignError(
                    fmt::format("buffer '{}': tile {} is not a compute tile of {}", b->name, model::to_string(bt), dev.name));
            if (!dev.core_can_access(wt, bt))
                throw DesignError(
                    fmt::format("buffer '{}' on {} is not reachable from worker '{}' on {} (a core reaches its own, "
                                "west, north and south memory)",
                                b->name, model::to_string(bt), w->name, model::to_string(wt)));
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

// WorkerRuntimeBarrier: one lock on each worker's tile with the barrier's initial value, as IRON's
// Worker.resolve creates it (python/iron/worker.py @ 3ca0193c L249-253: lock(my_tile), then
// barrier._add_worker_lock); the core body's wait/release use it, set() sets them all.
void place_barriers(ResolveContext& ctx) {
    for (auto* w : ctx.workers) {
        const TileCoord wt = ctx.worker_tile[w];
        for (const auto& b : w->barriers) {
            if (b->initial_value < 0 || b->initial_value > ctx.dev.resources(model::TileKind::Compute).lock_max_value)
                throw DesignError(fmt::format("{}: initial value {} must be within 0..{} (the lock's state)", b->name,
                                              b->initial_value,
                                              ctx.dev.resources(model::TileKind::Compute).lock_max_value));
            const int lock = ctx.ledger.add_lock(wt, fmt::format("{}_{}", b->name, w->name), b->initial_value,
                                                 {b->name, fmt::format("barrier lock of worker '{}'", w->name)});
            ctx.core_of(w).locks.push_back({b->uid, lock});
            ctx.barrier_locks[b->uid].push_back(lock);
        }
    }
}

void place_links(ResolveContext& ctx) {
    Reserved reserved;
    // SequentialPlacer::place: fully pinned tiles first, in program order (the low-level flows'
    // ends on pinned tiles take their channels there) ...
    for (const auto& [t, need] : ctx.pinned_flow_need) reserve(reserved, t, need);
    for (auto& plan : ctx.links)
        if (plan.link->tile.pinned()) place_pinned_link(ctx, plan, reserved);
    // ... then placeNonCoreLogicalTiles: the other non-core logical tiles (links, then the
    // low-level objects' mem and shim tiles, as IRON emits them) by descending channel demand
    // (stable).
    std::vector<NonCore> order;
    for (auto& plan : ctx.links)
        if (!plan.link->tile.pinned()) order.push_back({&plan, nullptr});
    for (auto& r : ctx.logical_requests)
        if (r.kind != TileKind::Compute) order.push_back({nullptr, &r});
    std::stable_sort(order.begin(), order.end(), [](const NonCore& a, const NonCore& b) {
        const auto da = a.need(), db = b.need();
        return da.first + da.second > db.first + db.second;
    });
    for (auto& nc : order) place_unpinned(ctx, nc, reserved);
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
    case OwnerKind::MemTile: return mem_endpoint_tile(ctx, ep, preferred_col);
    case OwnerKind::None: break;
    }
    throw DesignError(fmt::format("{} is not used by any worker, the runtime or a link", ep->describe()));
}

} // namespace npusim::iron::detail

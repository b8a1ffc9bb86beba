#include "resolve/LowLevelPlacement.hpp"

#include "resolve/LowLevelLowering.hpp"
#include "resolve/Placement.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

namespace npusim::iron::detail {

using model::Direction;
using model::TileCoord;
using model::TileKind;

namespace {

// One low-level stream: its source ends and destination ends (a Flow has one of each; a
// PacketFlow one source and its destinations). SequentialPlacer::buildFlowMembership makes every
// source a peer of every destination and the other way round, never sources of each other.
struct FlowEnds {
    std::vector<std::pair<Tile, int>> srcs, dsts; ///< (tile, DMA channel)
    std::string who;
};

// A pinned compute tile is a placed CoreTile logical tile: no longer free for unpinned ones.
void take_pinned_compute_tile(ResolveContext& ctx, const Tile& t) {
    if (t.pinned() && ctx.dev.contains(t.coord()) && ctx.dev.kind_at(t.coord()) == TileKind::Compute)
        ctx.worker_tiles.insert(t.coord());
}

std::vector<FlowEnds> low_level_flows(const ResolveContext& ctx) {
    std::vector<FlowEnds> out;
    const auto& rt = *ctx.program.runtime().state();
    for (const auto& f : rt.flows)
        out.push_back({{{f->src, f->opts.src_channel}}, {{f->dst, f->opts.dst_channel}}, f->describe()});
    for (const auto& f : rt.packet_flows) {
        FlowEnds e{{{f->src, f->opts.src_channel}}, {{f->dst, f->opts.dst_channel}}, f->describe()};
        for (const auto& d : f->opts.extra_dsts) e.dsts.push_back({d.tile, d.channel});
        out.push_back(std::move(e));
    }
    return out;
}

// Two Tiles are one logical tile: the same coordinates when both are pinned, the same Tile
// (Tile::logical) when neither is; a pinned Tile and an unplaced one are two logical tiles, as
// two aie.logical_tile ops are until the placer merges them.
bool same_tile(const Tile& a, const Tile& b) {
    if (a.pinned() != b.pinned()) return false;
    return a.pinned() ? a.coord() == b.coord() : a.logical == b.logical;
}

// computeCentroidColumn's resolveCoreCol: the column of a peer that is a compute tile, pinned or
// already placed (compute logical tiles are placed before the non-core ones).
std::optional<int> core_column(const ResolveContext& ctx, const Tile& t) {
    if (t.pinned()) {
        if (ctx.dev.contains(t.coord()) && ctx.dev.kind_at(t.coord()) == TileKind::Compute) return *t.col;
        return std::nullopt;
    }
    const auto it = ctx.logical_tile.find(t.logical);
    if (it != ctx.logical_tile.end() && ctx.dev.kind_at(it->second) == TileKind::Compute) return it->second.col;
    return std::nullopt;
}

TileKind request_kind(const Tile& t, const std::string& who) {
    if (t.kind) return *t.kind;
    if (t.row) return model::tile_kind_of_row(*t.row);
    // python/iron/device/device.py resolve_tile: an unplaced Tile needs its type.
    throw DesignError(
        fmt::format("{}: Cannot resolve {}: tile_type must be set or inferred from coordinates.", who, t.str()));
}

} // namespace

void collect_logical_tiles(ResolveContext& ctx) {
    // A Tile a worker runs on: its logical tile is the worker's (IRON's Worker keeps the Tile it is
    // given, except the AnyComputeTile singleton, which it copies: worker.py l.88-97).
    std::map<std::uint64_t, TileCoord> worker_logical;
    for (auto* w : ctx.workers)
        if (!w->opts.tile.pinned() && w->opts.tile.logical != AnyComputeTile.logical)
            worker_logical.emplace(w->opts.tile.logical, ctx.worker_tile.at(w));
    std::map<std::uint64_t, std::size_t> index;
    auto use = [&](const Tile& t, const std::string& who) -> LogicalTileRequest* {
        if (t.pinned()) return nullptr;
        if (const auto it = worker_logical.find(t.logical); it != worker_logical.end()) {
            ctx.logical_tile[t.logical] = it->second;
            return nullptr;
        }
        if (const auto it = index.find(t.logical); it != index.end()) return &ctx.logical_requests[it->second];
        LogicalTileRequest r;
        r.tile = t;
        r.kind = request_kind(t, who);
        r.who = who;
        index[t.logical] = ctx.logical_requests.size();
        ctx.logical_requests.push_back(std::move(r));
        return &ctx.logical_requests.back();
    };
    const auto& rt = *ctx.program.runtime().state();
    // Flow ends: the channels they take (one per DMA (tile, channel) and direction) and their peers.
    std::set<std::tuple<bool, std::uint64_t, int, bool>> seen; // pinned?, tile, channel, MM2S?
    auto add_end = [&](const Tile& t, int channel, bool out, const std::vector<Tile>& peers, const std::string& who) {
        LogicalTileRequest* r = use(t, who);
        if (!r && !t.pinned()) return; // a worker's tile: placed already
        const std::uint64_t key =
            t.pinned() ? static_cast<std::uint64_t>(*t.col) * 1000 + static_cast<std::uint64_t>(*t.row) : t.logical;
        if (r) r->flows.push_back(peers);
        if (!seen.insert({t.pinned(), key, channel, out}).second) return;
        auto& need = r ? r->need : ctx.pinned_flow_need[t.coord()];
        (out ? need.second : need.first) += 1;
    };
    for (const auto& f : low_level_flows(ctx)) {
        std::vector<Tile> srcs, dsts;
        for (const auto& [t, c] : f.srcs) srcs.push_back(t);
        for (const auto& [t, c] : f.dsts) dsts.push_back(t);
        for (const auto& [t, c] : f.srcs) add_end(t, c, true, dsts, f.who);
        for (const auto& [t, c] : f.dsts) add_end(t, c, false, srcs, f.who);
    }
    for (const auto& d : rt.tile_dmas) use(d->tile, fmt::format("TileDma '{}'", d->name));
    // A pinned compute tile a low-level object names is a placed CoreTile logical tile: the
    // placer takes it out of the free compute tiles (recordPlacement, AIEPlacer.cpp l.835-838).
    auto pinned_compute = [&](const Tile& t) { take_pinned_compute_tile(ctx, t); };
    for (const auto& f : low_level_flows(ctx)) {
        for (const auto& [t, c] : f.srcs) pinned_compute(t);
        for (const auto& [t, c] : f.dsts) pinned_compute(t);
    }
    for (const auto& d : rt.tile_dmas) pinned_compute(d->tile);
    for (auto* l : all_locks(ctx)) pinned_compute(l->tile);
    for (auto* l : all_locks(ctx)) use(l->tile, fmt::format("lock '{}'", l->name));
    for (const auto& d : rt.tile_dmas)
        for (const auto& ch : d->channels)
            for (const auto& bd : ch.bds)
                if (const auto& b = bd.buffer.state(); b->tile) use(*b->tile, fmt::format("buffer '{}'", b->name));
}

void reserve_pinned_low_level_tiles(ResolveContext& ctx) {
    // A pinned compute tile a low-level object names is a placed CoreTile logical tile: the placer
    // takes it out of the free compute tiles (recordPlacement, AIEPlacer.cpp l.835-838) before it
    // places any unpinned one, workers included (SequentialPlacer::place sorts fully pinned logical
    // tiles first, AIEPlacer.cpp l.252-312). The tiles are those IRON's resolve_program gathers
    // before placement (python/iron/program.py l.167-188): the Flows' ends, the TileDmas' tiles, the
    // Runtime's Locks, and the tiles() of the workers' fn_args Resolvables (a pinned Buffer's tile,
    // buffer.py l.95; a Switchbox's tile). A TileDma BD's Buffer or a Lock only a body or a BD
    // names is not among them.
    auto pinned_compute = [&](const Tile& t) { take_pinned_compute_tile(ctx, t); };
    const auto& rt = *ctx.program.runtime().state();
    for (const auto& f : low_level_flows(ctx)) {
        for (const auto& [t, c] : f.srcs) pinned_compute(t);
        for (const auto& [t, c] : f.dsts) pinned_compute(t);
    }
    for (const auto& d : rt.tile_dmas) pinned_compute(d->tile);
    for (const auto& l : rt.locks) pinned_compute(l->tile);
    for (auto* w : ctx.workers)
        for (const auto& b : w->buffers)
            if (b->tile) pinned_compute(*b->tile);
    for (const auto& sb : rt.switchboxes) pinned_compute(sb->tile);
}

void place_logical_compute_tiles(ResolveContext& ctx) {
    const auto compute = ctx.dev.tiles_of(TileKind::Compute); // column by column, bottom to top
    for (auto& r : ctx.logical_requests) {
        if (r.kind != TileKind::Compute) continue;
        const auto it = std::find_if(compute.begin(), compute.end(), [&](TileCoord t) {
            return !ctx.worker_tiles.count(t) && (!r.tile.col || t.col == *r.tile.col) &&
                   (!r.tile.row || t.row == *r.tile.row);
        });
        if (it == compute.end()) {
            // SequentialPlacer::place, an unplaced compute logical tile with no candidate.
            if (r.tile.col || r.tile.row)
                throw DesignError(fmt::format("{}: no compute tile available matching constraint ({}, {})", r.who,
                                              r.tile.col ? std::to_string(*r.tile.col) : "?",
                                              r.tile.row ? std::to_string(*r.tile.row) : "?"));
            throw DesignError(fmt::format("{}: no available compute tiles for placement ({} compute tiles of {}, all "
                                          "taken)",
                                          r.who, compute.size(), ctx.dev.name));
        }
        const TileCoord t = *it;
        // validateAndUpdateChannelUsage on the selected tile.
        const int max_in = ctx.dev.dma_channels(t, Direction::S2MM), max_out = ctx.dev.dma_channels(t, Direction::MM2S);
        if (r.need.first > max_in || r.need.second > max_out)
            throw DesignError(fmt::format("{}: tile ({}, {}) requires {} input/{} output DMA channels, but only {} "
                                          "input/{} output available",
                                          r.who, t.col, t.row, r.need.first, r.need.second, max_in, max_out));
        ctx.worker_tiles.insert(t);
        ctx.logical_tile[r.tile.logical] = t;
    }
}

std::optional<int> logical_centroid_column(const ResolveContext& ctx, const LogicalTileRequest& r) {
    const auto flows = low_level_flows(ctx);
    // One level of indirection (shim -> mem tile -> core): the core columns of a peer's own flows.
    auto via = [&](const Tile& peer) {
        std::vector<int> cols;
        for (const auto& f : flows) {
            auto scan = [&](const auto& mine, const auto& theirs) {
                for (const auto& [t, c] : mine)
                    if (same_tile(t, peer))
                        for (const auto& [o, oc] : theirs)
                            if (auto col = core_column(ctx, o)) cols.push_back(*col);
            };
            scan(f.srcs, f.dsts);
            scan(f.dsts, f.srcs);
        }
        return cols;
    };
    std::vector<std::vector<int>> per_flow;
    for (const auto& peers : r.flows) {
        std::vector<int> dests;
        for (const auto& p : peers) {
            if (auto col = core_column(ctx, p)) {
                dests.push_back(*col);
                continue;
            }
            if (same_tile(p, r.tile)) continue;
            for (int c : via(p)) dests.push_back(c);
        }
        if (!dests.empty()) per_flow.push_back(std::move(dests));
    }
    if (per_flow.empty()) return std::nullopt;
    return centroid_of(ctx.dev.cols, per_flow);
}

} // namespace npusim::iron::detail

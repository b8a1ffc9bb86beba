#include "resolve/MemTileSpill.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace npusim::iron::detail {

namespace {

// The fifo a mem tile produces: a link's output (its producer end is the link).
bool produced_by_mem_tile(const ResolveContext& ctx, const FifoState& f) {
    if (!f.prod || f.prod->owner != OwnerKind::Link) return false;
    for (const auto& plan : ctx.links)
        if (plan.link == f.prod->link) return ctx.dev.kind_at(plan.tile) == model::TileKind::Mem;
    return false;
}

} // namespace

std::map<model::TileCoord, std::string> spill_mem_tile_buffers(ResolveContext& ctx) {
    auto& buffers = ctx.net.buffers;
    auto is_mem = [&](model::TileCoord t) { return ctx.dev.kind_at(t) == model::TileKind::Mem; };
    // The pools on mem tiles, by the fifo whose elements they are (the buffers' provenance).
    std::map<std::string, std::vector<int>> pool_of;
    std::vector<bool> element(buffers.size(), false);
    for (int idx : ctx.ledger.fifo_elements()) {
        element[static_cast<std::size_t>(idx)] = true;
        const auto& b = buffers[static_cast<std::size_t>(idx)];
        if (is_mem(b.tile)) pool_of[b.prov.object].push_back(idx);
    }
    if (pool_of.empty()) return {};
    // Processing order (l.2362-2391): the fifos in order, the mem-tile-produced ones' slots
    // refilled with those fifos sorted by object size, largest first (stable).
    std::vector<const std::vector<int>*> order;
    std::vector<std::size_t> slots;
    std::vector<const std::vector<int>*> produced;
    std::set<std::string> listed;
    for (const auto* f : ctx.fifos) {
        auto it = pool_of.find(f->name);
        if (it == pool_of.end() || !listed.insert(f->name).second) continue;
        if (produced_by_mem_tile(ctx, *f)) {
            slots.push_back(order.size());
            produced.push_back(&it->second);
        }
        order.push_back(&it->second);
    }
    for (const auto& [name, pool] : pool_of)
        if (!listed.count(name)) order.push_back(&pool); // pools of no listed fifo, last
    auto bytes_of = [&](const std::vector<int>* pool) { return buffers[static_cast<std::size_t>(pool->front())].bytes; };
    std::stable_sort(produced.begin(), produced.end(),
                     [&](const auto* a, const auto* b) { return bytes_of(a) > bytes_of(b); });
    for (std::size_t i = 0; i < slots.size(); ++i) order[slots[i]] = produced[i];

    // Bytes used so far on each mem tile: its other buffers from the start, then each element placed.
    std::map<model::TileCoord, std::uint64_t> used;
    for (std::size_t i = 0; i < buffers.size(); ++i)
        if (!element[i] && is_mem(buffers[i].tile)) used[buffers[i].tile] += buffers[i].bytes;
    std::map<model::TileCoord, std::string> notes;
    for (const auto* pool : order)
        for (int idx : *pool) {
            auto& b = buffers[static_cast<std::size_t>(idx)];
            const model::TileCoord home = b.tile;
            const std::uint64_t cap = ctx.dev.resources(home).memory_bytes;
            if (used[home] + b.bytes <= cap) {
                used[home] += b.bytes;
                continue;
            }
            // l.1039-1097: the neighbours sharing memory with it, fewer used bytes first.
            auto neighbours = ctx.dev.mem_tile_neighbours(home);
            std::stable_sort(neighbours.begin(), neighbours.end(),
                             [&](model::TileCoord a, model::TileCoord c) { return used[a] < used[c]; });
            auto fits = std::find_if(neighbours.begin(), neighbours.end(),
                                     [&](model::TileCoord n) { return used[n] + b.bytes <= cap; });
            if (fits != neighbours.end()) {
                used[*fits] += b.bytes;
                ctx.ledger.move_buffer(idx, *fits);
                continue;
            }
            used[home] += b.bytes;
            if (notes.count(home)) continue;
            std::string why;
            for (auto n : neighbours)
                why += fmt::format("{}{} ({} of {} B used)", why.empty() ? "" : ", ", model::to_string(n), used[n], cap);
            notes[home] = neighbours.empty()
                              ? fmt::format("buffer {} of {} B does not fit, and no neighbour mem tile shares memory "
                                            "with this one",
                                            b.name, b.bytes)
                              : fmt::format("buffer {} of {} B does not fit, nor in its neighbour mem tile{} {}",
                                            b.name, b.bytes, neighbours.size() > 1 ? "s" : "", why);
        }
    return notes;
}

} // namespace npusim::iron::detail

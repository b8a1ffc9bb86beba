#include "resolve/TraceLowering.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <set>

namespace npusim::iron::detail {

void lower_trace(ResolveContext& ctx) {
    const auto& opts = ctx.program.trace_options();
    if (!opts || opts->trace_size == 0) return;
    const auto arch = ctx.dev.arch;
    auto& cfg = ctx.net.trace;
    cfg.enabled = true;
    cfg.buffer_bytes = opts->trace_size;

    // Every given list is checked, used or not (IRON checks only the lists of traced tiles; a list
    // that would fail on any tile is an error here even before a tile uses it).
    using model::TraceUnitType;
    const std::pair<const std::optional<std::vector<TraceEvent>>*, TraceUnitType> lists[] = {
        {&opts->coretile_events, TraceUnitType::Core},
        {&opts->coremem_events, TraceUnitType::Mem},
        {&opts->memtile_events, TraceUnitType::MemTile},
        {&opts->shimtile_events, TraceUnitType::ShimTile}};
    const char* option_names[] = {"coretile_events", "coremem_events", "memtile_events", "shimtile_events"};
    for (std::size_t i = 0; i < std::size(lists); ++i)
        if (*lists[i].first)
            (void)model::trace_unit_events(arch, lists[i].second, *lists[i].first,
                                           fmt::format("enable_trace {}", option_names[i]));

    // Workers to trace, as Program.resolve_program picks them.
    std::vector<WorkerState*> traced;
    if (opts->workers) {
        for (const auto& w : *opts->workers) {
            auto* s = w.state().get();
            if (std::find(ctx.workers.begin(), ctx.workers.end(), s) == ctx.workers.end())
                throw DesignError(fmt::format("enable_trace: worker '{}' is not one of the program's workers",
                                              w.name().empty() ? std::string("<unnamed>") : w.name()));
            traced.push_back(s);
        }
    } else {
        for (auto* w : ctx.workers)
            if (w->opts.trace) traced.push_back(w);
    }
    // configure_trace: a tile listed twice gets one core trace (the second entry is its memory trace).
    std::set<model::TileCoord> core_tiles;
    std::vector<std::pair<model::TileCoord, std::string>> cores;
    for (auto* w : traced) {
        const auto tile = ctx.worker_tile.at(w);
        if (core_tiles.insert(tile).second) cores.emplace_back(tile, w->name);
    }
    auto unit = [&](TraceUnitType type, model::TileCoord tile, std::string worker,
                    const std::optional<std::vector<TraceEvent>>& events, const char* option) {
        model::TraceUnit u;
        u.type = type;
        u.tile = tile;
        u.worker = std::move(worker);
        u.events = model::trace_unit_events(arch, type, events,
                                            fmt::format("enable_trace {} ({} trace of tile {})", option,
                                                        model::trace_unit_type_name(type), model::to_string(tile)));
        cfg.units.push_back(std::move(u));
    };
    for (const auto& [tile, worker] : cores)
        unit(TraceUnitType::Core, tile, worker, opts->coretile_events, "coretile_events");
    if (opts->coremem_events)
        for (const auto& [tile, worker] : cores)
            unit(TraceUnitType::Mem, tile, worker, opts->coremem_events, "coremem_events");
    std::set<model::TileCoord> seen;
    for (const auto& tile : opts->tiles) {
        if (!ctx.dev.contains(tile))
            throw DesignError(fmt::format("enable_trace: tile {} is not on {}", model::to_string(tile), ctx.dev.name));
        if (!seen.insert(tile).second) continue;
        switch (ctx.dev.kind_at(tile)) {
        case model::TileKind::Mem:
            unit(TraceUnitType::MemTile, tile, {}, opts->memtile_events, "memtile_events");
            break;
        case model::TileKind::Shim:
            unit(TraceUnitType::ShimTile, tile, {}, opts->shimtile_events, "shimtile_events");
            break;
        case model::TileKind::Compute:
            throw DesignError(
                fmt::format("enable_trace: tile {} is a compute tile; trace its worker (workers=) instead",
                            model::to_string(tile)));
        }
    }
}

} // namespace npusim::iron::detail

#include "resolve/Resolver.hpp"

#include "resolve/BlockTypes.hpp"
#include "resolve/CascadeLowering.hpp"
#include "resolve/ChannelPins.hpp"
#include "resolve/Collect.hpp"
#include "resolve/FifoLowering.hpp"
#include "resolve/LinkLowering.hpp"
#include "resolve/LowLevelLowering.hpp"
#include "resolve/LowLevelPlacement.hpp"
#include "resolve/PacketRouter.hpp"
#include "resolve/Placement.hpp"
#include "resolve/ResolveContext.hpp"
#include "resolve/ScratchpadLowering.hpp"
#include "resolve/SequenceLowering.hpp"
#include "resolve/StaticChecks.hpp"
#include "resolve/StreamRouter.hpp"
#include "resolve/SwitchboxLowering.hpp"
#include "resolve/SymbolTable.hpp"
#include "resolve/MemTileSpill.hpp"
#include "resolve/TileMemoryAllocator.hpp"
#include "resolve/TraceLowering.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron::detail {

namespace {

// The tile's own `allocation_scheme` (a worker's or a link's Tile request), else the flag.
AllocScheme tile_alloc_scheme(ResolveContext& ctx, model::TileCoord tile) {
    std::optional<AllocScheme> scheme;
    std::string first;
    auto consider = [&](const Tile& req, const std::string& who) {
        if (!req.allocation_scheme) return;
        if (scheme && *scheme != *req.allocation_scheme)
            throw DesignError(fmt::format("tile {}: {} asks for allocation_scheme '{}' but {} for '{}'",
                                          model::to_string(tile), who, alloc_scheme_name(*req.allocation_scheme), first,
                                          alloc_scheme_name(*scheme)));
        scheme = req.allocation_scheme;
        first = who;
    };
    for (auto* w : ctx.workers)
        if (ctx.worker_tile.at(w) == tile) consider(w->opts.tile, fmt::format("worker '{}'", w->name));
    for (const auto& plan : ctx.links)
        if (plan.tile == tile)
            consider(plan.link->tile, fmt::format("the link of fifo '{}'", plan.link->inputs.front()->name));
    return scheme.value_or(ctx.opts.alloc_scheme);
}

// Per tile: the core stack at the bottom, then the tile's buffers (TileMemoryAllocator); a mem
// tile's pools first spill to a neighbour when it is full (spill_mem_tile_buffers).
void allocate_memory(ResolveContext& ctx) {
    const auto notes = spill_mem_tile_buffers(ctx);
    for (const auto& [tile, u] : ctx.ledger.tiles()) {
        const auto kind = ctx.dev.kind_at(tile);
        if (u.buffers.empty() && kind != model::TileKind::Compute) continue;
        if (kind == model::TileKind::Shim) continue;
        std::uint32_t stack = 0;
        for (const auto& core : ctx.net.cores)
            if (core.tile == tile) stack = core.stack_bytes;
        if (u.buffers.empty() && stack == 0) continue;
        TileMemoryAllocator alloc(tile, ctx.dev.resources(tile), stack, tile_alloc_scheme(ctx, tile));
        if (auto it = notes.find(tile); it != notes.end()) alloc.set_failure_note(it->second);
        alloc.allocate(ctx.net.buffers, u.buffers, ctx.net.warnings);
    }
}

void route_flows(ResolveContext& ctx) {
    StreamRouter router(ctx.dev);
    reserve_pinned_routes(ctx, router);
    for (auto& f : ctx.net.flows)
        if (!f.pinned_route) router.route(f);
    route_packet_flows(ctx, router);
}

} // namespace

Resolver::Resolver(const Program& program, const ResolveOptions& opts) : program_(program), opts_(opts) {}

model::Netlist Resolver::run() {
    ResolveContext ctx(program_, opts_);
    collect_design(ctx);
    refuse_block_types_without_bfp(ctx);
    name_unnamed_objects(ctx);
    trace_bodies(ctx);
    apply_depth_overrides(ctx);
    place_workers(ctx);
    lower_cascades(ctx);
    // Tiles, as aie-place-tiles places the logical tiles: the low-level objects' unplaced compute
    // tiles after the workers, then links and unplaced mem/shim tiles together; then what is on them.
    collect_logical_tiles(ctx);
    place_logical_compute_tiles(ctx);
    place_links(ctx);
    place_locks(ctx);
    place_scratchpad_params(ctx);
    place_buffers(ctx);
    place_tile_dma_buffers(ctx);
    place_barriers(ctx);
    lower_flows(ctx);
    lower_packet_flows(ctx);
    lower_tile_dmas(ctx);
    lower_switchboxes(ctx);
    check_packet_sources(ctx);
    reserve_pinned_channels(ctx);
    for (auto* f : ctx.fifos) lower_fifo(ctx, f);
    for (auto& l : ctx.links) lower_link(ctx, l);
    check_depth_overrides_used(ctx);
    check_symbol_names(ctx.net);
    allocate_memory(ctx);
    route_flows(ctx);
    lower_sequence(ctx);
    lower_trace(ctx);
    for (auto& l : ctx.links) check_link_rates(ctx, *l.link);
    apply_werror(ctx);
    return std::move(ctx.net);
}

} // namespace npusim::iron::detail

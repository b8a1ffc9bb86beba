#include "resolve/Resolver.hpp"

#include "resolve/Collect.hpp"
#include "resolve/FifoLowering.hpp"
#include "resolve/LinkLowering.hpp"
#include "resolve/Placement.hpp"
#include "resolve/ResolveContext.hpp"
#include "resolve/SequenceLowering.hpp"
#include "resolve/StreamRouter.hpp"
#include "resolve/TileMemoryAllocator.hpp"

namespace npusim::iron::detail {

namespace {

// Per tile: the core stack at the bottom, then the tile's buffers (TileMemoryAllocator).
void allocate_memory(ResolveContext& ctx) {
    for (const auto& [tile, u] : ctx.ledger.tiles()) {
        const auto kind = ctx.dev.kind_at(tile);
        if (u.buffers.empty() && kind != model::TileKind::Compute) continue;
        if (kind == model::TileKind::Shim) continue;
        std::uint32_t stack = 0;
        for (const auto& core : ctx.net.cores)
            if (core.tile == tile) stack = core.stack_bytes;
        if (u.buffers.empty() && stack == 0) continue;
        TileMemoryAllocator alloc(tile, ctx.dev.resources(tile), stack,
                                  ctx.opts.alloc_scheme == AllocScheme::BankAware);
        alloc.allocate(ctx.net.buffers, u.buffers);
    }
}

void route_flows(ResolveContext& ctx) {
    StreamRouter router(ctx.dev);
    for (auto& f : ctx.net.flows) router.route(f);
}

} // namespace

Resolver::Resolver(const Program& program, const ResolveOptions& opts) : program_(program), opts_(opts) {}

model::Netlist Resolver::run() {
    ResolveContext ctx(program_, opts_);
    collect_design(ctx);
    trace_bodies(ctx);
    place_workers(ctx);
    place_buffers(ctx);
    place_links(ctx);
    for (auto* f : ctx.fifos) lower_fifo(ctx, f);
    for (auto& l : ctx.links) lower_link(ctx, l);
    allocate_memory(ctx);
    route_flows(ctx);
    lower_sequence(ctx);
    return std::move(ctx.net);
}

} // namespace npusim::iron::detail

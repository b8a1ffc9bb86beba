#include "resolve/ChannelPins.hpp"

#include "resolve/FifoLowering.hpp"

#include <fmt/format.h>

namespace npusim::iron::detail {

using model::Direction;
using model::TileCoord;

std::string channel_owner(const EndpointState& ep) {
    if (ep.role == Role::Producer) return fmt::format("fifo '{}' (producer)", ep.fifo->name);
    return fmt::format("fifo '{}' (consumer {})", ep.fifo->name, ep.index);
}

namespace {

// The tile of `ep` if placement already fixed it.
std::optional<TileCoord> known_tile(ResolveContext& ctx, const EndpointState& ep) {
    switch (ep.owner) {
    case OwnerKind::Worker: return ctx.worker_tile.at(ep.worker);
    case OwnerKind::Link: return ctx.plan_of(ep.link).tile;
    case OwnerKind::Runtime:
    case OwnerKind::MemTile:
        if (ep.tile.pinned()) return ep.tile.coord();
        return std::nullopt;
    case OwnerKind::None: return std::nullopt;
    }
    return std::nullopt;
}

} // namespace

void reserve_pinned_channels(ResolveContext& ctx) {
    for (auto* f : ctx.fifos) {
        // A fifo whose two cores share memory moves no data by DMA: upstream only pins the
        // channels of fifos that need DMAs (reservePinnedChannels walks splitFifos, requiresDMAs
        // does not look at the pins). We run the same and say so instead of ignoring it quietly.
        if (lowers_to_shared_pool(ctx, f)) {
            bool pinned = f->prod && f->prod->channel;
            for (const auto& c : f->cons) pinned = pinned || (c->owner != OwnerKind::None && c->channel);
            if (pinned)
                ctx.net.warnings.push_back(fmt::format(
                    "fifo '{}': its DMA channel pin has no effect: both ends share memory, so the fifo uses no "
                    "DMA channel (give via_dma to move it by DMA)",
                    f->name));
            continue;
        }
        auto reserve = [&](const EndpointState& ep, Direction d) {
            if (!ep.channel || ep.owner == OwnerKind::None) return;
            if (const auto t = known_tile(ctx, ep); t && ctx.dev.contains(*t))
                ctx.ledger.reserve_channel(*t, d, *ep.channel, channel_owner(ep));
        };
        if (f->prod) reserve(*f->prod, Direction::MM2S);
        for (const auto& c : f->cons) reserve(*c, Direction::S2MM);
    }
}

} // namespace npusim::iron::detail

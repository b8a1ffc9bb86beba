#pragma once
// ChannelPins: IRON prod(channel=)/cons(channel=) (the seed's Port.dma(n)). Every pinned DMA
// channel whose tile is known after placement is reserved before any first-free assignment, as
// AIEObjectFifoStatefulTransform reservePinnedChannels does (lib/Dialect/AIE/Transforms/
// AIEObjectFifoStatefulTransform.cpp), so auto-assignment never steals a pinned channel.
#include "FifoState.hpp"
#include "resolve/ResolveContext.hpp"

#include <string>

namespace npusim::iron::detail {

/// The ledger owner name of a fifo end's channel: "fifo 'f' (producer)", "fifo 'f' (consumer 0)".
std::string channel_owner(const EndpointState& ep);

/// Reserve the pinned channels of worker, link and pinned mem-tile/shim ends (run after
/// place_links, before lower_fifo). A runtime or mem-tile end on an unpinned tile takes its pin
/// when its tile is chosen (endpoint_tile prefers a tile where the pinned channel is free).
/// DesignError "pinned MM2S DMA channel <c> is out of range or already in use on this tile"
/// (DMAChannelAnalysis::reservePinnedChannel) naming the fifo end and the tile.
void reserve_pinned_channels(ResolveContext& ctx);

} // namespace npusim::iron::detail

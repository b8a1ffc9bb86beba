#include "npusim/frontend/PacketFlow.hpp"

#include "npusim/frontend/ObjectFifo.hpp"

#include <fmt/format.h>

namespace npusim::iron {

namespace detail {
std::string PacketFlowState::describe() const {
    std::string s = fmt::format("PacketFlow({}) {} DMA:{} -> {} DMA:{}", pkt_id, src.str(), opts.src_channel, dst.str(),
                                opts.dst_channel);
    for (const auto& d : opts.extra_dsts) s += fmt::format(", {} DMA:{}", d.tile.str(), d.channel);
    return s;
}
} // namespace detail

PacketFlow::PacketFlow(int pkt_id, Tile src, Tile dst, PacketFlowOptions opts)
    : state_(std::make_shared<detail::PacketFlowState>()) {
    state_->uid = detail::next_uid();
    state_->pkt_id = pkt_id;
    state_->src = std::move(src);
    state_->dst = std::move(dst);
    state_->opts = std::move(opts);
}

} // namespace npusim::iron

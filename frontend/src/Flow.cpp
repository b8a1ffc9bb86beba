#include "npusim/frontend/Flow.hpp"

#include "npusim/frontend/ObjectFifo.hpp"

#include <fmt/format.h>

namespace npusim::iron {

namespace detail {
std::string FlowState::describe() const {
    return fmt::format("Flow {} DMA:{} -> {} DMA:{}", src.str(), opts.src_channel, dst.str(), opts.dst_channel);
}
} // namespace detail

Flow::Flow(Tile src, Tile dst, FlowOptions opts) : state_(std::make_shared<detail::FlowState>()) {
    state_->uid = detail::next_uid();
    state_->src = std::move(src);
    state_->dst = std::move(dst);
    state_->opts = std::move(opts);
}

} // namespace npusim::iron

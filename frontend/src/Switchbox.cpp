#include "npusim/frontend/Switchbox.hpp"

#include "npusim/frontend/ObjectFifo.hpp"

#include <fmt/format.h>

namespace npusim::iron {

std::string Connect::str() const {
    return fmt::format("connect<{} : {}, {} : {}>", model::wire_bundle_name(src_bundle), src_channel,
                       model::wire_bundle_name(dst_bundle), dst_channel);
}

namespace detail {
std::string SwitchboxState::describe() const {
    return fmt::format("{} on {}", shim_mux ? "shim_mux" : "switchbox", tile.str());
}
} // namespace detail

Switchbox::Switchbox(Tile tile, std::vector<Connect> connects) : state_(std::make_shared<detail::SwitchboxState>()) {
    state_->uid = detail::next_uid();
    state_->tile = std::move(tile);
    state_->connects = std::move(connects);
}

ShimMux::ShimMux(Tile tile, std::vector<Connect> connects) : Switchbox(std::move(tile), std::move(connects)) {
    state_->shim_mux = true;
}

} // namespace npusim::iron

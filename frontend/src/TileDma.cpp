#include "npusim/frontend/TileDma.hpp"

#include "npusim/frontend/ObjectFifo.hpp"

#include <fmt/format.h>

namespace npusim::iron {

TileDma::TileDma(Tile tile, std::vector<DmaChannel> channels, std::string name)
    : state_(std::make_shared<detail::TileDmaState>()) {
    state_->uid = detail::next_uid();
    state_->tile = std::move(tile);
    state_->channels = std::move(channels);
    state_->default_name = name.empty();
    state_->name = name.empty() ? "tile_dma" : std::move(name);
}

} // namespace npusim::iron

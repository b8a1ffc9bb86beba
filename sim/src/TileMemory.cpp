#include "TileMemory.hpp"

#include <algorithm>

namespace npusim::sim {

std::uint32_t tile_memory_extent(const std::vector<model::NetBuffer>& buffers, model::TileCoord tile) {
    std::uint32_t extent = 4;
    for (const auto& b : buffers)
        if (b.tile == tile) extent = std::max(extent, b.address + b.bytes);
    return extent;
}

std::uint8_t* TileMemory::of(model::TileCoord tile) {
    auto it = memory_.find(tile);
    if (it == memory_.end())
        it = memory_.emplace(tile, std::vector<std::uint8_t>(tile_memory_extent(buffers_, tile), 0)).first;
    return it->second.data();
}

std::uint8_t* TileMemory::buffer(int buffer) {
    const auto& b = buffers_.at(static_cast<std::size_t>(buffer));
    return of(b.tile) + b.address;
}

} // namespace npusim::sim

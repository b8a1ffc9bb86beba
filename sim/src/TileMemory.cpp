#include "TileMemory.hpp"

#include <algorithm>
#include <cstring>

namespace npusim::sim {

std::uint32_t tile_memory_extent(const std::vector<model::NetBuffer>& buffers, model::TileCoord tile) {
    std::uint32_t extent = 4;
    for (const auto& b : buffers)
        if (b.tile == tile) extent = std::max(extent, b.address + b.bytes);
    return extent;
}

TileMemory::Span TileMemory::with_guards(model::TileCoord tile) {
    auto it = memory_.find(tile);
    if (it == memory_.end()) {
        const std::size_t extent = tile_memory_extent(buffers_, tile);
        std::vector<std::uint8_t> m(extent + 2 * kGuardBytes, 0);
        std::memset(m.data(), kGuardPattern, kGuardBytes);
        std::memset(m.data() + kGuardBytes + extent, kGuardPattern, kGuardBytes);
        it = memory_.emplace(tile, std::move(m)).first;
    }
    return {it->second.data(), it->second.size()};
}

std::uint8_t* TileMemory::of(model::TileCoord tile) { return with_guards(tile).base + kGuardBytes; }

std::uint8_t* TileMemory::buffer(int buffer) {
    const auto& b = buffers_.at(static_cast<std::size_t>(buffer));
    return of(b.tile) + b.address;
}

} // namespace npusim::sim

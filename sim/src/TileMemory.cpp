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

bool TileMemory::watched_by_other(model::TileCoord tile, const void* guard) const {
    const auto it = watchers_.find(tile);
    return it != watchers_.end() &&
           std::any_of(it->second.begin(), it->second.end(), [guard](const void* g) { return g != guard; });
}

void TileMemory::log_write(model::TileCoord tile, const std::uint8_t* begin, const std::uint8_t* end, const void* by) {
    if (begin >= end || !watched_by_other(tile, by)) return;
    if (log_.size() == kLogCapacity) {
        const auto drop = kLogCapacity / 2;
        log_.erase(log_.begin(), log_.begin() + static_cast<std::ptrdiff_t>(drop));
        log_base_ += drop;
    }
    log_.push_back({begin, end, by});
}

std::uint8_t* TileMemory::of(model::TileCoord tile) { return with_guards(tile).base + kGuardBytes; }

std::uint8_t* TileMemory::buffer(int buffer) {
    const auto& b = buffers_.at(static_cast<std::size_t>(buffer));
    return of(b.tile) + b.address;
}

} // namespace npusim::sim

#pragma once
// The data memories of the tiles of a run, created on first use.
#include "npusim/model/Netlist.hpp"

#include <cstdint>
#include <map>
#include <vector>

namespace npusim::sim {

/// Bytes of tile memory a run backs for `tile`: the end of the highest netlist buffer on it (at
/// least 4). Every access is within a buffer (BD patterns are bounds-checked, core rings and
/// buffers point at buffer bases), so an array of mostly empty 512 KiB mem tiles does not cost
/// its full size in zeroed pages.
std::uint32_t tile_memory_extent(const std::vector<model::NetBuffer>& buffers, model::TileCoord tile);

class TileMemory {
public:
    explicit TileMemory(const std::vector<model::NetBuffer>& buffers) : buffers_(buffers) {}
    /// The zero-initialised memory of `tile` (tile_memory_extent bytes).
    std::uint8_t* of(model::TileCoord tile);
    /// The first byte of netlist buffer `buffer`.
    std::uint8_t* buffer(int buffer);

private:
    const std::vector<model::NetBuffer>& buffers_;
    std::map<model::TileCoord, std::vector<std::uint8_t>> memory_;
};

} // namespace npusim::sim

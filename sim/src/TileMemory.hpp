#pragma once
// The data memories of the tiles of a run, created on first use. Each is surrounded by a guard
// zone of kGuardBytes filled with a known pattern, so that a native kernel or body writing a little
// before or past a tile's memory writes into the guard (where MemoryGuard finds it) rather than
// into the simulator's own heap.
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
    static constexpr std::uint32_t kGuardBytes = 4096; ///< before and after each tile's memory
    static constexpr std::uint8_t kGuardPattern = 0xA5;

    explicit TileMemory(const std::vector<model::NetBuffer>& buffers) : buffers_(buffers) {}
    /// The zero-initialised memory of `tile` (tile_memory_extent bytes).
    std::uint8_t* of(model::TileCoord tile);
    /// The first byte of netlist buffer `buffer`.
    std::uint8_t* buffer(int buffer);
    /// The memory of `tile` with its guard zones: kGuardBytes + extent + kGuardBytes bytes.
    struct Span {
        std::uint8_t* base = nullptr; ///< first guard byte
        std::size_t bytes = 0;
    };
    Span with_guards(model::TileCoord tile);
    std::uint32_t extent(model::TileCoord tile) {
        return static_cast<std::uint32_t>(with_guards(tile).bytes) - 2 * kGuardBytes;
    }
    const std::vector<model::NetBuffer>& buffers() const { return buffers_; }

private:
    const std::vector<model::NetBuffer>& buffers_;
    std::map<model::TileCoord, std::vector<std::uint8_t>> memory_;
};

} // namespace npusim::sim

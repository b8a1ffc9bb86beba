#include "npusim/frontend/Tile.hpp"

#include <atomic>
#include <fmt/format.h>

namespace npusim::iron {

std::uint64_t next_logical_tile() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

std::string Tile::str() const {
    if (pinned()) return fmt::format("Tile({},{})", *col, *row);
    if (col || row) // a column or row constraint only (IRON's Tile(col=1))
        return fmt::format("Tile({},{})", col ? std::to_string(*col) : "?", row ? std::to_string(*row) : "?");
    if (kind)
        return fmt::format("Any{}Tile", *kind == TileKind::Compute ? "Compute"
                                        : *kind == TileKind::Mem   ? "Mem"
                                                                   : "Shim");
    return "Tile(?)";
}

} // namespace npusim::iron

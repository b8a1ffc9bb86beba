#pragma once
// Tile placement requests: a concrete tile, or "any tile of this kind" left to the placer.
#include "npusim/model/DeviceSpec.hpp"

#include <optional>
#include <string>

namespace npusim::iron {

using model::TileKind;

struct Tile {
    std::optional<int> col; ///< empty: let the placer choose
    std::optional<int> row;
    std::optional<TileKind> kind;

    Tile() = default;
    Tile(int c, int r) : col(c), row(r) {}
    static Tile any(TileKind k) {
        Tile t;
        t.kind = k;
        return t;
    }
    bool pinned() const { return col.has_value() && row.has_value(); }
    model::TileCoord coord() const { return {*col, *row}; }
    std::string str() const;
};

inline const Tile AnyComputeTile = Tile::any(TileKind::Compute);
inline const Tile AnyMemTile = Tile::any(TileKind::Mem);
inline const Tile AnyShimTile = Tile::any(TileKind::Shim);

} // namespace npusim::iron

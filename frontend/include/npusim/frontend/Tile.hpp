#pragma once
// Tile placement requests: a concrete tile, or "any tile of this kind" left to the placer.
#include "npusim/model/DeviceSpec.hpp"

#include <optional>
#include <string>

namespace npusim::iron {

using model::TileKind;

/// aiecc `--alloc-scheme` (mlir-aie lib/Dialect/AIE/Transforms/AIEAssignBuffers.cpp,
/// AIEAssignBufferAddressesPass): `Default` is the flag left unset (bank-aware, falling back to
/// basic-sequential with a warning); `BankAware` and `BasicSequential` are the explicit values,
/// each without fallback.
enum class AllocScheme { Default, BankAware, BasicSequential };

/// The flag's spelling: "bank-aware", "basic-sequential" ("" for Default).
const char* alloc_scheme_name(AllocScheme s);
/// Parse "bank-aware" / "basic-sequential"; nullopt for anything else.
std::optional<AllocScheme> parse_alloc_scheme(const std::string& s);

struct Tile {
    std::optional<int> col; ///< empty: let the placer choose
    std::optional<int> row;
    std::optional<TileKind> kind;
    /// IRON Tile(allocation_scheme=...): the tile attribute `allocation_scheme`, which overrides
    /// aiecc's `--alloc-scheme` for this tile (AIEAssignBuffers.cpp); empty: use the flag.
    std::optional<AllocScheme> allocation_scheme;

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

#pragma once
// Tile placement requests: a concrete tile, or "any tile of this kind" left to the placer.
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>
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

/// A fresh logical tile identity (process-wide; it names no object, only tells tiles apart).
std::uint64_t next_logical_tile();

struct Tile {
    std::optional<int> col; ///< empty: let the placer choose
    std::optional<int> row;
    std::optional<TileKind> kind;
    /// IRON Tile(allocation_scheme=...): the tile attribute `allocation_scheme`, which overrides
    /// aiecc's `--alloc-scheme` for this tile (AIEAssignBuffers.cpp); empty: use the flag.
    std::optional<AllocScheme> allocation_scheme;
    /// Which logical tile this is, as IRON's Tile object is one `aie.logical_tile`
    /// (python/iron/device/device.py resolve_tile dedups by the object's identity): a copy is the
    /// same logical tile, each construction a new one. Low-level objects (Lock, Buffer, TileDma,
    /// Flow and PacketFlow ends) that name one unplaced Tile are placed together on one tile;
    /// AnyMemTile / AnyComputeTile / AnyShimTile are each one such tile, as IRON's singletons.
    std::uint64_t logical = next_logical_tile();

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

#pragma once
// Buffer allocation in one tile's data memory, the two schemes of mlir-aie's AIEAssignBuffers.cpp
// (AIEAssignBufferAddressesPass): bank-aware (simpleBankAwareAllocation: each buffer goes to the
// next allocator bank with room, round robin, so ping and pong land in different banks) and
// basic-sequential (basicAllocation: one after the other). Both take the buffers largest first, as
// the toolchain sorts them (equal sizes keep their creation order). The core stack is placed
// first, at the bottom of bank 0. The scheme (aiecc `--alloc-scheme`, or the tile's
// `allocation_scheme`) decides the fallback: unset = bank-aware, then basic-sequential with the
// toolchain's warning; an explicit scheme has no fallback. Failure is a DesignError quoting the
// toolchain's message and naming the tile.
#include "npusim/frontend/Tile.hpp"
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Netlist.hpp"

#include <optional>
#include <string>
#include <vector>

namespace npusim::iron::detail {

enum class AllocResult { BankAware, Sequential };

class TileMemoryAllocator {
public:
    TileMemoryAllocator(model::TileCoord tile, const model::TileResources& res, std::uint32_t stack_bytes,
                        AllocScheme scheme);
    /// Assign addresses to buffers[i] for i in `indices`. Throws DesignError. A fallback from
    /// bank-aware to basic-sequential (scheme Default) appends the toolchain's warning to `warnings`.
    AllocResult allocate(std::vector<model::NetBuffer>& buffers, const std::vector<int>& indices,
                         std::vector<std::string>& warnings) const;

    /// Appended to an out-of-memory error (a mem tile: why no neighbour took the buffer).
    void set_failure_note(std::string note) { note_ = std::move(note); }

private:
    /// The buffer that fits no bank, if any (all others are placed).
    std::optional<int> try_bank_aware(std::vector<model::NetBuffer>& buffers, const std::vector<int>& order) const;
    bool try_sequential(std::vector<model::NetBuffer>& buffers, const std::vector<int>& order) const;
    std::string tile_name() const;
    std::string usage(const std::vector<model::NetBuffer>& buffers, const std::vector<int>& indices) const;
    model::TileCoord tile_;
    const model::TileResources* res_;
    std::uint32_t stack_;
    AllocScheme scheme_;
    std::string note_;
};

} // namespace npusim::iron::detail

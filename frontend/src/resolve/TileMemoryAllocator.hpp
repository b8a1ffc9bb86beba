#pragma once
// Buffer allocation in one tile's data memory, the two schemes of mlir-aie's AIEAssignBuffers:
// bank-aware (default: each buffer goes to the next allocator bank with room, round robin, so
// ping and pong land in different banks) and basic-sequential (one after the other). The core
// stack is placed first, at the bottom of bank 0. Bank-aware falls back to basic-sequential when
// some buffer fits no bank; if that fails too the tile is out of memory (DesignError).
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Netlist.hpp"

#include <string>
#include <vector>

namespace npusim::iron::detail {

enum class AllocResult { BankAware, Sequential };

class TileMemoryAllocator {
public:
    TileMemoryAllocator(model::TileCoord tile, const model::TileResources& res, std::uint32_t stack_bytes,
                        bool bank_aware);
    /// Assign addresses to buffers[i] for i in `indices` (in that order). Throws DesignError.
    AllocResult allocate(std::vector<model::NetBuffer>& buffers, const std::vector<int>& indices) const;

private:
    bool try_bank_aware(std::vector<model::NetBuffer>& buffers, const std::vector<int>& indices) const;
    bool try_sequential(std::vector<model::NetBuffer>& buffers, const std::vector<int>& indices) const;
    model::TileCoord tile_;
    const model::TileResources* res_;
    std::uint32_t stack_;
    bool bank_aware_;
};

} // namespace npusim::iron::detail

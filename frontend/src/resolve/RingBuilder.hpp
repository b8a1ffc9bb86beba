#pragma once
// RingBuilder: the building blocks every fifo and link lowering shares — a ring of buffers
// `<prefix>_buff_<k>`, a lock pair `<prefix>_prod_lock_<i>` (free slots) / `<prefix>_cons_lock_<i>`
// (full slots), and a circular BD chain walking the buffers (mlir-aie
// lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp: createObjectFifoElements,
// createObjectFifoLocks, createBdBlock; see docs/resolve.md, steps 4 and 5).
#include "FifoState.hpp"
#include "npusim/model/Netlist.hpp"
#include "resolve/DepthRule.hpp"
#include "resolve/ResourceLedger.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::iron::detail {

struct LockPair {
    int prod = -1; ///< free-slot lock (producer acquires)
    int cons = -1; ///< full-slot lock (consumer acquires)
};

struct Ring {
    std::vector<int> buffers;
    LockPair locks;
};

/// One BD per buffer of a chain: where it reads or writes in the buffer and which locks it uses.
struct ChainSegment {
    std::uint32_t offset_bytes = 0;
    std::uint32_t length_bytes = 0;
    int acquire_lock = -1;
    int release_lock = -1;
    int lock_value = 1; ///< acquire and release value
};

class RingBuilder {
public:
    RingBuilder(ResourceLedger& ledger, model::Netlist& net) : ledger_(ledger), net_(net) {}

    /// `depth` buffers `<prefix>_buff_<k>` of `bytes` on `tile`; the first ones hold `init`.
    std::vector<int> buffers(model::TileCoord tile, const std::string& prefix, int depth, std::uint32_t bytes,
                             const std::string& fifo, const std::string& role,
                             const std::vector<std::vector<std::uint8_t>>& init = {});
    /// Lock pair `index` of `prefix` on `tile`.
    LockPair lock_pair(model::TileCoord tile, const std::string& prefix, int index, LockInits inits,
                       const std::string& fifo, const std::string& role);
    /// Buffers and lock pair 0 of one fifo side (`role` names both in provenance).
    Ring ring(model::TileCoord tile, const std::string& prefix, int depth, std::uint32_t bytes, LockInits inits,
              const std::string& fifo, const std::string& role,
              const std::vector<std::vector<std::uint8_t>>& init = {});

private:
    ResourceLedger& ledger_;
    model::Netlist& net_;
};

/// A circular chain: for each buffer k, one BD per segment (in order), all with `dims`; the last
/// BD points back to the first. BD provenance is (fifo, role, k).
std::vector<model::BufferDescriptor> circular_chain(const std::vector<int>& buffers,
                                                    const std::vector<ChainSegment>& segments,
                                                    const std::vector<model::Dim>& dims, const std::string& fifo,
                                                    const std::string& role);

/// repeat_count `R` on an MM2S chain (R8): one BD with a hardware repeat of R-1 when allowed (a
/// single buffer, no split/join, no iter_count), otherwise every BD is duplicated R times.
void repeat_chain(std::vector<model::BufferDescriptor>& bds, int R, bool allow_hw_repeat = true);
/// set_iter_count: a chain run `iters` times ends instead of looping (0: loops forever).
void end_chain_after_iterations(model::DmaChannelProgram& ch, int iters);

} // namespace npusim::iron::detail

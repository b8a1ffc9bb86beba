#pragma once
// LowLevelExporter: the low-level API's ops, as IRON's Program.resolve_program emits them
// (python/iron/program.py at 3ca0193, "Lower-level: explicit Flow / TileDma / Lock primitives"):
// after the objectfifos each Flow's aie.flow (python/iron/dataflow/flow.py Flow.resolve) and each
// PacketFlow's aie.packet_flow, with aie.shim_dma_allocation for a shim_symbol; then each Lock's
// aie.lock (python/iron/lock.py Lock.resolve: tile, lock id when given, init, sym_name); then the
// Buffers the TileDma programs name (aie.buffer on the buffer's tile, else the program's); after
// the cores, each TileDma as aie.mem (compute tile) or aie.memtile_dma (mem tile): a chain of
// aie.dma_start blocks, one per channel, and per BD a block with its acquire, aie.dma_bd_packet,
// aie.dma_bd, its release and aie.next_bd (python/iron/dataflow/tile_dma.py TileDma.resolve).
#include "export/ModuleExporter.hpp"

#include "npusim/frontend/TileDma.hpp"

#include <functional>
#include <set>
#include <string>

namespace npusim::iron::detail::mlir {

class LowLevelExporter {
public:
    /// `tile(t)` gives the logical tile op of a tile: one per coordinate for a pinned tile, one per
    /// Tile (Tile::logical) for an unplaced one, as one Tile object in IRON.
    LowLevelExporter(const RuntimeState& rt, Region& device, ValueIds& ids, DeviceValues& values,
                     std::function<int(const Tile&)> tile);
    /// The tiles of the flows, the tile DMAs and the locks, in that order (program.py).
    void emit_tiles();
    void emit_flows();
    /// aie.lock for every Lock the runtime adds, then those only a worker or a BD names.
    void emit_locks(const std::vector<const LockState*>& worker_locks);
    /// aie.buffer for the TileDma programs' buffers (each once; `done` is shared with the workers').
    void emit_dma_buffers(std::set<const BufferState*>& done);
    void emit_tile_dmas();
    /// aie.shim_mux / aie.switchbox with their aie.connect ops, for every Runtime.add_switchbox
    /// (upstream's manual_switchbox emits them from Resolvables among a Worker's fn_args, after the
    /// TileDma programs' buffers).
    void emit_switchboxes();

private:
    void emit_lock(const LockState& l);
    void shim_allocation(const std::string& symbol, const Tile& src, int src_channel, const Tile& dst,
                         int dst_channel);
    Op tile_dma(const TileDmaState& td);
    int constant_i32(Region& r, int value);
    void use_lock(Region& r, const LockState& l, const char* action, int action_value, int value);

    const RuntimeState& rt_;
    Region& device_;
    ValueIds& ids_;
    DeviceValues& values_;
    std::function<int(const Tile&)> tile_;
    std::set<std::string> shim_symbols_; ///< each aie.shim_dma_allocation once per symbol
};

} // namespace npusim::iron::detail::mlir

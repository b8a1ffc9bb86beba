#pragma once
// Flow (IRON aie.iron.Flow, python/iron/dataflow/flow.py): an explicit circuit-switched stream
// route from a DMA channel of one tile to a DMA channel of another (aie.flow), for hand-written
// designs that program the DMAs themselves (TileDma) instead of using an ObjectFifo. Register it
// with Runtime::add_flow. `shim_symbol` names the shim end for the runtime sequence
// (aie.shim_dma_allocation @symbol: MM2S when the shim is the source, S2MM when it is the
// destination, flow.py _emit_shim_dma_alloc); shim_dma_single_bd_task(symbol, ...) then moves host
// data through it. Only DMA ports are modelled (IRON's src_port/dst_port default, WireBundle.DMA).
#include "npusim/frontend/Tile.hpp"

#include <memory>
#include <string>

namespace npusim::iron {

/// IRON's keyword arguments of Flow, in declaration order (C++ designated initializers must
/// follow it): src_channel, dst_channel, shim_symbol.
struct FlowOptions {
    int src_channel = 0;
    int dst_channel = 0;
    std::string shim_symbol{}; ///< empty: none
};

namespace detail {
struct FlowState {
    int uid = 0;
    Tile src, dst;
    FlowOptions opts;
    std::string describe() const; ///< "Flow (0,0) DMA:0 -> (0,2) DMA:0"
};
} // namespace detail

class Flow {
public:
    Flow(Tile src, Tile dst, FlowOptions opts = {});
    const std::shared_ptr<detail::FlowState>& state() const { return state_; }

private:
    std::shared_ptr<detail::FlowState> state_;
};

} // namespace npusim::iron

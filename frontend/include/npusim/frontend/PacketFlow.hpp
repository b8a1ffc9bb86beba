#pragma once
// PacketFlow (IRON aie.iron.PacketFlow, python/iron/dataflow/flow.py): an explicit packet-switched
// stream route (aie.packet_flow(ID) { aie.packet_source<...> aie.packet_dest<...> }). Unlike a Flow,
// several packet flows may share the switch connections on their way and merge onto one DMA port:
// every packet carries a header word whose 5-bit packet id the switches match against their packet
// rules. The source's BDs emit that header (Bd::packet); a destination drops it unless
// keep_pkt_header. Register it with Runtime::add_flow. Only DMA ports are modelled (IRON's
// src_port/dst_port default, WireBundle.DMA).
#include "npusim/frontend/Tile.hpp"

#include <memory>
#include <string>
#include <vector>

namespace npusim::iron {

/// IRON PacketDest: one more destination of a PacketFlow (extra_dsts), a DMA S2MM channel.
struct PacketDest {
    Tile tile;
    int channel = 0;
};

/// IRON's keyword arguments of PacketFlow, in declaration order (C++ designated initializers must
/// follow it): src_channel, dst_channel, extra_dsts, keep_pkt_header, shim_symbol.
struct PacketFlowOptions {
    int src_channel = 0;
    int dst_channel = 0;
    std::vector<PacketDest> extra_dsts{};
    bool keep_pkt_header = false;
    std::string shim_symbol{}; ///< empty: none
};

namespace detail {
struct PacketFlowState {
    int uid = 0;
    int pkt_id = 0;
    Tile src, dst;
    PacketFlowOptions opts;
    std::string describe() const; ///< "PacketFlow(3) (0,2) DMA:0 -> (0,0) DMA:0"
};
} // namespace detail

class PacketFlow {
public:
    PacketFlow(int pkt_id, Tile src, Tile dst, PacketFlowOptions opts = {});
    int pkt_id() const { return state_->pkt_id; }
    const std::shared_ptr<detail::PacketFlowState>& state() const { return state_; }

private:
    std::shared_ptr<detail::PacketFlowState> state_;
};

} // namespace npusim::iron

#pragma once
// PacketRouter: IRON PacketFlow (Runtime.add_flow) into the netlist's packet flows - the
// packet-switched peer of LowLevelLowering's circuit flows. The rules it enforces are the
// toolchain's: packet id <= 31 (AIECreatePathFindFlows.cpp "packet id <id> exceeds the maximum of
// 31"), the 4 packet-rule slots of a slave port ("slave port packet rules exceed the 4-slot
// limit"), and it routes packet flows so that they share switch connections with each other.
#include "resolve/ResolveContext.hpp"
#include "resolve/StreamRouter.hpp"

namespace npusim::iron::detail {

/// Runtime.add_flow(PacketFlow): one netlist packet flow per (source port, packet id) - two
/// PacketFlows with the same both are one with the union of their destinations, as the
/// toolchain keys them (AIECreatePathFindFlows.cpp, packetFlows[(port, flowID)]); shim
/// destinations claimed once, shim_symbol recorded (flow.py _emit_shim_dma_alloc); the source
/// ports' packet rules counted against their 4 slots.
void lower_packet_flows(ResolveContext& ctx);
/// After lower_tile_dmas: every tile end of a packet flow has a BD program, and every BD of a
/// packet flow's source channel sends a packet whose id one of the port's packet flows routes.
void check_packet_sources(const ResolveContext& ctx);
/// Route every packet flow after the circuit flows: switch connections one packet flow took are
/// free for the others (packets are arbitrated on them), the rest take circuit capacity.
void route_packet_flows(ResolveContext& ctx, StreamRouter& router);

/// The fewest (mask, value) packet rules that match every id of `match` and no id of `avoid`
/// (AIECreatePathFindFlows.cpp computeSubcubeCover: prime implicants, then a minimal cover).
int packet_rule_cover_size(const std::vector<int>& match, const std::vector<int>& avoid);

} // namespace npusim::iron::detail

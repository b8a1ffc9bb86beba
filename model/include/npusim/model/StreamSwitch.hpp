#pragma once
// The stream switch of one tile as the toolchain's verifier sees it: the wire bundles of aie.connect
// (AIEAttrs.td WireBundle, in its order and values), how many ports of each bundle a tile's switch
// has as sources (slaves, data entering the switch) and destinations (masters, data leaving it),
// and which source-to-destination connections the switch allows. The neighbour and DMA counts come
// from DeviceSpec (SwitchPorts, TileResources); the rest of mlir-aie's AIE2 tables
// (AIETargetModel.cpp at 3ca0193, getNumSourceSwitchboxConnections L952-1029,
// getNumDestSwitchboxConnections L881-950, isLegalTileConnection L1070-1160; AIE2P uses the same)
// live in StreamSwitch.cpp. Nothing here simulates: resolve checks aie.switchbox / aie.connect with
// it (frontend/src/resolve/SwitchboxLowering.cpp).
#include "npusim/model/DeviceSpec.hpp"

#include <optional>
#include <string>

namespace npusim::model {

/// AIEAttrs.td WireBundle (I32EnumAttr, values 0..10 in this order).
enum class WireBundle : std::uint8_t { Core, DMA, FIFO, South, West, North, East, PLIO, NOC, Trace, TileControl };

const char* wire_bundle_name(WireBundle b); ///< "South", as stringifyWireBundle prints it
std::optional<WireBundle> wire_bundle_from_int(int v); ///< empty outside 0..10

/// Source ports (slaves) of `bundle` in the switch of tile `t` (getNumSourceSwitchboxConnections).
int switchbox_sources(const DeviceSpec& dev, TileCoord t, WireBundle bundle);
/// Destination ports (masters) of `bundle` in the switch of tile `t` (getNumDestSwitchboxConnections).
int switchbox_dests(const DeviceSpec& dev, TileCoord t, WireBundle bundle);
/// AIE2 isLegalTileConnection: may the switch of `t` connect source (sb, sc) to destination (db, dc)?
bool legal_switch_connection(const DeviceSpec& dev, TileCoord t, WireBundle sb, int sc, WireBundle db, int dc);

/// The neighbour bundles as a direction (North, South, East, West); empty for the others.
std::optional<Port> bundle_direction(WireBundle b);
/// The bundle a stream sent out on `b` arrives on at the neighbour (North -> South, East -> West).
WireBundle opposite_bundle(WireBundle b);

/// The shim mux's fixed wiring of the shim DMA channels to the shim switch's South ports, as the
/// router writes it (AIECreatePathFindFlows.cpp L116-119 and L143-146 at 3ca0193; aie-rt
/// XAie_EnableShimDmaToAieStrmPort / XAie_EnableAieToShimDmaStrmPort): MM2S 0 enters the switch at
/// South 3 and MM2S 1 at South 7; S2MM 0 leaves it at South 2 and S2MM 1 at South 3.
int shim_mux_port(Direction dir, int channel);

} // namespace npusim::model

#include "npusim/model/StreamSwitch.hpp"

#include <algorithm>
#include <initializer_list>

namespace npusim::model {

namespace {

bool in(WireBundle b, std::initializer_list<WireBundle> list) {
    return std::find(list.begin(), list.end(), b) != list.end();
}

// A neighbour bundle's count: the tile kind's SwitchPorts, 0 where the array ends. The shim's South
// ports lead to its mux and always exist.
int neighbour_ports(const DeviceSpec& dev, TileCoord t, Port dir, bool dest) {
    const auto& p = dev.ports(dev.kind_at(t));
    const bool shim_south = dev.kind_at(t) == TileKind::Shim && dir == Port::South;
    TileCoord n = t;
    switch (dir) {
    case Port::North: n.row += 1; break;
    case Port::South: n.row -= 1; break;
    case Port::East: n.col += 1; break;
    case Port::West: n.col -= 1; break;
    }
    if (!shim_south && !dev.contains(n)) return 0;
    switch (dir) {
    case Port::North: return dest ? p.north_out : p.north_in;
    case Port::South: return dest ? p.south_out : p.south_in;
    case Port::East: return dest ? p.east_out : p.east_in;
    case Port::West: return dest ? p.west_out : p.west_in;
    }
    return 0;
}

// The bundles that do not lead to a neighbour (AIETargetModel.cpp L881-1029 at 3ca0193): a compute
// tile's switch has one Core port and one FIFO port each way, two Trace sources (core and memory
// trace) and one TileControl port each way; a mem tile one Trace source and one TileControl each
// way; a shim NOC tile one FIFO each way, one Trace source and one TileControl each way. The DMA
// ports of compute and mem tiles are their DMA channels (S2MM = destinations, MM2S = sources); the
// shim's DMA reaches its switch through the mux (South ports), not as a DMA bundle.
int local_ports(const DeviceSpec& dev, TileCoord t, WireBundle b, bool dest) {
    const TileKind k = dev.kind_at(t);
    switch (b) {
    case WireBundle::DMA:
        if (k == TileKind::Shim) return 0;
        return dev.dma_channels(t, dest ? Direction::S2MM : Direction::MM2S);
    case WireBundle::Core: return k == TileKind::Compute ? 1 : 0;
    case WireBundle::FIFO: return k == TileKind::Mem ? 0 : 1;
    case WireBundle::Trace: return dest ? 0 : (k == TileKind::Compute ? 2 : 1);
    case WireBundle::TileControl: return 1;
    default: return 0;
    }
}

int ports(const DeviceSpec& dev, TileCoord t, WireBundle b, bool dest) {
    if (const auto dir = bundle_direction(b)) return neighbour_ports(dev, t, *dir, dest);
    return local_ports(dev, t, b, dest);
}

} // namespace

const char* wire_bundle_name(WireBundle b) {
    switch (b) {
    case WireBundle::Core: return "Core";
    case WireBundle::DMA: return "DMA";
    case WireBundle::FIFO: return "FIFO";
    case WireBundle::South: return "South";
    case WireBundle::West: return "West";
    case WireBundle::North: return "North";
    case WireBundle::East: return "East";
    case WireBundle::PLIO: return "PLIO";
    case WireBundle::NOC: return "NOC";
    case WireBundle::Trace: return "Trace";
    case WireBundle::TileControl: return "TileControl";
    }
    return "?";
}

std::optional<WireBundle> wire_bundle_from_int(int v) {
    if (v < 0 || v > static_cast<int>(WireBundle::TileControl)) return std::nullopt;
    return static_cast<WireBundle>(v);
}

int switchbox_sources(const DeviceSpec& dev, TileCoord t, WireBundle bundle) { return ports(dev, t, bundle, false); }
int switchbox_dests(const DeviceSpec& dev, TileCoord t, WireBundle bundle) { return ports(dev, t, bundle, true); }

// AIE2TargetModel::isLegalTileConnection (AIETargetModel.cpp L1070-1160 at 3ca0193), rule by rule.
bool legal_switch_connection(const DeviceSpec& dev, TileCoord t, WireBundle sb, int sc, WireBundle db, int dc) {
    using B = WireBundle;
    if (sc >= switchbox_sources(dev, t, sb) || dc >= switchbox_dests(dev, t, db)) return false;
    switch (dev.kind_at(t)) {
    case TileKind::Mem:
        if (sb == B::DMA) {
            if (db == B::DMA) return sc == dc;
            if (in(db, {B::TileControl, B::South, B::North})) return true;
        }
        if (sb == B::TileControl) {
            if (db == B::DMA) return dc == 5;
            if (in(db, {B::South, B::North})) return true;
        }
        if (in(sb, {B::South, B::North})) {
            if (in(db, {B::DMA, B::TileControl})) return true;
            if (in(db, {B::South, B::North})) return sc == dc;
        }
        if (sb == B::Trace) {
            if (db == B::DMA) return dc == 5;
            if (db == B::South) return true;
        }
        return false;
    case TileKind::Shim: {
        const auto all = {B::TileControl, B::FIFO, B::South, B::West, B::North, B::East};
        if (sb == B::TileControl) return db != B::TileControl;
        if (in(sb, {B::FIFO, B::South})) return in(db, all);
        if (in(sb, {B::West, B::North, B::East})) return sb == db ? sc == dc : in(db, all);
        if (sb == B::Trace) {
            if (in(db, {B::FIFO, B::South})) return true;
            if (in(db, {B::West, B::East})) return dc == 0;
        }
        return false;
    }
    case TileKind::Compute:
        if (in(sb, {B::DMA, B::FIFO, B::South, B::West, B::North, B::East}) &&
            in(db, {B::Core, B::DMA, B::TileControl, B::FIFO, B::South, B::West, B::North, B::East}))
            return sb == db ? sc == dc : true;
        if (sb == B::Core) return db != B::Core;
        if (sb == B::TileControl) return db != B::TileControl && db != B::DMA;
        if (sb == B::Trace) {
            if (db == B::DMA) return dc == 0;
            if (in(db, {B::FIFO, B::South})) return true;
        }
        return false;
    }
    return false;
}

std::optional<Port> bundle_direction(WireBundle b) {
    switch (b) {
    case WireBundle::North: return Port::North;
    case WireBundle::South: return Port::South;
    case WireBundle::East: return Port::East;
    case WireBundle::West: return Port::West;
    default: return std::nullopt;
    }
}

WireBundle opposite_bundle(WireBundle b) {
    switch (b) {
    case WireBundle::North: return WireBundle::South;
    case WireBundle::South: return WireBundle::North;
    case WireBundle::East: return WireBundle::West;
    case WireBundle::West: return WireBundle::East;
    default: return b;
    }
}

int shim_mux_port(Direction dir, int channel) {
    if (dir == Direction::MM2S) return channel == 0 ? 3 : 7;
    return channel == 0 ? 2 : 3;
}

} // namespace npusim::model

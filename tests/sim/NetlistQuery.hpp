#pragma once
// Look-ups in a resolved netlist shared by the simulation tests (fail the test when absent).
#include "npusim/model/Netlist.hpp"

#include <catch2/catch.hpp>
#include <string>

namespace npusim::test {

inline int lock_init(const model::Netlist& n, const std::string& name) {
    for (const auto& l : n.locks)
        if (l.name == name) return l.init;
    FAIL("no lock " << name);
    return -1;
}

inline bool has_buffer(const model::Netlist& n, const std::string& name) {
    for (const auto& b : n.buffers)
        if (b.name == name) return true;
    return false;
}

/// The first channel of `fifo` (provenance) in direction `d` on a tile of `kind`.
inline const model::DmaChannelProgram& channel_of(const model::Netlist& n, const std::string& fifo, model::Direction d,
                                                  model::TileKind kind) {
    for (const auto& c : n.channels)
        if (c.prov.object == fifo && c.dir == d && n.device->kind_at(c.tile) == kind) return c;
    FAIL("no channel of fifo " << fifo);
    return n.channels.front();
}

} // namespace npusim::test

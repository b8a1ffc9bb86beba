// ResourceLedger (frontend/src/resolve/ResourceLedger.cpp): DMA channels, locks, BD ids and shim
// BD ids per tile, with the exhaustion messages. Counts come from mlir-aie
// include/aie/Dialect/AIE/IR/AIETargetModel.h (getNumLocks, getNumBDs, mem tile BD split by
// channel parity; DMA channel counts of getNumSourceSwitchboxConnections / getNumDestSwitchboxConnections).
#include "resolve/ResourceLedger.hpp"

#include "npusim/iron.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron::detail;
using model::Direction;

namespace {
const model::DeviceSpec& npu1() { return model::device_by_name("npu1"); }

model::DmaChannelProgram channel(model::TileCoord t, Direction d, int ch, std::size_t bds) {
    model::DmaChannelProgram p;
    p.tile = t;
    p.dir = d;
    p.channel = ch;
    p.bds.resize(bds);
    for (auto& bd : p.bds) bd.length_bytes = 64;
    return p;
}
} // namespace

TEST_CASE("alloc_channel: the lowest free channel until none is left", "[resolve][ledger]") {
    model::Netlist net;
    ResourceLedger ledger(npu1(), net);
    CHECK(ledger.alloc_channel({0, 2}, Direction::S2MM, "a") == 0);
    CHECK(ledger.alloc_channel({0, 2}, Direction::S2MM, "b") == 1);
    CHECK(ledger.channels_used({0, 2}, Direction::S2MM) == 2);
    CHECK(ledger.channels_used({0, 2}, Direction::MM2S) == 0);
    CHECK_THROWS_WITH(ledger.alloc_channel({0, 2}, Direction::S2MM, "c"),
                      "compute tile (0,2): c needs a S2MM DMA channel but all 2 are in use (by a, b)");
    CHECK(ledger.alloc_channel({0, 2}, Direction::MM2S, "c") == 0); // directions are separate
}

// Out of locks quotes AIEAssignLockIDs.cpp (AIEAssignLockIDsPass): "not allocated a lock.".
TEST_CASE("add_lock: 16 locks on a compute tile, values 0..63", "[resolve][ledger]") {
    model::Netlist net;
    ResourceLedger ledger(npu1(), net);
    for (int i = 0; i < 16; ++i)
        CHECK(net.locks[static_cast<std::size_t>(ledger.add_lock({0, 2}, "l", 0, {"f", "x"}))].id == i);
    CHECK_THROWS_WITH(
        ledger.add_lock({0, 2}, "l16", 0, {"f", "producer prod_lock (free slots)"}),
        "compute tile (0,2): 'f' producer prod_lock (free slots) needs a lock but all 16 locks are in use: not "
        "allocated a lock.");
    CHECK(ledger.add_lock({0, 1}, "m", 63, {"f", "x"}) == 16); // 64 on the mem tile, init up to 63
    CHECK_THROWS_WITH(ledger.add_lock({0, 1}, "m2", 64, {"f", "link"}),
                      "'f' link: lock 'm2' initial value 64 is outside 0..63");
    CHECK_THROWS_WITH(ledger.add_lock({0, 1}, "m3", -1, {"f", "link"}),
                      "'f' link: lock 'm3' initial value -1 is outside 0..63");
}

// Out of BDs quotes AIEAssignBufferDescriptorIDs.cpp: "Allocator exhausted available BD IDs (maximum N
// available for channel c)." (N = getNumBDsForChannel: 24 per mem-tile channel parity, 16 on compute tiles).
TEST_CASE("add_channel: BD ids per id range, the mem tile splits even and odd channels", "[resolve][ledger]") {
    model::Netlist net;
    ResourceLedger ledger(npu1(), net);
    ledger.add_channel(channel({0, 1}, Direction::S2MM, 0, 2), "even");
    ledger.add_channel(channel({0, 1}, Direction::S2MM, 1, 2), "odd");
    CHECK(net.channels[0].bds[1].bd_id == 1);
    CHECK(net.channels[1].bds[0].bd_id == 24);
    ledger.add_channel(channel({0, 1}, Direction::MM2S, 0, 22), "rest"); // fills 2..23
    CHECK(net.channels[2].bds.back().bd_id == 23);
    CHECK_THROWS_WITH(
        ledger.add_channel(channel({0, 1}, Direction::MM2S, 2, 1), "link of fifo 'in'"),
        "mem tile (0,1): link of fifo 'in' needs 1 BDs on MM2S channel 2 but only 0 of BDs 0-23 are free: "
        "Allocator exhausted available BD IDs (maximum 24 available for channel 2).");
    ledger.add_channel(channel({0, 2}, Direction::MM2S, 0, 16), "sixteen"); // a compute tile has 16
    CHECK_THROWS_WITH(ledger.add_channel(channel({0, 2}, Direction::S2MM, 0, 1), "more"),
                      "compute tile (0,2): more needs 1 BDs on S2MM channel 0 but only 0 of BDs 0-15 are free: "
                      "Allocator exhausted available BD IDs (maximum 16 available for channel 0).");
}

TEST_CASE("take_shim_bd: 16 ids per shim tile, reusable once freed", "[resolve][ledger][shim]") {
    model::Netlist net;
    ResourceLedger ledger(npu1(), net);
    for (int i = 0; i < 16; ++i) CHECK(ledger.take_shim_bd({0, 0}, "fill") == i);
    CHECK_THROWS_WITH(
        ledger.take_shim_bd({0, 0}, "fill of fifo 'in' (tap)"),
        "fill of fifo 'in' (tap): shim tile (0,0) has no free BD id (all 16 are held by unfinished tasks; finish "
        "a TaskGroup or free tasks first)");
    CHECK(ledger.take_shim_bd({1, 0}, "other tile") == 0);
    ledger.free_shim_bd({0, 0}, 5);
    CHECK(ledger.take_shim_bd({0, 0}, "fill") == 5);
}

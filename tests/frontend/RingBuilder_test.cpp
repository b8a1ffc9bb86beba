// RingBuilder (frontend/src/resolve/RingBuilder.cpp): buffers, lock pair and circular BD chain
// shared by fifo and link lowering, named as mlir-aie's object-fifo transform names them
// (lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp: <fifo>_buff_<k>,
// <fifo>_prod_lock_<i>, <fifo>_cons_lock_<i>), and the repeat_count chain rule (R8 of docs/resolve.md).
#include "resolve/RingBuilder.hpp"

#include "npusim/iron.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron::detail;

namespace {
const model::DeviceSpec& ring_npu1() { return model::device_by_name("npu1"); }
} // namespace

TEST_CASE("ring: depth buffers, a lock pair with the given inits, init data in the first buffers", "[resolve][ring]") {
    model::Netlist net;
    ResourceLedger ledger(ring_npu1(), net);
    RingBuilder rb(ledger, net);
    const Ring r =
        rb.ring({0, 2}, "in_cons", 3, 64, initial_lock_values(3, 1, 2), "in", "consumer copy", {{1, 2, 3, 4}});
    REQUIRE(r.buffers.size() == 3);
    CHECK(net.buffers[static_cast<std::size_t>(r.buffers[2])].name == "in_cons_buff_2");
    CHECK(net.buffers[static_cast<std::size_t>(r.buffers[2])].prov.describe() == "'in' consumer copy, element 2");
    CHECK(net.buffers[static_cast<std::size_t>(r.buffers[0])].init == std::vector<std::uint8_t>{1, 2, 3, 4});
    CHECK(net.buffers[static_cast<std::size_t>(r.buffers[1])].init.empty());
    const auto& prod = net.locks[static_cast<std::size_t>(r.locks.prod)];
    const auto& cons = net.locks[static_cast<std::size_t>(r.locks.cons)];
    CHECK(prod.name == "in_cons_prod_lock_0");
    CHECK(prod.init == 4);
    CHECK(prod.prov.describe() == "'in' consumer copy prod_lock (free slots)");
    CHECK(cons.name == "in_cons_cons_lock_0");
    CHECK(cons.init == 2);
    CHECK(cons.prov.describe() == "'in' consumer copy cons_lock (full slots)");
    const LockPair second = rb.lock_pair({0, 2}, "in_cons", 1, {5, 0}, "in", "link");
    CHECK(net.locks[static_cast<std::size_t>(second.prod)].name == "in_cons_prod_lock_1");
}

TEST_CASE("circular_chain: one BD per buffer and segment, the last pointing back", "[resolve][ring]") {
    const std::vector<ChainSegment> segs{{0, 16, 1, 2, 1}, {16, 16, 3, 4, 2}};
    const auto bds = circular_chain({7, 8}, segs, {}, "in", "link S2MM");
    REQUIRE(bds.size() == 4);
    CHECK(bds[0].buffer == 7);
    CHECK(bds[1].buffer == 7);
    CHECK(bds[1].offset_bytes == 16);
    CHECK(bds[1].acquire_lock == 3);
    CHECK(bds[1].release_lock == 4);
    CHECK(bds[1].acquire_value == 2);
    CHECK(bds[1].release_value == 2);
    CHECK(bds[2].buffer == 8);
    CHECK(bds[2].prov.describe() == "'in' link S2MM, element 1");
    for (std::size_t i = 0; i < bds.size(); ++i) CHECK(bds[i].next == static_cast<int>((i + 1) % 4));
}

TEST_CASE("repeat_chain: one BD repeats in hardware, otherwise BDs are duplicated", "[resolve][ring]") {
    const auto two = circular_chain({0, 1}, {{0, 16, 1, 2, 1}}, {}, "in", "producer MM2S");
    auto one = circular_chain({0}, {{0, 16, 1, 2, 1}}, {}, "in", "producer MM2S");
    auto r1 = two;
    repeat_chain(r1, 1);
    CHECK(r1.size() == 2); // R = 1: unchanged
    repeat_chain(one, 3);
    REQUIRE(one.size() == 1);
    CHECK(one[0].repeat == 2);
    auto single_no_hw = circular_chain({0}, {{0, 16, 1, 2, 1}}, {}, "in", "link MM2S");
    repeat_chain(single_no_hw, 3, /*allow_hw_repeat=*/false);
    CHECK(single_no_hw.size() == 3);
    auto dup = two;
    repeat_chain(dup, 2);
    REQUIRE(dup.size() == 4);
    CHECK(dup[0].buffer == 0);
    CHECK(dup[1].buffer == 0);
    CHECK(dup[2].buffer == 1);
    CHECK(dup[3].next == 0);
}

TEST_CASE("end_chain_after_iterations: iter_count ends the chain", "[resolve][ring]") {
    model::DmaChannelProgram ch;
    ch.bds = circular_chain({0, 1}, {{0, 16, 1, 2, 1}}, {}, "in", "link MM2S");
    end_chain_after_iterations(ch, 0);
    CHECK(ch.bds.back().next == 0);
    CHECK(ch.repeat_count == 0);
    end_chain_after_iterations(ch, 4);
    CHECK(ch.bds.back().next == -1);
    CHECK(ch.repeat_count == 3);
}

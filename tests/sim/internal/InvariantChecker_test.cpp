// The invariants every simulation keeps (sim/src/InvariantChecker.hpp), each broken on purpose:
// a buffer past its tile's memory, a lock starting outside its range, a shim task outside its host
// tensor, a receiver that wrote fewer bytes than its flow delivered, a lock ending out of range.
// A broken invariant is SimulationError kind Internal, CLI exit code 5.
#include "InvariantChecker.hpp"
#include "Rig.hpp"
#include "SemaphoreLock.hpp"
#include "StreamLink.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using npusim::test::Rig;
using npusim::test::TestProcess;

namespace {

model::Netlist small_netlist() {
    model::Netlist net;
    net.device = &model::device_by_name("npu1_1col");
    net.design = "inv";
    model::NetBuffer b;
    b.name = "in_cons_buff_0";
    b.tile = {0, 2};
    b.address = 1024;
    b.bytes = 4096;
    net.buffers.push_back(b);
    model::NetLock l;
    l.name = "in_cons_prod_lock_0";
    l.tile = {0, 2};
    l.init = 2;
    net.locks.push_back(l);
    model::HostTensor h;
    h.name = "a";
    h.bytes = 1024;
    net.host_tensors.push_back(h);
    model::ShimTask t;
    t.id = 0;
    t.tile = {0, 0};
    t.host_tensor = 0;
    t.dims = {{1, 0}, {1, 0}, {1, 0}, {256, 1}};
    t.prov.object = "in";
    t.prov.role = "fill";
    net.tasks.push_back(t);
    return net;
}

std::string internal_error(const std::function<void()>& f) {
    try {
        f();
    } catch (const SimulationError& e) {
        CHECK(e.kind() == SimulationError::Kind::Internal);
        CHECK(exit_code_for(e.kind()) == ExitCode::Internal);
        CHECK(static_cast<int>(ExitCode::Internal) == 5);
        return e.what();
    }
    return "no error";
}

/// A receiver that drops the last byte of every chunk (what a cursor bug at a BD boundary does).
struct Dropping final : sim::StreamReceiver {
    void accept(const std::uint8_t*, std::uint64_t n) override { written += n - 1; }
    std::string label() const override { return "tile (0,2) S2MM 0"; }
};

} // namespace

TEST_CASE("a well-formed netlist passes the before-run invariants", "[sim][invariants]") {
    CHECK_NOTHROW(sim::InvariantChecker::check_netlist(small_netlist()));
}

TEST_CASE("a buffer beyond its tile's data memory breaks an invariant", "[sim][invariants][errors]") {
    auto net = small_netlist();
    net.buffers[0].address = 64 * 1024 - 16;
    CHECK(internal_error([&] { sim::InvariantChecker::check_netlist(net); }) ==
          "design 'inv': simulator invariant broken: buffer 'in_cons_buff_0' (4096 B) spans bytes 65520..69616 of "
          "tile (0,2), whose data memory has 65536 B. This is a bug in npusim, not in the design; please report it "
          "with the design");
}

TEST_CASE("a lock starting outside 0..max breaks an invariant", "[sim][invariants][errors]") {
    auto net = small_netlist();
    net.locks[0].init = 64;
    CHECK(internal_error([&] { sim::InvariantChecker::check_netlist(net); }) ==
          "design 'inv': simulator invariant broken: lock 'in_cons_prod_lock_0' on tile (0,2) starts at 64, outside "
          "0..63. This is a bug in npusim, not in the design; please report it with the design");
}

TEST_CASE("a shim task reaching past its host tensor breaks an invariant", "[sim][invariants][errors]") {
    auto net = small_netlist();
    net.tasks[0].offset_bytes = 4;
    CHECK(internal_error([&] { sim::InvariantChecker::check_netlist(net); }) ==
          "design 'inv': simulator invariant broken: shim task 0 ('in' fill) reaches bytes 4..1027 of host "
          "tensor 'a', which has 1024 B. This is a bug in npusim, not in the design; please report it with the "
          "design");
    net.tasks[0].offset_bytes = 0;
    net.tasks[0].host_tensor = 3;
    CHECK(internal_error([&] { sim::InvariantChecker::check_netlist(net); }) ==
          "design 'inv': simulator invariant broken: shim task 0 ('in' fill) refers to host tensor 3 of 1. "
          "This is a bug in npusim, not in the design; please report it with the design");
}

TEST_CASE("a receiver that wrote fewer bytes than its flow delivered breaks an invariant",
          "[sim][invariants][errors]") {
    Rig rig;
    sim::RunStats stats;
    Dropping rx;
    std::vector<std::unique_ptr<sim::StreamLink>> links;
    links.push_back(std::make_unique<sim::StreamLink>(rig.timing, stats, "fifo 'in'",
                                                      std::vector<sim::StreamReceiver*>{&rx}, 4.0, 0));
    std::vector<std::uint8_t> data(64, 7);
    sim::ChannelTime unused;
    TestProcess sender(rig.services, "tx",
                       [&](TestProcess& p) { links[0]->send(data.data(), 64, p.clock(), p.state(), unused); });
    TestProcess receiver(rig.services, "rx", [&](TestProcess& p) { links[0]->receive(rx, 64, p.clock(), p.state()); });
    sender.start();
    receiver.start();
    sc_core::sc_start();
    REQUIRE(links[0]->delivered() == 64);
    sim::LockTable locks;
    const auto net = small_netlist();
    CHECK(internal_error([&] { sim::InvariantChecker::check_end(net, links, locks); }) ==
          "design 'inv': simulator invariant broken: flow fifo 'in' delivered 64 B but its receiver tile (0,2) S2MM 0 "
          "wrote 63 B. This is a bug in npusim, not in the design; please report it with the design");
}

TEST_CASE("lock ledgers balance after acquires, releases and a set", "[sim][invariants]") {
    Rig rig;
    sim::LockTable locks;
    locks.add(std::make_unique<sim::SemaphoreLock>(rig.services, 0, "p", "tile (0,2)", 2, 63, -1));
    auto& l = locks.at(0);
    TestProcess a(rig.services, "a", [&](TestProcess& p) {
        l.acquire_ge(2, p.clock(), p.state());
        p.clock().advance(100);
        l.release(1, p.clock(), test::who("a")); // ahead of time: still pending when set() runs below
        l.acquire_ge(1, p.clock(), p.state());
    });
    TestProcess b(rig.services, "b", [&](TestProcess& p) {
        p.clock().wait_cycles(10);
        l.set(5, p.clock(), "sequence");
        l.release(3, p.clock(), test::who("b"));
    });
    a.start();
    b.start();
    sc_core::sc_start();
    REQUIRE_FALSE(rig.run.error());
    CHECK(l.final_value() == 5 + 3 + 1 - 1);
    const auto g = l.ledger();
    CHECK(g.base + g.released - g.acquired == l.final_value());
    std::vector<std::unique_ptr<sim::StreamLink>> links;
    CHECK_NOTHROW(sim::InvariantChecker::check_end(small_netlist(), links, locks));
}

TEST_CASE("a lock ending outside 0..max breaks an invariant", "[sim][invariants][errors]") {
    Rig rig;
    sim::LockTable locks;
    locks.add(std::make_unique<sim::SemaphoreLock>(rig.services, 0, "in_cons_cons_lock_0", "tile (0,2)", 64, 63, -1));
    std::vector<std::unique_ptr<sim::StreamLink>> links;
    CHECK(internal_error([&] { sim::InvariantChecker::check_end(small_netlist(), links, locks); }) ==
          "design 'inv': simulator invariant broken: lock 'in_cons_cons_lock_0' on tile (0,2) ends at 64, outside "
          "0..63. This is a bug in npusim, not in the design; please report it with the design");
}

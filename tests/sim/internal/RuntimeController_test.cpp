// The RuntimeController driven directly: set_lock (barriers) at the controller's time, the end
// of the sequence, and a task on a channel without a flow.
#include "Rig.hpp"
#include "RuntimeController.hpp"
#include "SemaphoreLock.hpp"
#include "TaskBoard.hpp"
#include "TileMemory.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::model;
using npusim::test::Rig;
using npusim::test::TestProcess;

namespace {
struct ControllerRig : Rig {
    Netlist net;
    sim::TileMemory memory{net.buffers};
    sim::LockTable locks;
    sim::TaskBoard board{0};
    ControllerRig() {
        net.device = &device_by_name("npu1_1col");
        locks.add(std::make_unique<sim::SemaphoreLock>(services, 0, "barrier", "(0,2)", 0, 63, -1));
    }
    sim::ControllerServices controller() {
        return {services, net,   memory,
                locks,    board, [](const StreamEndpoint&) -> sim::ShimDmaChannel* { return nullptr; }};
    }
};
} // namespace

TEST_CASE("the runtime sequence sets a lock at its own time, then finishes the run", "[sim][runtime][barrier]") {
    ControllerRig rig;
    RuntimeOp set;
    set.kind = RuntimeOp::Kind::SetLock;
    set.lock = 0;
    set.value = 4;
    rig.net.sequence.push_back(set);
    std::uint64_t seen_at = 0;
    TestProcess waiter(rig.services, "w", [&](TestProcess& p) {
        rig.locks.at(0).acquire_eq(4, p.clock(), p.state());
        p.clock().sync();
        seen_at = sim::now_cycles() - rig.timing.lock_acquire_cycles;
    });
    sim::RuntimeController ctl(rig.controller());
    waiter.start();
    ctl.spawn("runtime_sequence", 64 * 1024, false);
    sc_core::sc_start(); // pauses when the sequence has finished
    CHECK(rig.run.finished());
    CHECK(ctl.state().status == sim::ProcessState::Status::Done);
    CHECK(rig.locks.at(0).final_value() == 4);
    CHECK(rig.locks.at(0).last_releaser() == "runtime sequence");
    sc_core::sc_start(); // let the waiter finish
    CHECK(seen_at == rig.timing.runtime_op_cycles);
    CHECK_FALSE(rig.run.error());
}

TEST_CASE("starting a task on a shim channel without a flow is a protocol error", "[sim][runtime][errors]") {
    ControllerRig rig;
    ShimTask t;
    t.tile = {0, 0};
    t.dir = Direction::MM2S;
    t.channel = 1;
    t.prov = {"in", "fill"};
    rig.net.tasks.push_back(t);
    rig.net.sequence.push_back({RuntimeOp::Kind::StartTask, 0});
    sim::RuntimeController ctl(rig.controller());
    ctl.spawn("runtime_sequence", 64 * 1024, false);
    sc_core::sc_start();
    REQUIRE(rig.run.error());
    CHECK(rig.run.error()->kind() == SimulationError::Kind::Protocol);
    CHECK(std::string(rig.run.error()->what()) ==
          "runtime sequence: task 0 ('in' fill) targets (0,0) MM2S 1, which has no flow");
    CHECK_FALSE(rig.run.finished());
}

// A CoreProcess driven directly: its barrier paths (wait_for_value is acquire-equal on the
// barrier's lock, release_with_value adds) and its protocol errors, on a hand-built core program.
#include "CoreProcess.hpp"
#include "Rig.hpp"
#include "SemaphoreLock.hpp"
#include "TileMemory.hpp"
#include "npusim/model/CoreServices.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::model;
using npusim::test::Rig;
using npusim::test::TestProcess;

namespace {
struct CoreRig : Rig {
    std::vector<NetBuffer> buffers;
    sim::TileMemory memory{buffers};
    sim::LockTable locks;
    CoreRig() { locks.add(std::make_unique<sim::SemaphoreLock>(services, 0, "barrier", "(0,2)", 0, 63, -1)); }
    sim::CoreProcessServices core() { return {services, buffers, memory, locks}; }
};
} // namespace

TEST_CASE("a core's barrier wait is acquire-equal and its release adds", "[sim][core][barrier]") {
    CoreRig rig;
    CoreProgram prog;
    prog.worker = "w";
    prog.tile = {0, 2};
    prog.while_true = false;
    prog.locks.push_back({7, 0});
    prog.body = [] {
        CoreServices::current()->lock_acquire_equal(7, 2);
        CoreServices::current()->lock_release(7, 3);
    };
    sim::CoreProcess core(rig.core(), prog);
    TestProcess runtime(rig.services, "runtime sequence", [&](TestProcess& p) {
        p.clock().wait_cycles(50);
        rig.locks.at(0).set(2, p.clock(), "runtime sequence");
    });
    core.spawn("core", 1 << 20);
    runtime.start();
    sc_core::sc_start();
    REQUIRE_FALSE(rig.run.error());
    CHECK(rig.locks.at(0).final_value() == 5); // acquire-equal took nothing; the release added 3
    CHECK(rig.locks.at(0).last_releaser() == "worker 'w' on (0,2)");
    CHECK(core.state().status == sim::ProcessState::Status::Done);
    const auto s = core.stats();
    CHECK(s.iterations == 1);
    CHECK(s.stall_cycles == 50);
    CHECK(CoreServices::current() == nullptr);
}

TEST_CASE("a core using a barrier that is not among its fn_args is a protocol error", "[sim][core][barrier][errors]") {
    CoreRig rig;
    CoreProgram prog;
    prog.worker = "w";
    prog.tile = {0, 2};
    prog.while_true = false;
    prog.body = [] { CoreServices::current()->lock_release(7, 1); };
    sim::CoreProcess core(rig.core(), prog);
    core.spawn("core", 1 << 20);
    sc_core::sc_start();
    REQUIRE(rig.run.error());
    CHECK(rig.run.error()->kind() == SimulationError::Kind::Protocol);
    CHECK(std::string(rig.run.error()->what()) == "worker 'w': uses a barrier that is not among its fn_args");
}

TEST_CASE("a worker body that throws is reported with the worker's name", "[sim][core][errors]") {
    CoreRig rig;
    CoreProgram prog;
    prog.worker = "w";
    prog.tile = {0, 2};
    prog.body = [] { throw std::runtime_error("oops"); };
    sim::CoreProcess core(rig.core(), prog);
    core.spawn("core", 1 << 20);
    sc_core::sc_start();
    REQUIRE(rig.run.error());
    CHECK(std::string(rig.run.error()->what()) == "worker 'w': body threw: oops");
    CHECK(rig.run.error()->kind() == SimulationError::Kind::Protocol);
    CHECK(CoreServices::current() == nullptr);
}

TEST_CASE("a core is a thread process and is not spawned without a stack", "[sim][core][errors]") {
    CoreRig rig;
    CoreProgram prog;
    prog.worker = "w";
    prog.tile = {0, 2};
    prog.body = [] {};
    sim::CoreProcess core(rig.core(), prog);
    CHECK_THROWS_WITH(core.spawn("core"), Catch::StartsWith(core.name() + ": simulator invariant broken: spawned "
                                                                          "without a stack, but it is a thread "
                                                                          "process."));
}

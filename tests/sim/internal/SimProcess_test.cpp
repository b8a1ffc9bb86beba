// The process base: its one error wrapper, the clock's accessors, and teardown through the run's
// terminating flag (RunControl), which every wait of a process checks.
#include "Rig.hpp"

#include <catch2/catch.hpp>
#include <stdexcept>

using namespace npusim;
using npusim::test::Rig;
using npusim::test::TestProcess;

TEST_CASE("the wrapper reports a std::exception as a protocol error naming the process", "[sim][process]") {
    Rig rig;
    TestProcess p(rig.services, "DMA (0,2) MM2S 0", [](TestProcess&) { throw std::out_of_range("index 9"); });
    p.start();
    sc_core::sc_start();
    REQUIRE(rig.run.error());
    CHECK(rig.run.error()->kind() == SimulationError::Kind::Protocol);
    CHECK(std::string(rig.run.error()->what()) == "DMA (0,2) MM2S 0: index 9");
}

TEST_CASE("the wrapper reports an unknown exception", "[sim][process]") {
    Rig rig;
    TestProcess p(rig.services, "p", [](TestProcess&) { throw 42; });
    p.start();
    sc_core::sc_start();
    REQUIRE(rig.run.error());
    CHECK(std::string(rig.run.error()->what()) == "p: body threw an unknown exception");
}

TEST_CASE("a SimulationError passes through unchanged and the first error of a run is kept", "[sim][process]") {
    Rig rig;
    TestProcess a(rig.services, "a",
                  [](TestProcess&) { throw SimulationError(SimulationError::Kind::Limit, "first"); });
    TestProcess b(rig.services, "b", [](TestProcess& p) {
        p.clock().wait_cycles(5);
        throw SimulationError(SimulationError::Kind::Protocol, "second");
    });
    a.start();
    b.start();
    sc_core::sc_start(); // pauses at the first error
    sc_core::sc_start(); // let b run and fail too
    REQUIRE(rig.run.error());
    CHECK(rig.run.error()->kind() == SimulationError::Kind::Limit);
    CHECK(std::string(rig.run.error()->what()) == "first");
}

TEST_CASE("ProcessAbort unwinds a process without recording an error", "[sim][process]") {
    Rig rig;
    TestProcess p(rig.services, "p", [](TestProcess&) { throw sim::ProcessAbort{}; });
    p.start();
    sc_core::sc_start();
    CHECK_FALSE(rig.run.error());
}

TEST_CASE("a run being torn down unwinds a waiting process at its next wake", "[sim][process][clock]") {
    Rig rig;
    sc_core::sc_event wake;
    bool after_wait = false;
    TestProcess p(rig.services, "p", [&](TestProcess& self) {
        self.clock().wait(wake);
        after_wait = true;
    });
    p.start();
    sc_core::sc_start();
    CHECK_FALSE(after_wait);
    rig.run.set_terminating(true);
    wake.notify();
    sc_core::sc_start();
    CHECK_FALSE(after_wait);
    CHECK_FALSE(rig.run.error());
}

TEST_CASE("ProcessClock: pending cycles, local time, sync and the quantum", "[sim][clock]") {
    Rig rig;
    std::vector<std::uint64_t> seen;
    TestProcess p(rig.services, "p", [&](TestProcess& self) {
        auto& c = self.clock();
        c.advance(30);
        seen.push_back(c.pending()); // 30
        seen.push_back(c.local_cycles()); // 30
        seen.push_back(sim::now_cycles()); // 0: no SystemC wait yet
        c.maybe_sync(); // below the quantum: no wait
        seen.push_back(sim::now_cycles()); // 0
        c.sync();
        seen.push_back(sim::now_cycles()); // 30
        c.set_local_cycles(10); // in the past: local = now
        seen.push_back(c.pending()); // 0
        c.set_local_cycles(50);
        seen.push_back(c.local_cycles()); // 50
        c.sync_to(70);
        seen.push_back(sim::now_cycles()); // 70
        c.advance(sim::ProcessClock::kQuantumCycles + 1);
        c.maybe_sync();
        seen.push_back(sim::now_cycles()); // 70 + quantum + 1
    });
    p.start();
    sc_core::sc_start();
    CHECK(seen == std::vector<std::uint64_t>{30, 30, 0, 0, 30, 0, 50, 70, 70 + sim::ProcessClock::kQuantumCycles + 1});
}

TEST_CASE("cycles_to_time builds the sc_time that sc_time::from_value does", "[sim][clock]") {
    test::Rig rig;
    for (const std::uint64_t c : {0ull, 1ull, 7ull, 1000ull, 123456789ull, 10000000000ull, (1ull << 50) + 3}) {
        CHECK(sim::cycles_to_time(c) == sc_core::sc_time::from_value(c));
        CHECK(sim::cycles_to_time(c).value() == c);
    }
    // A run's context counts in ns (ScContextGuard): a cycle is 1 ns (1 GHz), and the time read
    // back after waiting is the cycles waited.
    CHECK(sc_core::sc_get_time_resolution() == sc_core::sc_time(1, sc_core::SC_NS));
    CHECK(sim::cycles_to_time(3) == sc_core::sc_time(3, sc_core::SC_NS));
    sc_core::sc_start(sim::cycles_to_time(1234));
    CHECK(sim::now_cycles() == 1234);
}

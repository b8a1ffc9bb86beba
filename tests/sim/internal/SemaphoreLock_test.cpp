// SemaphoreLock driven directly: acquire-ge blocks until enough is released, acquire-eq waits
// for an exact value, timed releases, set, and overflow / out-of-range errors with their text.
#include "Rig.hpp"
#include "SemaphoreLock.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using npusim::test::Rig;
using npusim::test::TestProcess;

TEST_CASE("acquire_ge blocks until releases reach the value, then subtracts it", "[sim][lock]") {
    Rig rig;
    sim::SemaphoreLock lock(rig.services, 0, "l", "(0,2)", 0, 63, -1);
    std::uint64_t acquired_at = 0, stall = 0;
    TestProcess waiter(rig.services, "waiter", [&](TestProcess& p) {
        lock.acquire_ge(2, p.clock(), p.state(), &stall);
        acquired_at = p.clock().local_cycles();
    });
    TestProcess releaser(rig.services, "releaser", [&](TestProcess& p) {
        p.clock().wait_cycles(10);
        lock.release(1, p.clock(), test::who("releaser"));
        p.clock().wait_cycles(10);
        lock.release(1, p.clock(), test::who("releaser"));
    });
    waiter.start();
    releaser.start();
    sc_core::sc_start();
    REQUIRE_FALSE(rig.run.error());
    // the second release happens at cycle 20 (+1 release latency on the first: 10 + 1 + 10)
    const std::uint64_t second = 10 + rig.timing.lock_release_cycles + 10;
    CHECK(acquired_at == second + rig.timing.lock_acquire_cycles);
    CHECK(stall == second);
    CHECK(lock.final_value() == 0);
    CHECK(lock.last_releaser() == "releaser");
    CHECK(waiter.state().status == sim::ProcessState::Status::Running);
}

TEST_CASE("a release is visible at the releaser's local time, not before", "[sim][lock]") {
    Rig rig;
    sim::SemaphoreLock lock(rig.services, 0, "l", "(0,2)", 0, 63, -1);
    std::uint64_t acquired_at = 0;
    TestProcess releaser(rig.services, "ahead", [&](TestProcess& p) {
        p.clock().advance(500); // runs ahead of simulated time, no SystemC wait
        lock.release(1, p.clock(), test::who("ahead"));
    });
    TestProcess waiter(rig.services, "waiter", [&](TestProcess& p) {
        lock.acquire_ge(1, p.clock(), p.state());
        acquired_at = p.clock().local_cycles();
    });
    releaser.start();
    waiter.start();
    sc_core::sc_start();
    CHECK(acquired_at == 500 + rig.timing.lock_acquire_cycles);
}

TEST_CASE("acquire_eq waits for the exact value and leaves it unchanged", "[sim][lock][barrier]") {
    Rig rig;
    sim::SemaphoreLock lock(rig.services, 0, "b", "(0,2)", 0, 63, -1);
    std::uint64_t at = 0;
    TestProcess waiter(rig.services, "waiter", [&](TestProcess& p) {
        lock.acquire_eq(3, p.clock(), p.state());
        p.clock().sync();
        at = sim::now_cycles();
    });
    TestProcess releaser(rig.services, "releaser", [&](TestProcess& p) {
        lock.release(2, p.clock(), test::who("releaser")); // 2: not yet
        p.clock().wait_cycles(40);
        lock.release(1, p.clock(), test::who("releaser")); // 3 at cycle 1 + 40
    });
    waiter.start();
    releaser.start();
    sc_core::sc_start();
    CHECK(at == rig.timing.lock_release_cycles + 40 + rig.timing.lock_acquire_cycles);
    CHECK(lock.final_value() == 3);
}

TEST_CASE("a release above the lock's maximum is a protocol error", "[sim][lock][errors]") {
    Rig rig;
    sim::SemaphoreLock lock(rig.services, 0, "in_cons_prod_lock_0", "(0,2)", 63, 63, -1);
    bool after = false;
    TestProcess p(rig.services, "p", [&](TestProcess& self) {
        lock.release(1, self.clock(), test::who("worker 'w' on (0,2)"));
        after = true;
    });
    p.start();
    sc_core::sc_start();
    REQUIRE(rig.run.error());
    CHECK(rig.run.error()->kind() == SimulationError::Kind::Protocol);
    CHECK(std::string(rig.run.error()->what()) ==
          "lock 'in_cons_prod_lock_0' on (0,2) overflows: value 63 + release 1 exceeds 63 (released by worker 'w' on "
          "(0,2)); a release without a matching acquire");
    CHECK_FALSE(after); // the releasing process was unwound
    CHECK(lock.final_value() == 63);
}

TEST_CASE("set overwrites the value and wakes waiters, outside 0..max it is an error", "[sim][lock][barrier]") {
    Rig rig;
    sim::SemaphoreLock lock(rig.services, 0, "b", "(0,2)", 5, 63, -1);
    bool woke = false;
    TestProcess waiter(rig.services, "waiter", [&](TestProcess& p) {
        lock.acquire_eq(9, p.clock(), p.state());
        woke = true;
    });
    TestProcess setter(rig.services, "setter", [&](TestProcess& p) {
        p.clock().advance(7);
        lock.set(9, p.clock(), "runtime sequence");
    });
    waiter.start();
    setter.start();
    sc_core::sc_start();
    CHECK(woke);
    CHECK(lock.final_value() == 9);
    CHECK(lock.last_releaser() == "runtime sequence");
    CHECK_FALSE(rig.run.error());
}

TEST_CASE("set outside 0..max is a protocol error", "[sim][lock][barrier][errors]") {
    Rig rig;
    sim::SemaphoreLock lock(rig.services, 0, "b", "(0,2)", 5, 63, -1);
    TestProcess setter(rig.services, "setter", [&](TestProcess& p) { lock.set(64, p.clock(), "runtime sequence"); });
    setter.start();
    sc_core::sc_start();
    REQUIRE(rig.run.error());
    CHECK(rig.run.error()->kind() == SimulationError::Kind::Protocol);
    CHECK(std::string(rig.run.error()->what()) == "lock 'b' on (0,2): set to 64 outside 0..63 (by runtime sequence)");
    CHECK(lock.final_value() == 5);
}

TEST_CASE("try_acquire_ge_at takes the value only if it is there at that cycle", "[sim][lock]") {
    Rig rig;
    sim::SemaphoreLock lock(rig.services, 0, "l", "(0,2)", 1, 63, -1);
    CHECK(lock.try_acquire_ge_at(1, 0));
    CHECK_FALSE(lock.try_acquire_ge_at(1, 0));
    lock.release_at(2, 10, test::who("dma"));
    CHECK(lock.final_value() == 2);
    CHECK(lock.try_acquire_ge_at(2, 10));
    CHECK(lock.final_value() == 0);
}

// watch(): a process sleeping on its own event is woken when the lock's waiters would be: at a
// pending release's time, at once for a release made at simulated time, and no more after unwatch.
TEST_CASE("a lock's watcher is woken at each release until it unwatches", "[sim][lock]") {
    Rig rig;
    sim::SemaphoreLock lock(rig.services, 0, "l", "(0,2)", 0, 63, -1);
    sc_core::sc_event own;
    std::vector<std::uint64_t> woke;
    TestProcess watcher(rig.services, "watcher", [&](TestProcess& p) {
        lock.watch(own);
        p.clock().wait(own);
        woke.push_back(sim::now_cycles()); // the pending release at 100
        p.clock().wait(own);
        woke.push_back(sim::now_cycles()); // the release made at cycle 250
        lock.unwatch(own);
        p.clock().wait(1000000, own); // times out: the release at 350 does not wake it
        woke.push_back(sim::now_cycles());
    });
    TestProcess releaser(rig.services, "releaser", [&](TestProcess& p) {
        p.clock().advance(100);
        lock.release(1, p.clock(), test::who("releaser")); // pending until 100
        p.clock().sync();
        p.clock().wait_cycles(250 - sim::now_cycles());
        lock.release(1, p.clock(), test::who("releaser")); // at simulated time 250
        p.clock().wait_cycles(100);
        lock.release(1, p.clock(), test::who("releaser")); // after unwatch: not seen
    });
    watcher.start();
    releaser.start();
    sc_core::sc_start();
    REQUIRE_FALSE(rig.run.error());
    REQUIRE(woke.size() == 3);
    CHECK(woke[0] == 100);
    CHECK(woke[1] == 250);
    CHECK(woke[2] == 250 + 1000000);
}

// Run-ahead locks (set_run_ahead: one acquiring and one releasing process): an acquirer that finds
// a release made for a later cycle takes it at once, at that cycle, without a SystemC wait; the
// cycles are those of the waiting acquire.
TEST_CASE("a run-ahead lock is taken at a pending release's cycle without a SystemC wait", "[sim][lock]") {
    for (const bool run_ahead : {false, true}) {
        Rig rig;
        sim::SemaphoreLock lock(rig.services, 0, "l", "(0,2)", 0, 63, -1);
        lock.set_run_ahead(run_ahead);
        std::uint64_t acquired_at = 0, stall = 0, waits = 0;
        TestProcess releaser(rig.services, "ahead", [&](TestProcess& p) {
            p.clock().advance(300);
            lock.release(1, p.clock(), test::who("ahead")); // value 1 at 300
            p.clock().advance(200);
            lock.release(1, p.clock(), test::who("ahead")); // value 2 at 300 + 1 + 200
        });
        TestProcess acquirer(rig.services, "acquirer", [&](TestProcess& p) {
            p.clock().advance(100);
            lock.acquire_ge(2, p.clock(), p.state(), &stall);
            acquired_at = p.clock().local_cycles();
            waits = p.clock().waits();
        });
        releaser.start();
        acquirer.start();
        sc_core::sc_start();
        REQUIRE_FALSE(rig.run.error());
        const std::uint64_t second = 300 + rig.timing.lock_release_cycles + 200;
        CHECK(acquired_at == second + rig.timing.lock_acquire_cycles);
        CHECK(stall == second - 100);
        CHECK(lock.final_value() == 0);
        CHECK(lock.ran_ahead() == (run_ahead ? 1u : 0u));
        CHECK(waits == (run_ahead ? 0u : 2u)); // waiting: until each release in turn
    }
}

TEST_CASE("try_acquire_ge_at on a run-ahead lock takes a later pending release", "[sim][lock]") {
    Rig rig;
    sim::SemaphoreLock lock(rig.services, 0, "l", "(0,2)", 0, 63, -1);
    std::uint64_t taken = 0;
    lock.release_at(1, 40, test::who("core"));
    CHECK_FALSE(lock.try_acquire_ge_at(1, 10, "dma", &taken)); // not a run-ahead lock: not there at 10
    lock.set_run_ahead(true);
    CHECK_FALSE(lock.try_acquire_ge_at(2, 10, "dma", &taken)); // no pending release makes it 2
    CHECK(lock.try_acquire_ge_at(1, 10, "dma", &taken));
    CHECK(taken == 40);
    CHECK(lock.final_value() == 0);
    lock.release_at(1, 50, test::who("core"));
    CHECK(lock.try_acquire_ge_at(1, 60, "dma", &taken)); // there at 60 already
    CHECK(taken == 60);
    CHECK(lock.ran_ahead() == 1);
}

// The rule's own check: a release earlier than a cycle the acquirer already ran ahead to means
// the lock had another releaser after all. Only a hand-built run can do it (SimEngine sets
// run-ahead only on locks model::one_acquirer_one_releaser accepts).
TEST_CASE("a release behind a run-ahead acquire is an internal error", "[sim][lock][errors]") {
    Rig rig;
    sim::SemaphoreLock lock(rig.services, 0, "of_cons_lock_0", "(0,2)", 0, 63, -1);
    lock.set_run_ahead(true);
    lock.release_at(1, 40, test::who("DMA (0,2) S2MM 0"));
    std::uint64_t taken = 0;
    REQUIRE(lock.try_acquire_ge_at(1, 10, "worker 'w'", &taken));
    TestProcess other(rig.services, "other", [&](TestProcess& p) {
        lock.release_at(1, 20, test::who("worker 'x' on (0,3)"));
        p.clock().advance(1);
    });
    other.start();
    sc_core::sc_start();
    REQUIRE(rig.run.error());
    CHECK(rig.run.error()->kind() == SimulationError::Kind::Internal);
    CHECK(std::string(rig.run.error()->what()) ==
          "lock 'of_cons_lock_0' on (0,2): simulator invariant broken: released at cycle 20 by worker 'x' on (0,3), "
          "before cycle 40, where its one acquirer already took a later release. This is a bug in npusim, not in "
          "the design; please report it with the design");
}

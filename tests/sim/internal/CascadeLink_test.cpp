// CascadeLink driven directly: words arrive in order with their put time + latency, a put into a
// full FIFO (4 words) waits until the getter takes the word that frees its slot, a get from an
// empty FIFO waits for the putter, and the counters behind the invariant words put = got + held.
#include "CascadeLink.hpp"
#include "InvariantChecker.hpp"
#include "Rig.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <memory>

using namespace npusim;
using npusim::test::Rig;
using npusim::test::TestProcess;

namespace {
model::CascadeConnection conn() {
    model::CascadeConnection c;
    c.src_core = 0;
    c.dst_core = 1;
    c.src = {0, 3};
    c.dst = {0, 2};
    c.src_worker = "top";
    c.dst_worker = "bottom";
    return c;
}
std::array<std::byte, 64> word(int v) {
    std::array<std::byte, 64> w{};
    w[0] = static_cast<std::byte>(v);
    return w;
}
} // namespace

TEST_CASE("cascade words arrive in order, latency cycles after their put", "[sim][cascade]") {
    Rig rig;
    const auto c = conn();
    sim::CascadeLink link(c, 1);
    std::vector<std::uint64_t> got_at;
    std::vector<int> got;
    TestProcess putter(rig.services, "top", [&](TestProcess& p) {
        for (int k = 0; k < 3; ++k) {
            const auto w = word(k);
            const auto t = link.put(w.data(), p.clock().local_cycles(), p.clock(), p.state());
            p.clock().set_local_cycles(t + 100); // one word every 100 cycles
        }
    });
    TestProcess getter(rig.services, "bottom", [&](TestProcess& p) {
        for (int k = 0; k < 3; ++k) {
            std::array<std::byte, 64> w{};
            const auto t = link.get(w.data(), p.clock().local_cycles(), p.clock(), p.state());
            got_at.push_back(t);
            got.push_back(static_cast<int>(w[0]));
            p.clock().set_local_cycles(t + 1);
        }
    });
    putter.start();
    getter.start();
    sc_core::sc_start();
    REQUIRE_FALSE(rig.run.error());
    CHECK(got == std::vector<int>{0, 1, 2});
    CHECK(got_at == std::vector<std::uint64_t>{1, 101, 201});
    CHECK(link.words_put() == 3);
    CHECK(link.words_got() == 3);
    CHECK(link.words_held() == 0);
    CHECK(link.get_stall_cycles() == 1 + 99 + 99);
}

TEST_CASE("a full cascade FIFO holds the putter until a slot is free", "[sim][cascade]") {
    Rig rig;
    const auto c = conn();
    sim::CascadeLink link(c, 1);
    REQUIRE(link.depth() == 4);
    std::vector<std::uint64_t> put_at;
    TestProcess putter(rig.services, "top", [&](TestProcess& p) {
        for (int k = 0; k < 6; ++k) {
            const auto w = word(k);
            const auto t = link.put(w.data(), p.clock().local_cycles(), p.clock(), p.state());
            put_at.push_back(t);
            p.clock().set_local_cycles(t + 1);
        }
    });
    TestProcess getter(rig.services, "bottom", [&](TestProcess& p) {
        for (int k = 0; k < 6; ++k) {
            p.clock().advance(1000);
            std::array<std::byte, 64> w{};
            const auto t = link.get(w.data(), p.clock().local_cycles(), p.clock(), p.state());
            p.clock().set_local_cycles(t);
        }
    });
    putter.start();
    getter.start();
    sc_core::sc_start();
    REQUIRE_FALSE(rig.run.error());
    // four words go in at once; the fifth waits for the first get (cycle 1000), the sixth for the
    // second (2000).
    CHECK(put_at == std::vector<std::uint64_t>{0, 1, 2, 3, 1000, 2000});
    CHECK(link.put_stall_cycles() == (1000 - 4) + (2000 - 1001));
}

TEST_CASE("a get with nothing ever put waits, and says on which cascade", "[sim][cascade]") {
    Rig rig;
    const auto c = conn();
    sim::CascadeLink link(c, 1);
    TestProcess getter(rig.services, "bottom", [&](TestProcess& p) {
        std::array<std::byte, 64> w{};
        link.get(w.data(), p.clock().local_cycles(), p.clock(), p.state());
    });
    getter.start();
    sc_core::sc_start();
    CHECK(getter.state().status == sim::ProcessState::Status::WaitCascade);
    CHECK(getter.state().describe() ==
          "cascade_get: waits for a cascade word from worker 'top' on (0,3) (the cascade from worker 'top' on (0,3) "
          "to worker 'bottom' on (0,2))");
    std::vector<std::unique_ptr<sim::CascadeLink>> links;
    links.push_back(std::make_unique<sim::CascadeLink>(c, 1));
    model::Netlist net;
    net.design = "d";
    CHECK_NOTHROW(sim::InvariantChecker::check_cascades(net, links));
    rig.run.set_terminating(true);
    link.wake_all();
    sc_core::sc_start();
}

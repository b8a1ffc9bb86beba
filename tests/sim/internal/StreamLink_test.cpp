// StreamLink driven directly: the transfer-time rule, back-pressure (the sender waits for a
// receiver that has not posted) and the handover of a BD's data in chunks.
#include "Rig.hpp"
#include "StreamLink.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>

using namespace npusim;
using npusim::test::Collect;
using npusim::test::Rig;
using npusim::test::TestProcess;

TEST_CASE("stream_transfer_cycles and stream_link_rate", "[sim][stream][timing]") {
    CHECK(sim::stream_transfer_cycles(4096, 4.0, 12) == 1024 + 12);
    CHECK(sim::stream_transfer_cycles(5, 4.0, 0) == 2); // rounded up
    // The ceiling is std::ceil's for whole, fractional and non-integral rates.
    for (const double rate : {1.0, 2.5, 3.0, 4.0, 0.75, 10.0 / 3.0})
        for (const std::uint64_t bytes : {0ull, 1ull, 3ull, 10ull, 11ull, 4096ull, 1000003ull, (1ull << 40) + 7})
            CHECK(sim::stream_transfer_cycles(bytes, rate, 3) ==
                  static_cast<std::uint64_t>(std::ceil(static_cast<double>(bytes) / rate)) + 3);
    Collect a, b;
    a.bytes_per_cycle = 8.0;
    b.bytes_per_cycle = 2.0;
    CHECK(sim::stream_link_rate(4.0, 8.0, {&a}) == 4.0);
    CHECK(sim::stream_link_rate(4.0, 3.0, {&a}) == 3.0);
    CHECK(sim::stream_link_rate(4.0, 8.0, {&a, &b}) == 2.0);
}

TEST_CASE("a sender waits for a receiver that has not posted (back-pressure)", "[sim][stream]") {
    Rig rig;
    sim::RunStats stats;
    Collect rx;
    rx.bytes_per_cycle = 4.0;
    sim::StreamLink link(rig.timing, stats, "flow", {&rx}, 4.0, 8);
    std::vector<std::uint8_t> data(64);
    std::iota(data.begin(), data.end(), 0);
    std::uint64_t sent_at = 0, received_at = 0;
    sim::ChannelTime time;
    bool waiting_seen = false;
    sim::ProcessState::Status sender_status_seen = sim::ProcessState::Status::Running;
    TestProcess sender(rig.services, "tx", [&](TestProcess& p) {
        link.send(data.data(), data.size(), p.clock(), p.state(), time);
        sent_at = p.clock().local_cycles();
    });
    TestProcess receiver(rig.services, "rx", [&](TestProcess& p) {
        p.clock().wait_cycles(100);
        waiting_seen = link.sender_waiting();
        sender_status_seen = sender.state().status;
        link.receive(rx, 64, p.clock(), p.state());
        received_at = sim::now_cycles();
    });
    sender.start();
    receiver.start();
    sc_core::sc_start();
    CHECK(waiting_seen);
    CHECK(sender_status_seen == sim::ProcessState::Status::WaitStream);
    CHECK_FALSE(link.sender_waiting());
    CHECK(rx.got == data);
    CHECK(sent_at == 100 + 64 / 4 + 8);
    CHECK(received_at == sent_at);
    CHECK(time.active == 64 / 4 + 8);
    CHECK(time.stream_stall == 100); // the receiver posted at cycle 100
    CHECK(time.lock_stall == 0);
    CHECK(stats.bytes_moved == 64);
}

TEST_CASE("a BD larger than the receiver's is handed over in chunks, latency only on the first", "[sim][stream]") {
    Rig rig;
    sim::RunStats stats;
    Collect rx;
    rx.bytes_per_cycle = 4.0;
    sim::StreamLink link(rig.timing, stats, "flow", {&rx}, 4.0, 8);
    std::vector<std::uint8_t> data(64);
    std::iota(data.begin(), data.end(), 1);
    std::uint64_t sent_at = 0;
    std::vector<std::uint64_t> filled_at;
    sim::ChannelTime unused;
    TestProcess sender(rig.services, "tx", [&](TestProcess& p) {
        link.send(data.data(), data.size(), p.clock(), p.state(), unused);
        sent_at = p.clock().local_cycles();
    });
    TestProcess receiver(rig.services, "rx", [&](TestProcess& p) {
        for (int i = 0; i < 2; ++i) {
            link.receive(rx, 32, p.clock(), p.state());
            filled_at.push_back(sim::now_cycles());
            p.clock().wait_cycles(5); // the receiver is busy before it posts its next BD
        }
    });
    sender.start();
    receiver.start();
    sc_core::sc_start();
    CHECK(rx.got == data);
    REQUIRE(filled_at.size() == 2);
    CHECK(filled_at[0] == 32 / 4 + 8);
    CHECK(filled_at[1] == filled_at[0] + 5 + 32 / 4);
    CHECK(sent_at == filled_at[1]);
    CHECK(stats.bytes_moved == 64);
}

// A TileDmaChannel driven directly on a small hand-built netlist: an MM2S BD gathers the bytes of
// its address pattern and takes acquire + BD setup + ceil(bytes / rate) + route latency; an S2MM
// chain of two BDs writes its buffer and hands over from BD to BD inside the sender's process.
#include "Rig.hpp"
#include "SemaphoreLock.hpp"
#include "StreamLink.hpp"
#include "TileDmaChannel.hpp"
#include "TileMemory.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>

using namespace npusim;
using namespace npusim::model;
using npusim::test::Collect;
using npusim::test::Rig;
using npusim::test::TestProcess;

namespace {

BufferDescriptor bd(std::uint32_t offset, std::uint32_t length, std::vector<Dim> dims, int next) {
    BufferDescriptor b;
    b.buffer = 0;
    b.offset_bytes = offset;
    b.length_bytes = length;
    b.dims = std::move(dims);
    b.acquire_lock = 0;
    b.acquire_value = 1;
    b.release_lock = 1;
    b.release_value = 1;
    b.next = next;
    b.prov = {"f", "test"};
    return b;
}

struct DmaRig : Rig {
    std::vector<NetBuffer> buffers;
    sim::TileMemory memory{buffers};
    sim::LockTable locks;
    sim::RunStats stats;
    explicit DmaRig(int prod_init) {
        buffers.push_back({"buf", {0, 2}, 0x100, 64, {"f", "test"}, {}});
        locks.add(std::make_unique<sim::SemaphoreLock>(services, 0, "prod", "(0,2)", prod_init, 63, -1));
        locks.add(std::make_unique<sim::SemaphoreLock>(services, 1, "cons", "(0,2)", 0, 63, -1));
    }
    sim::TileDmaServices dma() { return {services, buffers, memory, locks, stats}; }
};

std::uint64_t ceil_div(std::uint64_t bytes, double rate) {
    return static_cast<std::uint64_t>(std::ceil(static_cast<double>(bytes) / rate));
}

DmaChannelProgram two_bd_s2mm() {
    DmaChannelProgram prog;
    prog.tile = {0, 2};
    prog.dir = Direction::S2MM;
    prog.bds.push_back(bd(0, 32, {}, 1));
    prog.bds.push_back(bd(32, 32, {}, -1));
    return prog;
}

// An S2MM chain of two 32-byte BDs on the rig's buffer, fed 64 bytes (first, first + 1, ...) by a
// sender process over a link with an 8-cycle route latency; sent_at: the sender's time when done.
struct TwoBdS2mm {
    static constexpr std::uint32_t latency = 8;
    DmaChannelProgram prog = two_bd_s2mm();
    sim::TileDmaChannel ch;
    sim::StreamLink link;
    std::vector<std::uint8_t> data = std::vector<std::uint8_t>(64);
    std::uint64_t sent_at = 0;
    sim::ChannelTime unused;
    TestProcess sender;
    TwoBdS2mm(DmaRig& rig, std::uint8_t first)
        : ch(rig.dma(), prog), link(rig.timing, rig.stats, "flow", {&ch}, 4.0, latency),
          sender(rig.services, "tx", [this](TestProcess& p) {
              link.send(data.data(), data.size(), p.clock(), p.state(), unused);
              sent_at = p.clock().local_cycles();
          }) {
        ch.set_link(&link);
        std::iota(data.begin(), data.end(), first);
    }
    void start() {
        ch.spawn("dma");
        sender.start();
    }
};

} // namespace

TEST_CASE("an MM2S BD moves the bytes of its pattern in acquire + setup + bytes/rate + latency", "[sim][dma]") {
    DmaRig rig(1);
    auto* mem = rig.memory.buffer(0);
    std::iota(mem, mem + 64, 0);
    DmaChannelProgram prog;
    prog.tile = {0, 2};
    prog.dir = Direction::MM2S;
    // 4 rows of 2 words, row stride 4 words: bytes 0..7, 16..23, 32..39, 48..55
    prog.bds.push_back(bd(0, 32, {{4, 4}, {2, 1}}, -1));
    sim::TileDmaChannel ch(rig.dma(), prog);
    Collect rx;
    rx.bytes_per_cycle = 4.0;
    const std::uint32_t latency = 12;
    sim::StreamLink link(rig.timing, rig.stats, "flow", {&rx}, rig.timing.tile_dma_bytes_per_cycle, latency);
    ch.set_link(&link);
    std::uint64_t filled_at = 0;
    TestProcess receiver(rig.services, "rx", [&](TestProcess& p) {
        link.receive(rx, 32, p.clock(), p.state());
        filled_at = sim::now_cycles();
    });
    ch.spawn("dma");
    receiver.start();
    sc_core::sc_start();
    REQUIRE_FALSE(rig.run.error());
    std::vector<std::uint8_t> want;
    for (int row = 0; row < 4; ++row)
        for (int b = 0; b < 8; ++b) want.push_back(static_cast<std::uint8_t>(row * 16 + b));
    CHECK(rx.got == want);
    const double rate = std::min({rig.timing.tile_dma_bytes_per_cycle, rig.timing.stream_bytes_per_cycle, 4.0});
    CHECK(filled_at == rig.timing.lock_acquire_cycles + rig.timing.bd_setup_cycles + ceil_div(32, rate) + latency);
    CHECK(ch.bytes() == 32);
    CHECK(ch.bds_done() == 1);
    CHECK(ch.time().active == ceil_div(32, rate) + latency);
    CHECK(ch.time().lock_stall == 0); // the lock was free
    CHECK(ch.time().stream_stall == 0); // the receiver had posted
    CHECK(rig.stats.bd_transfers == 1);
    CHECK(rig.stats.bytes_moved == 32);
    CHECK(rig.locks.at(0).final_value() == 0);
    CHECK(rig.locks.at(1).final_value() == 1);
    CHECK(ch.state().status == sim::ProcessState::Status::Done);
    CHECK(ch.name() == "DMA (0,2) MM2S 0");
}

TEST_CASE("an S2MM chain fills its BDs in turn, the next posted from the sender's process", "[sim][dma]") {
    DmaRig rig(2);
    TwoBdS2mm s2mm(rig, 100);
    const auto& ch = s2mm.ch;
    s2mm.start();
    sc_core::sc_start();
    REQUIRE_FALSE(rig.run.error());
    const auto* mem = rig.memory.buffer(0);
    CHECK(std::vector<std::uint8_t>(mem, mem + 64) == s2mm.data);
    const auto& t = rig.timing;
    const double rate = s2mm.link.bytes_per_cycle();
    const std::uint64_t first = t.lock_acquire_cycles + t.bd_setup_cycles + ceil_div(32, rate) + TwoBdS2mm::latency;
    // BD 0 filled: release, take the next BD's lock, set it up, then its 32 B (no route latency)
    CHECK(s2mm.sent_at ==
          first + t.lock_release_cycles + t.lock_acquire_cycles + t.bd_setup_cycles + ceil_div(32, rate));
    CHECK(ch.bds_done() == 2);
    CHECK(ch.bytes() == 64);
    CHECK(rig.locks.at(0).final_value() == 0);
    CHECK(rig.locks.at(1).final_value() == 2);
    CHECK(ch.state().status == sim::ProcessState::Status::Done);
}

TEST_CASE("a BD reaching outside its buffer is rejected when the channel is built", "[sim][dma][errors]") {
    DmaRig rig(1);
    DmaChannelProgram prog;
    prog.tile = {0, 2};
    prog.dir = Direction::MM2S;
    prog.bds.push_back(bd(48, 32, {}, -1));
    prog.bds[0].bd_id = 3;
    try {
        sim::TileDmaChannel ch(rig.dma(), prog);
        FAIL("no error");
    } catch (const SimulationError& e) {
        CHECK(e.kind() == SimulationError::Kind::Protocol);
        CHECK(std::string(e.what()) == "DMA (0,2) MM2S 0: BD 3 of 'f' test reaches outside buffer 'buf'");
    }
}

// The second BD's lock is still held when the first fills: the channel sleeps until its release
// (SemaphoreLock::watch) and is reported blocked on that lock meanwhile. The release made ahead of
// simulated time (pending, a timed wake-up) and the release made at simulated time (an immediate
// wake-up) give the same cycles and the same lock-stall accounting.
TEST_CASE("an S2MM whose next BD's lock is held sleeps until its release, blocked on that lock", "[sim][dma][lock]") {
    for (const bool ahead : {true, false}) {
        CAPTURE(ahead);
        DmaRig rig(1); // only the first BD's lock is free
        TwoBdS2mm s2mm(rig, 7);
        auto& ch = s2mm.ch;
        constexpr std::uint64_t release_at = 500;
        sim::ProcessState::Status seen = sim::ProcessState::Status::Running;
        int seen_lock = -1;
        TestProcess consumer(rig.services, "consumer", [&](TestProcess& p) {
            p.clock().wait_cycles(300);
            seen = ch.state().status;
            seen_lock = ch.state().lock;
            if (ahead)
                p.clock().advance(release_at - 300); // runs ahead: the release is pending until 500
            else
                p.clock().wait_cycles(release_at - 300);
            rig.locks.at(0).release(1, p.clock(), test::who("consumer"));
        });
        s2mm.start();
        consumer.start();
        sc_core::sc_start();
        REQUIRE_FALSE(rig.run.error());
        const auto* mem = rig.memory.buffer(0);
        CHECK(std::vector<std::uint8_t>(mem, mem + 64) == s2mm.data);
        CHECK(seen == sim::ProcessState::Status::WaitLock);
        CHECK(seen_lock == 0);
        const auto& t = rig.timing;
        const double rate = s2mm.link.bytes_per_cycle();
        const std::uint64_t first = t.lock_acquire_cycles + t.bd_setup_cycles + ceil_div(32, rate) + TwoBdS2mm::latency;
        CHECK(s2mm.sent_at == release_at + t.lock_acquire_cycles + t.bd_setup_cycles + ceil_div(32, rate));
        // it waited from the first BD's release to the lock's release (plus the first BD's own
        // acquire, which found its lock free: no stall)
        CHECK(ch.time().lock_stall == release_at - (first + t.lock_release_cycles));
        CHECK(ch.bds_done() == 2);
        CHECK(rig.locks.at(0).final_value() == 0);
        CHECK(ch.state().status == sim::ProcessState::Status::Done);
    }
}

TEST_CASE("a DMA channel is a method process and refuses a stack", "[sim][dma][errors]") {
    // SimProcess::spawn: what a process is (is_method) decides how it starts; a stack given to a
    // method, or none to a thread, is an internal invariant broken, named with the process.
    DmaRig rig(1);
    sim::TileDmaChannel ch(rig.dma(), two_bd_s2mm());
    CHECK_THROWS_WITH(ch.spawn("dma", 64 * 1024),
                      Catch::StartsWith(ch.name() + ": simulator invariant broken: spawned with a stack, but it is a "
                                                    "method process."));
}

// Runtime sequence and shim queues (docs/notes/toolchain-rules.md R1-R3, docs/resolve.md "Runtime
// sequence and shim queues"): a channel's queue holds 4 tasks waiting behind the one it runs (aie-rt
// _XAieMl_DmaGetPendingBdCount counts Task_Queue_Size plus the BD in progress, and
// _XAieMl_DmaWaitForBdTaskQueue waits for Task_Queue_Size < 4), so 5 tasks fit; the controller
// pushes at the command processor's rate (shim_task_dispatch_cycles); a push onto a full queue is
// the hardware's Task_Queue_Overflow ("Attempt to write to full task queue",
// aie_registers_aie2.json) and an error only when it really happens (the 16-drain per_tile design
// that must pass is in tests/examples/Designs3_test.cpp); --queue-wait models mlir-aie PR 3734's
// wait for a free slot; an await is an npu.sync on a channel and consumes that channel's oldest
// completion token (AIEX.td NpuSyncOp: "blocks ... until a task-complete token (TCT) is received on
// column,row,channel, direction"; AIEDMATasksToNPU DMAAwaitTaskOpPattern).
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "npusim/sim/TraceSink.hpp"
#include "support/HostBytes.hpp"
#include "support/Passthrough.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::bytes_of;
using npusim::test::values_of;

namespace {
sim::SimOptions tq_opts() {
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2);
    return o;
}

// One fill of six 64-element objects; a worker copies each (adding `cycles` of work per object);
// six drains of one object each, all wait=true in the default group: pushed before any await.
model::Netlist six_drains(std::uint64_t cycles, int drains = 6) {
    return test::passthrough({.type = tensor<std::int32_t>({64}),
                              .body =
                                  [cycles](ObjectFifoHandle i, ObjectFifoHandle o) {
                                      auto e = i.acquire(1);
                                      auto f = o.acquire(1);
                                      std::memcpy(f.data(), e.data(), 256);
                                      if (cycles) add_cycles(cycles);
                                      i.release(1);
                                      o.release(1);
                                  },
                              .seq =
                                  [drains](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                                      i.fill(a);
                                      for (int k = 0; k < drains; ++k)
                                          o.drain(b,
                                                  {.tap = TensorAccessPattern({384}, 64 * k, {64}, {1}), .wait = true});
                                  },
                              .host_elements = 384,
                              .program = "six_drains"})
        .resolve();
}

std::vector<std::int32_t> ramp(std::size_t n) {
    std::vector<std::int32_t> a(n);
    for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<std::int32_t>(i * 5 + 3);
    return a;
}
} // namespace

TEST_CASE("a full task queue is an error at the push that overflows it, only when it really happens", "[sim][queue]") {
    const auto a = ramp(384);
    // Slow producer: every drain waits ~10^5 cycles for its object, so none retires before the
    // sequence's last push. The first drain runs; drains 2-5 fill the 4-deep queue behind it; the
    // 6th push overflows it.
    const auto slow = six_drains(100000);
    try {
        sim::simulate(slow, {bytes_of(a), std::vector<std::uint8_t>(384 * 4)}, tq_opts());
        FAIL("the overflowing push was accepted");
    } catch (const SimulationError& e) {
        CHECK(e.kind() == SimulationError::Kind::Limit);
        CHECK_THAT(std::string(e.what()),
                   Catch::Contains("the task queue of shim (0,0) S2MM 0 is full (4 tasks queued behind the one in "
                                   "progress, task 1 ('out' drain)) when starting task 6 ('out' drain); the hardware "
                                   "would drop it (Task_Queue_Overflow)"));
    }
    // Five pending tasks on one channel (one running, four queued) fit, as upstream's cascade.py
    // pushes five A fills on a shim MM2S before the cores can consume the first (its CI runs it on
    // npu1 hardware: tests/run_makefile.lit).
    const auto five = six_drains(100000, 5);
    const auto r5 = sim::simulate(five, {bytes_of(a), std::vector<std::uint8_t>(384 * 4)}, tq_opts());
    auto five_out = a;
    std::fill(five_out.begin() + 320, five_out.end(), 0); // the sixth object is not drained
    CHECK(values_of<std::int32_t>(r5.host[1]) == five_out);
    // Fast producer: each small drain retires before the command processor's next push.
    const auto fast = six_drains(0);
    const auto r = sim::simulate(fast, {bytes_of(a), std::vector<std::uint8_t>(384 * 4)}, tq_opts());
    CHECK(values_of<std::int32_t>(r.host[1]) == a);
    CHECK(r.queue_waits == 0);
}

namespace {
struct Spans final : sim::TraceSink {
    std::vector<std::string> names;
    void add_track(int, const sim::TrackInfo&) override {}
    void span(int, std::string_view name, std::uint64_t, std::uint64_t) override { names.emplace_back(name); }
    void counter(int, std::uint64_t, std::int64_t) override {}
    void finish(std::uint64_t) override {}
};
} // namespace

TEST_CASE(
    "queue-wait mode (--queue-wait): the controller waits for a free slot (mlir-aie PR 3734) and the design passes",
    "[sim][queue]") {
    const auto a = ramp(384);
    const auto slow = six_drains(100000);
    auto o = tq_opts();
    o.queue_wait = true;
    Spans spans;
    o.trace = &spans;
    const auto r = sim::simulate(slow, {bytes_of(a), std::vector<std::uint8_t>(384 * 4)}, o);
    CHECK(values_of<std::int32_t>(r.host[1]) == a);
    CHECK(r.queue_waits == 1); // the 6th drain waits for the channel to take a queued task
    CHECK(std::count(spans.names.begin(), spans.names.end(), "wait queue (0,0) S2MM 0") == 1);
    CHECK(r.cycles > 5 * 100000);
}

TEST_CASE("an await consumes the channel's oldest completion token, not the named task's (managed=false)",
          "[sim][queue]") {
    // Two unmanaged drains A then B on one channel; the sequence awaits B first. The first sync
    // returns when A's token arrives (the channel completes in queue order); the second at B's.
    const auto net =
        test::passthrough(
            {.type = tensor<std::int32_t>({64}),
             .body =
                 [](ObjectFifoHandle i, ObjectFifoHandle o) {
                     auto e = i.acquire(1);
                     auto f = o.acquire(1);
                     std::memcpy(f.data(), e.data(), 256);
                     add_cycles(20000);
                     i.release(1);
                     o.release(1);
                 },
             .seq =
                 [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                     i.fill(a, {.wait = true, .managed = false}).await_();
                     auto A =
                         o.drain(b, {.tap = TensorAccessPattern({128}, 0, {64}, {1}), .wait = true, .managed = false});
                     auto B =
                         o.drain(b, {.tap = TensorAccessPattern({128}, 64, {64}, {1}), .wait = true, .managed = false});
                     B.await_();
                     A.await_();
                     A.free();
                     B.free();
                 },
             .host_elements = 128,
             .program = "out_of_order"})
            .resolve();
    struct Timed final : sim::TraceSink {
        std::vector<std::pair<std::string, std::uint64_t>> ends;
        void add_track(int, const sim::TrackInfo&) override {}
        void span(int, std::string_view name, std::uint64_t, std::uint64_t end) override {
            ends.emplace_back(name, end);
        }
        void counter(int, std::uint64_t, std::int64_t) override {}
        void finish(std::uint64_t) override {}
    } timed;
    auto o = tq_opts();
    o.trace = &timed;
    const auto a = ramp(128);
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(512)}, o);
    CHECK(values_of<std::int32_t>(r.host[1]) == a);
    // The shim channel's spans name each task ('out' drain) with its end; the controller's
    // await spans end when it resumes.
    std::vector<std::uint64_t> drains, awaits;
    for (const auto& [name, end] : timed.ends) {
        if (name == "'out' drain") drains.push_back(end);
        if (name == "await 'out' drain") awaits.push_back(end);
    }
    REQUIRE(drains.size() == 2);
    REQUIRE(awaits.size() == 2);
    CHECK(drains[0] + 20000 < drains[1]);
    CHECK(awaits[0] == drains[0]); // "await B" returned at A's completion
    CHECK(awaits[1] == drains[1]); // "await A" took the next token, B's
}

TEST_CASE("a stride-0 repeat of 100 over a strided pattern is lowered as aie-decompose-large-dma-bd does: two tasks "
          "(64 + 36 repeats), the token on the last (DmaDecomposition.cpp decomposeRecursive)",
          "[sim][queue][shim]") {
    ObjectFifo in(tensor<std::int32_t>({8}), "in"), out(tensor<std::int32_t>({8}), "out");
    Worker w(
        [](ObjectFifoHandle i, ObjectFifoHandle o) {
            auto e = i.acquire(1);
            auto f = o.acquire(1);
            std::memcpy(f.data(), e.data(), 32);
            i.release(1);
            o.release(1);
        },
        fn_args(in.cons(), out.prod()), {.name = "w"});
    // The first two columns of a 4 x 4 tensor, 100 times over.
    const TensorAccessPattern tap({4, 4}, 0, {100, 1, 4, 2}, {0, 0, 4, 1});
    Runtime rt(
        [tap](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a, {.tap = tap, .wait = true});
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({4, 4}), tensor<std::int32_t>({800}), in.prod(), out.cons()));
    const auto net = Program("npu1_1col", rt, {w}, "repeat100").resolve();
    REQUIRE(net.tasks.size() == 3);
    CHECK(net.tasks[0].dims.front().size == 64);
    CHECK(net.tasks[1].dims.front().size == 36);
    CHECK_FALSE(net.tasks[0].issue_token);
    CHECK(net.tasks[1].issue_token);
    CHECK(net.tasks[0].bd_id != net.tasks[1].bd_id);
    CHECK_THAT(net.dump(), Catch::Contains("queue repeat 63") && Catch::Contains("queue repeat 35"));
    std::vector<std::int32_t> a(16);
    for (std::size_t i = 0; i < 16; ++i) a[i] = static_cast<std::int32_t>(i * i + 1);
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(800 * 4)}, tq_opts());
    const auto c = values_of<std::int32_t>(r.host[1]);
    for (std::size_t k = 0; k < 800; ++k) REQUIRE(c[k] == a[(k % 8) / 2 * 4 + k % 2]);
}

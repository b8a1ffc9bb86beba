// The structured deadlock diagnosis: the wait-for graph, its cycles, the causal chain
// from the runtime sequence to the root cause, the case's name and every process's progress, on
// small designs built here. The catalog of hanging designs (examples/src/Deadlock*.cpp) is
// checked case by case in tests/examples/DeadlockCatalog_test.cpp.
#include "npusim/iron.hpp"
#include "npusim/sim/Diagnosis.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::passthrough;

namespace {
sim::SimOptions opts() {
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2);
    return o;
}
std::vector<std::vector<std::uint8_t>> zeros(const model::Netlist& n) {
    std::vector<std::vector<std::uint8_t>> h;
    for (const auto& t : n.host_tensors) h.emplace_back(t.bytes, 0);
    return h;
}
// Simulate, expect a diagnosed failure, return its diagnosis.
sim::Diagnosis diagnose(const model::Netlist& n, sim::SimOptions o = opts()) {
    try {
        sim::simulate(n, zeros(n), o);
    } catch (const SimulationError& e) {
        const auto* d = sim::diagnosis_of(e);
        REQUIRE(d);
        CHECK(e.what() == d->text);
        return *d;
    }
    FAIL("simulation did not fail");
    return {};
}
void copy_body(ObjectFifoHandle i, ObjectFifoHandle o) {
    auto e = i.acquire(1);
    auto f = o.acquire(1);
    std::copy(e.as<std::int32_t>().begin(), e.as<std::int32_t>().end(), f.as<std::int32_t>().begin());
    i.release(1);
    o.release(1);
}
std::size_t node(const sim::Diagnosis& d, const std::string& label) {
    for (std::size_t i = 0; i < d.nodes.size(); ++i)
        if (d.nodes[i].label == label) return i;
    FAIL("no node " << label);
    return 0;
}
bool has_edge(const sim::Diagnosis& d, const std::string& from, const std::string& to) {
    for (const auto& e : d.edges)
        if (d.nodes[e.from].label == from && d.nodes[e.to].label == to) return true;
    return false;
}
} // namespace

TEST_CASE("diagnosis: a fill smaller than what the worker consumes is starvation, with a causal chain from the "
          "sequence's await down to the idle shim channel",
          "[sim][deadlock][diagnosis]") {
    // 4 objects of 16 words are filled, the drain wants 8: the worker copies 4, then waits for a 5th.
    const auto net = passthrough({.type = tensor<std::int32_t>({16}),
                                  .body = copy_body,
                                  .host_elements = 64,
                                  .out_host_elements = 128,
                                  .program = "starved"})
                         .resolve();
    const auto d = diagnose(net);
    CHECK(d.trigger == sim::Diagnosis::Trigger::Deadlock);
    CHECK(d.case_id == "fill_less_than_consumed");
    REQUIRE(d.chain.size() >= 4);
    INFO(d.text);
    CHECK_THAT(d.chain.front(),
               Catch::StartsWith("the runtime sequence awaits the drain of 'out': task 1, 512 bytes on "
                                 "shim DMA (0,0) S2MM 0 (got 64 of 128 words, 256 of 512 B)"));
    CHECK_THAT(d.text, Catch::Contains("worker 'w' on (0,2) waits in acquire(1) of fifo 'in' consumer 0 (element 0): "
                                       "lock in_cons_cons_lock_0 on (0,2) is 0, needs >= 1; released by DMA (0,2) "
                                       "S2MM 0; so far it acquired 4 and released 4 object(s) of it, and holds 0"));
    CHECK(d.chain.back() == "shim DMA (0,0) MM2S 0 has no task queued: the sequence's fills on it moved 256 B (4 "
                            "objects of 64 B), worker 'w' consumed 4 objects and wants the 5th");
    // Every step is a process on the chain; the graph links them through the resources they wait on.
    CHECK(d.chain_nodes.size() == d.chain.size());
    CHECK(d.nodes[d.chain_nodes.back()].state == sim::ProcessProgress::State::Idle);
    CHECK(has_edge(d, "worker 'w' on (0,2)", "lock in_cons_cons_lock_0 on (0,2)"));
    CHECK(has_edge(d, "lock in_cons_cons_lock_0 on (0,2)", "DMA (0,2) S2MM 0"));
    CHECK(d.cycles.empty());
    // Progress of every process, with the worker's fifo ends.
    bool seen = false;
    for (const auto& p : d.progress)
        if (p.process == "worker 'w' on (0,2)") {
            seen = true;
            CHECK(p.state == sim::ProcessProgress::State::Blocked);
            CHECK(p.steps == 4);
            REQUIRE(p.fifo_ends.size() == 2);
            CHECK(p.fifo_ends[0].acquired == 4);
            CHECK(p.last_action == "released 1 of fifo 'out' producer");
        }
    CHECK(seen);
    CHECK_THAT(d.text, Catch::Contains("case: starvation: the sequence fills less than the design consumes "
                                       "[fill_less_than_consumed]"));
}

TEST_CASE("diagnosis: two workers that acquire two fifos in opposite orders form a lock cycle", "[sim][deadlock]") {
    // w1 sends a request on A and waits for the reply on B before releasing A; w2 takes B's producer end first,
    // then waits on A: each holds what the other needs.
    ObjectFifo a(tensor<std::int32_t>({16}), "A", 1), b(tensor<std::int32_t>({16}), "B", 1);
    ObjectFifo in(tensor<std::int32_t>({16}), "in"), out(tensor<std::int32_t>({16}), "out");
    Worker w1(
        [](ObjectFifoHandle i, ObjectFifoHandle req, ObjectFifoHandle rep, ObjectFifoHandle o) {
            auto x = i.acquire(1);
            auto r = req.acquire(1);
            auto y = rep.acquire(1);
            auto z = o.acquire(1);
            req.release(1);
            rep.release(1);
            i.release(1);
            o.release(1);
        },
        fn_args(in.cons(), a.prod(), b.cons(), out.prod()), {.tile = Tile(0, 2), .name = "w1"});
    Worker w2(
        [](ObjectFifoHandle rep, ObjectFifoHandle req) {
            auto r = rep.acquire(1);
            auto q = req.acquire(1);
            req.release(1);
            rep.release(1);
        },
        fn_args(b.prod(), a.cons()), {.tile = Tile(0, 3), .name = "w2"});
    Runtime rt(
        [](RuntimeData x, RuntimeData y, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(x);
            o.drain(y, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({16}), tensor<std::int32_t>({16}), in.prod(), out.cons()));
    const auto net = Program("npu1_1col", rt, {w1, w2}, "opposite").resolve();
    const auto d = diagnose(net);
    INFO(d.text);
    CHECK(d.case_id == "lock_cycle");
    REQUIRE(d.cycles.size() == 1);
    const auto& c = d.cycles.front();
    CHECK(c.size() == 4); // w1 -> lock -> w2 -> lock
    CHECK(d.nodes[c[0]].label == "worker 'w1' on (0,2)");
    CHECK(d.nodes[c[2]].label == "worker 'w2' on (0,3)");
    CHECK(d.nodes[node(d, "worker 'w1' on (0,2)")].in_cycle);
    CHECK_THAT(d.chain.back(), Catch::EndsWith("the chain closes a cycle"));
    CHECK_THAT(d.case_explanation, Catch::Contains("fifos 'A', 'B'"));
    // The DOT graph highlights the cycle.
    const auto dot = d.to_dot();
    CHECK_THAT(dot, Catch::StartsWith("digraph G {"));
    CHECK_THAT(dot, Catch::Contains("penwidth=2.5"));
    CHECK_THAT(dot, Catch::Contains("worker 'w1' on (0,2)\\n[blocked]"));
}

TEST_CASE("diagnosis at the cycle limit: a run still moving host data is progressing (too slow), with every "
          "process's progress",
          "[sim][limit][diagnosis]") {
    const auto net =
        passthrough({.type = tensor<std::int32_t>({64}), .body = copy_body, .host_elements = 65536, .program = "long"})
            .resolve();
    auto o = opts();
    o.max_cycles = 10000;
    const auto d = diagnose(net, o);
    CHECK(d.trigger == sim::Diagnosis::Trigger::Limit);
    CHECK(d.case_id == "progressing");
    CHECK_THAT(d.text, Catch::Contains("case: still making progress at the limit [progressing]"));
    CHECK_THAT(d.text, Catch::Contains("it is not stuck, only longer than the limit. Raise --max-cycles"));
    CHECK_THAT(d.text, Catch::Contains("progress:\n  process"));
    bool worker = false;
    for (const auto& p : d.progress)
        if (p.process == "worker 'w' on (0,2)") {
            worker = true;
            CHECK(p.steps > 0);
            CHECK(p.last_cycle > 9000); // acted in the last tenth of the run
        }
    CHECK(worker);
}

TEST_CASE("diagnosis keeps the parked-body warning in the report", "[sim][deadlock][diagnosis]") {
    ObjectFifo in(tensor<std::int32_t>({16}), "in"), out(tensor<std::int32_t>({16}), "out");
    Worker idle([](Buffer) {}, fn_args(Buffer(tensor<std::int32_t>({4}), "scratch")), {.name = "idler"});
    Worker w(copy_body, fn_args(in.cons(), out.prod()), {.name = "w"});
    Runtime rt([](RuntimeData, RuntimeData b, ObjectFifoHandle, ObjectFifoHandle o) { o.drain(b, {.wait = true}); },
               fn_args(tensor<std::int32_t>({16}), tensor<std::int32_t>({16}), in.prod(), out.cons()));
    const auto net = Program("npu1_1col", rt, {idle, w}, "parked").resolve();
    const auto d = diagnose(net);
    REQUIRE(d.warnings.size() == 1);
    CHECK_THAT(d.warnings[0], Catch::Contains("worker 'idler': its body acquires and releases nothing"));
    CHECK_THAT(d.text, Catch::Contains("warning: worker 'idler': its body acquires and releases nothing"));
}

TEST_CASE("diagnosis: drains pushed before the fill they need fill the task queue (--queue-wait)",
          "[sim][deadlock][diagnosis]") {
    // Six one-object drains, then the fill: with --queue-wait the sixth push waits for a slot that
    // the four drains queued behind the running one never free, as they wait for data the fill
    // would bring.
    const auto net =
        passthrough({.type = tensor<std::int32_t>({16}),
                     .body = copy_body,
                     .seq =
                         [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                             for (std::int64_t k = 0; k < 6; ++k)
                                 o.drain(b, {.tap = TensorAccessPattern({96}, k * 16, {1, 1, 1, 16}, {0, 0, 0, 1}),
                                             .wait = true});
                             i.fill(a);
                         },
                     .host_elements = 96,
                     .program = "queue"})
            .resolve();
    auto o = opts();
    o.queue_wait = true;
    const auto d = diagnose(net, o);
    INFO(d.text);
    CHECK(d.case_id == "full_task_queue");
    REQUIRE_FALSE(d.chain.empty());
    CHECK_THAT(d.chain.front(), Catch::Contains("waits for a free slot in the 4-deep task queue of shim DMA (0,0) S2MM "
                                                "0, which holds task 1, task 2, task 3, task 4 behind task 0, running"));
    CHECK(d.nodes[d.chain_nodes.back()].label == "shim DMA (0,0) MM2S 0");
    CHECK_THAT(d.chain.back(), Catch::Contains("the sequence starts its next task, task 6 ('in' fill), only at "
                                               "instruction"));
    // Without --queue-wait the sixth push is an error at once (the hardware would drop it).
    try {
        sim::simulate(net, zeros(net), opts());
        FAIL("no error");
    } catch (const SimulationError& e) {
        CHECK(e.kind() == SimulationError::Kind::Limit);
    }
}

TEST_CASE("a wall-clock limit stops a long run between slices with the progress report", "[sim][limit][timeout]") {
    const auto net =
        passthrough(
            {.type = tensor<std::int32_t>({1024}), .body = copy_body, .host_elements = 1 << 22, .program = "long_wall"})
            .resolve();
    auto o = opts();
    o.wall_timeout_seconds = 0.001;
    const auto d = diagnose(net, o);
    CHECK(d.trigger == sim::Diagnosis::Trigger::Limit);
    CHECK_THAT(d.text, Catch::StartsWith("design 'long_wall' on npu1_1col: reached the wall-clock limit of 0.001 s at "
                                         "cycle "));
    CHECK_THAT(d.text, Catch::Contains("(--timeout)\n"));
    CHECK(d.case_id == "progressing"); // a slow run, not a livelock
    CHECK_THAT(d.text, Catch::Contains("Raise --timeout (0: none)"));
}

TEST_CASE("diagnosis at a limit: workers passing an object round forever while no host data moves is a livelock",
          "[sim][limit][diagnosis]") {
    // w1 and w2 hand one object back and forth through fifos a and b without end; the sequence
    // waits for 'out', which nobody produces.
    ObjectFifo a(tensor<std::int32_t>({16}), "a"), b(tensor<std::int32_t>({16}), "b");
    ObjectFifo in(tensor<std::int32_t>({16}), "in"), out(tensor<std::int32_t>({16}), "out");
    Worker w1(
        [](ObjectFifoHandle to, ObjectFifoHandle from) {
            auto x = to.acquire(1);
            to.release(1);
            auto y = from.acquire(1);
            from.release(1);
        },
        fn_args(a.prod(), b.cons()), {.name = "w1"});
    Worker w2(
        [](ObjectFifoHandle from, ObjectFifoHandle to) {
            auto x = from.acquire(1);
            from.release(1);
            auto y = to.acquire(1);
            to.release(1);
        },
        fn_args(a.cons(), b.prod()), {.name = "w2"});
    Worker w3(copy_body, fn_args(in.cons(), out.prod()), {.name = "w3"});
    Runtime rt([](RuntimeData, RuntimeData o, ObjectFifoHandle, ObjectFifoHandle d) { d.drain(o, {.wait = true}); },
               fn_args(tensor<std::int32_t>({16}), tensor<std::int32_t>({16}), in.prod(), out.cons()));
    const auto net = Program("npu1_1col", rt, {w1, w2, w3}, "round").resolve();
    auto o = opts();
    o.max_cycles = 100000;
    const auto d = diagnose(net, o);
    INFO(d.text);
    CHECK(d.trigger == sim::Diagnosis::Trigger::Limit);
    CHECK(d.case_id == "livelock");
    CHECK_THAT(d.text, Catch::Contains("case: acting without progress at the limit [livelock]"));
    CHECK_THAT(d.text, Catch::Contains("but no data moved to or from host memory and no sequence instruction ran "
                                       "then: they repeat without progress (a livelock)"));
    CHECK_THAT(d.text, Catch::Contains("worker 'w1' on "));
}

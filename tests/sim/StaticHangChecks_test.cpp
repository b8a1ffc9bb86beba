// Static hang checks decided from the design before simulating: producer and consumer
// holding more than a shared pool together, and split/join links whose sides move different
// numbers of objects. Each warning is confirmed by simulating the design (it does deadlock, and
// the diagnosis names the same case) and each check has a control that runs without a warning.
#include "npusim/iron.hpp"
#include "npusim/sim/Diagnosis.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>
#include <cstring>

using namespace npusim;
using namespace npusim::iron;

namespace {
std::vector<std::vector<std::uint8_t>> hang_zeros(const model::Netlist& n) {
    std::vector<std::vector<std::uint8_t>> h;
    for (const auto& t : n.host_tensors) h.emplace_back(t.bytes, 0);
    return h;
}
// The diagnosis of a run that must deadlock.
sim::Diagnosis deadlock_of(const model::Netlist& n) {
    try {
        sim::simulate(n, hang_zeros(n), {});
    } catch (const SimulationError& e) {
        REQUIRE(e.kind() == SimulationError::Kind::Deadlock);
        REQUIRE(sim::diagnosis_of(e));
        return *sim::diagnosis_of(e);
    }
    FAIL("the design did not deadlock");
    return {};
}

// A producer on (0,2) acquiring `put` objects at once and a consumer on (0,3) (shared memory, one
// pool of `depth` buffers) reading a sliding window: acquire(window), release(1).
Program window_design(int depth, int put, int window) {
    ObjectFifo mid(tensor<std::int32_t>({8}), "mid", depth), out(tensor<std::int32_t>({8}), "out");
    Worker producer(
        [put](ObjectFifoHandle m) {
            auto e = m.acquire(put);
            for (int k = 0; k < put; ++k) e[static_cast<std::size_t>(k)].as<std::int32_t>()[0] = k;
            m.release(put);
        },
        fn_args(mid.prod()), {.tile = Tile(0, 2), .name = "producer"});
    Worker consumer(
        [window](ObjectFifoHandle m, ObjectFifoHandle o) {
            auto e = m.acquire(window);
            auto f = o.acquire(1);
            std::memcpy(f.data(), e[0].data(), 32);
            m.release(1);
            o.release(1);
        },
        fn_args(mid.cons(), out.prod()), {.tile = Tile(0, 3), .name = "consumer"});
    Runtime rt([](RuntimeData b, ObjectFifoHandle o) { o.drain(b, {.wait = true}); },
               fn_args(tensor<std::int32_t>({32}), out.cons()));
    return Program("npu1_1col", rt, {producer, consumer}, "window");
}

// A split of `in` (2 x 8 words) into two fifos through the mem tile, each read by a worker; worker
// 'a' returns after `a_iters` objects when finite (while_true=false, a loop in its body).
Program split_design(std::optional<int> a_iters, int fill_objects) {
    ObjectFifo in(tensor<std::int32_t>({16}), "in");
    auto parts = in.cons().split(
        {0, 8}, {.obj_types = {tensor<std::int32_t>({8}), tensor<std::int32_t>({8})}, .names = {"in_a", "in_b"}});
    ObjectFifo out_a(tensor<std::int32_t>({8}), "out_a"), out_b(tensor<std::int32_t>({8}), "out_b");
    auto copy = [](int n) {
        return [n](ObjectFifoHandle i, ObjectFifoHandle o) {
            for (int k = 0; k < n; ++k) {
                auto x = i.acquire(1);
                auto y = o.acquire(1);
                std::memcpy(y.data(), x.data(), 32);
                i.release(1);
                o.release(1);
            }
        };
    };
    Worker a(copy(a_iters.value_or(1)), fn_args(parts[0].cons(), out_a.prod()),
             {.while_true = !a_iters.has_value(), .name = "a"});
    Worker b(copy(1), fn_args(parts[1].cons(), out_b.prod()), {.name = "b"});
    const int n = fill_objects;
    Runtime rt(
        [](RuntimeData x, RuntimeData ya, RuntimeData yb, ObjectFifoHandle i, ObjectFifoHandle oa,
           ObjectFifoHandle ob) {
            i.fill(x);
            oa.drain(ya, {.wait = true});
            ob.drain(yb, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({16 * n}), tensor<std::int32_t>({8 * n}), tensor<std::int32_t>({8 * n}), in.prod(),
                out_a.cons(), out_b.cons()));
    return Program("npu1_1col", rt, {a, b}, "split_rates");
}
} // namespace

TEST_CASE("static check: producer and consumer of a shared pool holding more than its depth together",
          "[sim][static][deadlock]") {
    // depth 2: the producer wants 2 free buffers while the consumer keeps 1 of its window of 2.
    const auto p = window_design(2, 2, 2);
    const auto n = p.resolve();
    REQUIRE(n.warnings.size() == 1);
    CHECK(n.warnings[0] ==
          "fifo 'mid': worker 'producer' acquires 2 objects of its producer end at once while worker "
          "'consumer' keeps 1 of the 2 shared buffers held from one iteration to the next (2 + 1 > 2): "
          "producer and consumer together hold more than the depth, the design will deadlock");
    ResolveOptions werror;
    werror.werror = true;
    CHECK_THROWS_WITH(p.resolve(werror), Catch::StartsWith("warning treated as an error (--werror): fifo 'mid'"));
    const auto d = deadlock_of(n);
    CHECK(d.case_id == "held_exceeds_depth");
    CHECK_THAT(d.case_explanation, Catch::Contains("On fifo 'mid'"));
    // Controls: one object at a time from the producer fits (1 + 1 <= 2), and so does a depth of 3.
    CHECK(window_design(2, 1, 2).resolve().warnings.empty());
    CHECK(window_design(3, 2, 2).resolve().warnings.empty());
    CHECK_NOTHROW(sim::simulate(window_design(2, 1, 2).resolve(), hang_zeros(n), {}));
}

TEST_CASE("static check: a split whose outputs' workers stop after different numbers of objects",
          "[sim][static][deadlock]") {
    // 'a' returns after 1 object, the sequence sends 2 passes: the split's second pass waits on 'a'.
    const auto n = split_design(1, 2).resolve();
    REQUIRE(n.warnings.size() == 1);
    CHECK(n.warnings[0] == "split of fifo 'in': worker 'a' (while_true=false) consumes 1 object(s) of 'in_a' in its "
                           "whole run, but the split needs one from every output per pass and the runtime sequence "
                           "moves 2 object(s) of 'in': after 1 pass(es) the link stops and the design will deadlock");
    const auto d = deadlock_of(n);
    CHECK(d.case_id == "finished_worker");
    // Controls: 'a' runs 2 objects for the 2 passes; or the sequence sends just 1 pass.
    CHECK(split_design(2, 2).resolve().warnings.empty());
    CHECK(split_design(1, 1).resolve().warnings.empty());
    CHECK(split_design(std::nullopt, 2).resolve().warnings.empty());
}

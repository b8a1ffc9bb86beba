// The catalog of hanging designs (deadlock_*, docs/deadlocks.md), one test case per design: it
// throws SimulationError of kind Deadlock on npu1_1col and on every other device it is tested on,
// its message lists the blocked (or finished, or idle) processes with the fifos they wait on, and
// its diagnosis names the right case, the causal chain's root cause or the cycle, and the
// resolve-time warning where the hang can be decided before simulating.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/sim/Diagnosis.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

namespace {

struct Expected {
    const char* design;
    const char* case_id;
    /// Substrings of the message's process lists (blocked:, idle:, finished:): the workers and
    /// DMA channels involved, with the fifos they wait on.
    std::vector<std::string> processes;
    /// Substrings of the causal chain's last step (its root cause, or the step that closes the cycle).
    std::vector<std::string> root;
    /// Labels of processes on the cycle (empty: the chain ends at a root cause, no cycle needed).
    std::vector<std::string> cycle;
    /// A substring of the resolve-time warning ("": none expected).
    std::string warning;
};

const std::vector<Expected>& catalog() {
    static const std::vector<Expected> c = {
        {"deadlock_shared_pool_overacquire",
         "pool_overacquire",
         {"worker 'producer' on (0,2): acquire(1) on fifo 'mid' producer",
          "worker 'consumer' on (0,3): acquire(2) on fifo 'mid' consumer"},
         {"worker 'consumer' on (0,3) waits in acquire(2) of fifo 'mid' consumer",
          "it asks more than the 1 buffer(s) of its pool, so it can never complete"},
         {},
         "fifo 'mid': worker 'consumer' acquires 2 objects of its consumer end but the shared pool holds 1"},
        {"deadlock_held_exceeds_depth",
         "held_exceeds_depth",
         {"worker 'producer' on (0,2): acquire(2) on fifo 'mid' producer",
          "worker 'window' on (0,3): acquire(2) on fifo 'mid' consumer",
          // A sender names the destination of its route it waits for: tile, port, fifo and element.
          "shim DMA (0,0) MM2S 0: task 0 ('in' fill)\n      waits for its stream peer DMA (0,2) S2MM 0, at BD 2 "
          "('in' consumer S2MM, element 2), to take data\n"},
         {"worker 'producer' on (0,2) waits in acquire(2) of fifo 'mid' producer", "the chain closes a cycle"},
         {"worker 'producer' on (0,2)", "worker 'window' on (0,3)"},
         "fifo 'mid': worker 'producer' acquires 2 objects of its producer end at once while worker 'window' keeps "
         "1 of the 2 shared buffers"},
        {"deadlock_opposite_order",
         "lock_cycle",
         {"worker 'client' on (0,2): acquire(1) on fifo 'reply' consumer",
          "worker 'server' on (0,3): acquire(1) on fifo 'request' consumer"},
         {"worker 'server' on (0,3) waits in acquire(1) of fifo 'request' consumer",
          "meanwhile it holds 1 of fifo 'reply' producer", "the chain closes a cycle"},
         {"worker 'client' on (0,2)", "worker 'server' on (0,3)"},
         ""},
        {"deadlock_opposite_order_dma",
         "lock_cycle",
         {"worker 'client' on (0,2): acquire(1) on fifo 'reply' consumer 0",
          "worker 'server' on (0,5): acquire(1) on fifo 'request' consumer 0"},
         {"DMA (0,2) MM2S 1 waits to run BD", "('request' producer MM2S", "released by worker 'client'"},
         {"worker 'client' on (0,2)", "worker 'server' on (0,5)", "DMA (0,2) MM2S 1", "DMA (0,5) S2MM 0",
          "DMA (0,5) MM2S 0", "DMA (0,2) S2MM 1"},
         ""},
        {"deadlock_ring3",
         "lock_cycle",
         {"worker 'ring0' on (0,2): acquire(1) on fifo 'ring20' consumer",
          "worker 'ring1' on (0,3): acquire(1) on fifo 'ring01' consumer",
          "worker 'ring2' on (0,4): acquire(1) on fifo 'ring12' consumer"},
         {"released by worker 'ring2'", "the chain closes a cycle"},
         {"worker 'ring0' on (0,2)", "worker 'ring1' on (0,3)", "worker 'ring2' on (0,4)"},
         ""},
        {"deadlock_broadcast_skip",
         "lock_cycle",
         {"worker 'pair' on (0,2): acquire(2) on fifo 'in' consumer 0",
          "worker 'skip' on (0,4): acquire(1) on fifo 'mid' consumer 0", "shim DMA (0,0) MM2S 0: task 0 ('in' fill)"},
         {"DMA (0,4) S2MM 0 waits to run BD", "released by worker 'skip'"},
         {"worker 'pair' on (0,2)", "worker 'skip' on (0,4)", "shim DMA (0,0) MM2S 0", "DMA (0,4) S2MM 0"},
         ""},
        {"deadlock_join_early",
         "fill_after_await",
         {"worker 'left' on (0,2): acquire(1) on fifo 'in0' consumer 0",
          "worker 'right' on (0,3): acquire(1) on fifo 'in1' consumer 0", "shim DMA (0,0) MM2S 1: no task queued",
          "shim DMA (0,0) S2MM 0: task 1 ('out' drain)"},
         {"shim DMA (0,0) MM2S 1 has no task queued", "worker 'right' consumed 0 objects and wants the 1st",
          "task 2 ('in1' fill), only at instruction 6, after the wait at instruction 3"},
         {},
         ""},
        {"deadlock_memtile_second_pass",
         "finished_worker",
         {"worker 'a' on (0,2): finished after 1 iteration", "worker 'b' on (0,3): acquire(1) on fifo 'in_b' consumer",
          "shim DMA (0,0) S2MM 0: task 1 ('out_a' drain)"},
         {"worker 'a' on (0,2) has finished: its body (while_true=false) returned after 1 iteration",
          "1 object(s) of fifo 'in_a' still wait for it"},
         {},
         "split of fifo 'in': worker 'a' (while_true=false) consumes 1 object(s) of 'in_a' in its whole run"},
        {"deadlock_drain_more",
         "drain_more_than_produced",
         {"worker 'once' on (0,2): finished after 1 iteration", "shim DMA (0,0) S2MM 0: task 1 ('out' drain)"},
         {"worker 'once' on (0,2) has finished", "having produced 2 objects of fifo 'out' producer"},
         {},
         ""},
        {"deadlock_fill_less",
         "fill_less_than_consumed",
         {"worker 'pairs' on (0,2): acquire(2) on fifo 'in' consumer 0, element 2",
          "shim DMA (0,0) MM2S 0: no task queued"},
         {"shim DMA (0,0) MM2S 0 has no task queued: the sequence's fills on it moved 192 B (3 objects of 64 B), "
          "worker 'pairs' consumed 2 objects and wants the 4th"},
         {},
         ""},
        {"deadlock_partial_object",
         "partial_object",
         {"worker 'copy' on (0,2): acquire(1) on fifo 'in' consumer 0, element 1",
          "shim DMA (0,0) MM2S 0: no task queued"},
         {"shim DMA (0,0) MM2S 0 has no task queued: the sequence's fills on it moved 96 B (1 object of 64 B)"},
         {},
         "fill of fifo 'in' moves 96 B, not a whole number of its 64 B objects"},
        {"deadlock_finished_worker",
         "finished_worker",
         {"worker 'oneshot' on (0,2): finished after 1 iteration", "shim DMA (0,0) MM2S 0: task 0 ('in' fill)"},
         {"worker 'oneshot' on (0,2) has finished", "2 object(s) of fifo 'in' still wait for it"},
         {},
         ""},
        {"deadlock_cascade_never_put",
         "cascade_never_put",
         {"worker 'bottom' on (0,2): cascade_get: waits for a cascade word from worker 'top' on (0,3)",
          "worker 'top' on (0,3): finished after 1 iteration"},
         {"worker 'top' on (0,3) has finished"},
         {},
         ""},
    };
    return c;
}

const Expected& expected(const std::string& design) {
    for (const auto& e : catalog())
        if (design == e.design) return e;
    FAIL("no catalog entry for " << design);
    throw std::logic_error("unreachable");
}

struct Hang {
    std::string message; ///< SimulationError::what()
    sim::Diagnosis diagnosis;
};

Hang run_expecting_deadlock(const std::string& design, const std::string& device,
                            std::vector<std::string>* warnings = nullptr) {
    INFO(design << " on " << device);
    RunOptions ro;
    ro.sim.timing = model::TimingParams::for_arch(model::device_by_name(device).arch);
    const auto& spec = design_by_name(design);
    if (warnings) {
        const auto inst = spec.build(model::device_by_name(device), spec.resolve_params({}), BuildOptions(1));
        *warnings = inst.program.resolve(resolve_options(spec, ro)).warnings;
    }
    try {
        run_design(spec, device, {}, ro);
    } catch (const SimulationError& e) {
        INFO(e.what());
        REQUIRE(e.kind() == SimulationError::Kind::Deadlock);
        REQUIRE(sim::diagnosis_of(e));
        return {e.what(), *sim::diagnosis_of(e)};
    }
    FAIL(design << " on " << device << " did not deadlock");
    return {};
}

/// The message's lists of processes: from "blocked:" up to "progress:" (blocked, idle, finished).
std::string process_lists(const std::string& message) {
    const auto from = message.find("\nblocked:\n");
    const auto to = message.find("\nprogress:", from == std::string::npos ? 0 : from);
    if (from == std::string::npos) return {};
    return message.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

/// Everything the catalog table says about `design`, on npu1_1col; then the same kind and case on
/// the whole NPU1 array and on NPU2 (one column and the whole array).
void check_catalog_design(const std::string& design) {
    const auto& e = expected(design);
    const auto& spec = design_by_name(design);
    CHECK_THAT(spec.description, Catch::StartsWith("hangs: "));
    CHECK(spec.description.find('\n') == std::string::npos);

    std::vector<std::string> warnings;
    const auto hang = run_expecting_deadlock(design, "npu1_1col", &warnings);
    const auto& d = hang.diagnosis;
    INFO(hang.message);
    CHECK_THAT(hang.message, Catch::StartsWith("deadlock at cycle "));
    CHECK_THAT(hang.message, Catch::Contains("in design '" + design + "' on npu1_1col: no process can make progress"));
    const auto lists = process_lists(hang.message);
    REQUIRE_FALSE(lists.empty());
    for (const auto& p : e.processes) CHECK_THAT(lists, Catch::Contains(p));

    CHECK(d.case_id == e.case_id);
    CHECK_THAT(hang.message, Catch::Contains("[" + std::string(e.case_id) + "]"));
    REQUIRE_FALSE(d.chain.empty());
    CHECK_THAT(d.chain.front(), Catch::StartsWith("the runtime sequence awaits the drain of"));
    for (const auto& r : e.root) CHECK_THAT(d.chain.back(), Catch::Contains(r));
    if (!e.cycle.empty()) {
        REQUIRE_FALSE(d.cycles.empty());
        for (const auto& p : e.cycle) {
            bool on_cycle = false;
            for (auto n : d.cycles.front()) on_cycle |= d.nodes[n].label == p;
            INFO(p);
            CHECK(on_cycle);
        }
    }
    if (e.warning.empty()) {
        CHECK(warnings.empty());
    } else {
        REQUIRE(warnings.size() == 1);
        CHECK_THAT(warnings[0], Catch::Contains(e.warning));
    }
    CHECK_THAT(d.to_dot(), Catch::Contains("penwidth=2")); // the DOT graph marks the chain

    for (const char* device : {"npu1", "npu2_1col", "npu2"}) {
        const auto other = run_expecting_deadlock(design, device);
        INFO(design << " on " << device << ":\n" << other.message);
        CHECK(other.diagnosis.case_id == e.case_id);
    }
}

} // namespace

TEST_CASE("the deadlock catalog: every deadlock_* design has a test and is listed in order", "[examples][deadlock]") {
    std::vector<std::string> registered;
    for (const auto& d : all_designs())
        if (d.name.rfind("deadlock_", 0) == 0) registered.push_back(d.name);
    std::vector<std::string> tabled;
    for (const auto& e : catalog()) tabled.push_back(e.design);
    CHECK(registered == tabled);
    CHECK(registered.size() >= 12);
}

TEST_CASE("deadlock_shared_pool_overacquire: a consumer acquires 2 of a 1-buffer shared pool", "[examples][deadlock]") {
    check_catalog_design("deadlock_shared_pool_overacquire");
}

TEST_CASE("deadlock_held_exceeds_depth: the producer's 2 plus the window's 1 exceed the depth of 2",
          "[examples][deadlock]") {
    check_catalog_design("deadlock_held_exceeds_depth");
}

TEST_CASE("deadlock_opposite_order: a request/reply pair acquired in opposite orders (shared memory)",
          "[examples][deadlock]") {
    check_catalog_design("deadlock_opposite_order");
}

TEST_CASE("deadlock_opposite_order_dma: a request/reply pair acquired in opposite orders (over DMA)",
          "[examples][deadlock]") {
    check_catalog_design("deadlock_opposite_order_dma");
}

TEST_CASE("deadlock_ring3: a ring of three workers with no initial object", "[examples][deadlock]") {
    check_catalog_design("deadlock_ring3");
}

TEST_CASE("deadlock_broadcast_skip: a broadcast stalls on its under-buffered skip path", "[examples][deadlock]") {
    check_catalog_design("deadlock_broadcast_skip");
}

TEST_CASE("deadlock_join_early: the sequence awaits a join before it fills its second input", "[examples][deadlock]") {
    check_catalog_design("deadlock_join_early");
}

TEST_CASE("deadlock_memtile_second_pass: a mem-tile split hangs on its second pass", "[examples][deadlock]") {
    check_catalog_design("deadlock_memtile_second_pass");
}

TEST_CASE("deadlock_drain_more: the sequence drains more than a one-shot worker produces", "[examples][deadlock]") {
    check_catalog_design("deadlock_drain_more");
}

TEST_CASE("deadlock_fill_less: the sequence fills fewer objects than the worker consumes", "[examples][deadlock]") {
    check_catalog_design("deadlock_fill_less");
}

TEST_CASE("deadlock_partial_object: a fill ends in the middle of an object", "[examples][deadlock]") {
    check_catalog_design("deadlock_partial_object");
}

TEST_CASE("deadlock_finished_worker: a while_true=false worker returns while data still streams in",
          "[examples][deadlock]") {
    check_catalog_design("deadlock_finished_worker");
}

TEST_CASE("deadlock_cascade_never_put: a cascade's sender returns without putting", "[examples][deadlock][cascade]") {
    check_catalog_design("deadlock_cascade_never_put");
}

// The catalog of hanging designs (deadlock_*, docs/deadlocks.md): each one deadlocks on every
// device it lists, and its diagnosis names the right case, the fifos and the processes: the
// causal chain's last step (the root cause) or the cycle, and the resolve-time warning where the
// hang can be decided before simulating.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/sim/Diagnosis.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

namespace {

struct Expected {
    const char* design;
    const char* case_id;
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
         {"worker 'consumer' on (0,3) waits in acquire(2) of fifo 'mid' consumer",
          "it asks more than the 1 buffer(s) of its pool, so it can never complete"},
         {},
         "fifo 'mid': worker 'consumer' acquires 2 objects of its consumer end but the shared pool holds 1"},
        {"deadlock_held_exceeds_depth",
         "held_exceeds_depth",
         {"worker 'producer' on (0,2) waits in acquire(2) of fifo 'mid' producer", "the chain closes a cycle"},
         {"worker 'producer' on (0,2)", "worker 'window' on (0,3)"},
         "fifo 'mid': worker 'producer' acquires 2 objects of its producer end at once while worker 'window' keeps "
         "1 of the 2 shared buffers"},
        {"deadlock_opposite_order",
         "lock_cycle",
         {"worker 'server' on (0,3) waits in acquire(1) of fifo 'request' consumer",
          "meanwhile it holds 1 of fifo 'reply' producer", "the chain closes a cycle"},
         {"worker 'client' on (0,2)", "worker 'server' on (0,3)"},
         ""},
        {"deadlock_opposite_order_dma",
         "lock_cycle",
         {"DMA (0,2) MM2S 1 waits to run BD", "('request' producer MM2S", "released by worker 'client'"},
         {"worker 'client' on (0,2)", "worker 'server' on (0,5)", "DMA (0,2) MM2S 1", "DMA (0,5) S2MM 0",
          "DMA (0,5) MM2S 0", "DMA (0,2) S2MM 1"},
         ""},
        {"deadlock_ring3",
         "lock_cycle",
         {"released by worker 'ring2'", "the chain closes a cycle"},
         {"worker 'ring0' on (0,2)", "worker 'ring1' on (0,3)", "worker 'ring2' on (0,4)"},
         ""},
        {"deadlock_broadcast_skip",
         "lock_cycle",
         {"DMA (0,4) S2MM 0 waits to run BD", "released by worker 'skip'"},
         {"worker 'pair' on (0,2)", "worker 'skip' on (0,4)", "shim DMA (0,0) MM2S 0", "DMA (0,4) S2MM 0"},
         ""},
        {"deadlock_join_early",
         "fill_after_await",
         {"shim DMA (0,0) MM2S 1 has no task queued", "worker 'right' consumed 0 objects and wants the 1st",
          "task 2 ('in1' fill), only at instruction 6, after the wait at instruction 3"},
         {},
         ""},
        {"deadlock_memtile_second_pass",
         "finished_worker",
         {"worker 'a' on (0,2) has finished: its body (while_true=false) returned after 1 iteration",
          "1 object(s) of fifo 'in_a' still wait for it"},
         {},
         "split of fifo 'in': worker 'a' (while_true=false) consumes 1 object(s) of 'in_a' in its whole run"},
        {"deadlock_drain_more",
         "drain_more_than_produced",
         {"worker 'once' on (0,2) has finished", "having produced 2 objects of fifo 'out' producer"},
         {},
         ""},
        {"deadlock_fill_less",
         "fill_less_than_consumed",
         {"shim DMA (0,0) MM2S 0 has no task queued: the sequence's fills on it moved 192 B (3 objects of 64 B), "
          "worker 'pairs' consumed 2 objects and wants the 4th"},
         {},
         ""},
        {"deadlock_partial_object",
         "partial_object",
         {"shim DMA (0,0) MM2S 0 has no task queued: the sequence's fills on it moved 96 B (1 object of 64 B)"},
         {},
         "fill of fifo 'in' moves 96 B, not a whole number of its 64 B objects"},
        {"deadlock_finished_worker",
         "finished_worker",
         {"worker 'oneshot' on (0,2) has finished", "2 object(s) of fifo 'in' still wait for it"},
         {},
         ""},
    };
    return c;
}

sim::Diagnosis run_expecting_deadlock(const std::string& design, const std::string& device,
                                      std::vector<std::string>* warnings = nullptr) {
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
        return *sim::diagnosis_of(e);
    }
    FAIL(design << " on " << device << " did not deadlock");
    return {};
}

} // namespace

TEST_CASE("the deadlock catalog: every deadlock_* design is in the catalog table", "[examples][deadlock]") {
    std::size_t registered = 0;
    for (const auto& d : all_designs())
        if (d.name.rfind("deadlock_", 0) == 0) {
            ++registered;
            bool listed = false;
            for (const auto& e : catalog()) listed |= d.name == e.design;
            INFO(d.name);
            CHECK(listed);
        }
    CHECK(registered == catalog().size());
    CHECK(registered >= 12);
}

TEST_CASE("the deadlock catalog: each design's diagnosis names its case, fifos and processes", "[examples][deadlock]") {
    for (const auto& e : catalog()) {
        SECTION(e.design) {
            std::vector<std::string> warnings;
            const auto d = run_expecting_deadlock(e.design, "npu1_1col", &warnings);
            INFO(d.text);
            CHECK(d.case_id == e.case_id);
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
            // The report carries the case in its text, and the DOT graph marks the chain.
            CHECK_THAT(d.text, Catch::Contains("[" + std::string(e.case_id) + "]"));
            CHECK_THAT(d.to_dot(), Catch::Contains("penwidth=2"));
        }
    }
}

TEST_CASE("the deadlock catalog hangs the same way on NPU1 and NPU2 arrays", "[examples][deadlock]") {
    for (const char* device : {"npu1", "npu2_1col", "npu2"})
        for (const auto& e : catalog()) {
            INFO(e.design << " on " << device);
            CHECK(run_expecting_deadlock(e.design, device).case_id == e.case_id);
        }
}

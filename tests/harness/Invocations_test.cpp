// Invocations (docs/notes/toolchain-rules.md I1): a loaded design runs its
// runtime sequence again as XRT's test wrapper does (runtime_lib/test_lib/xrt_test_wrapper.h: per
// iteration a new run on the same buffers, warm-up iterations unchecked), on the same configured
// array: worker loops keep running, locks, rotating buffers and Buffers persist, init_values are
// not re-applied (the xclbin path loads the configuration once).
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>
#include <cstring>

using namespace npusim;
using namespace npusim::harness;

TEST_CASE("invocation_counter: --iters 3 --warmup 1 checks every measured run against the reference at its index",
          "[harness][invocations]") {
    RunOptions ro;
    ro.iters = 3;
    ro.warmup = 1;
    const auto rep = run_design(design_by_name("invocation_counter"), "npu1_1col", {}, ro);
    REQUIRE(rep.invocations.size() == 4);
    CHECK(rep.invocations[0].warmup);
    CHECK(rep.invocations[0].checks.empty());
    for (std::uint32_t i = 1; i < 4; ++i) {
        INFO("invocation " << i);
        CHECK_FALSE(rep.invocations[i].warmup);
        REQUIRE(rep.invocations[i].checks.size() == 1);
        CHECK(rep.invocations[i].checks[0].match);
        CHECK(rep.invocations[i].cycles > 0);
    }
    CHECK(rep.all_match);
    // Each invocation's outputs differ: the count kept running (4 objects per invocation). Only the
    // checked output of the measured invocations is kept (snapshot_tensors / snapshot_from).
    const auto& r = rep.result.invocations;
    REQUIRE(r.size() == 4);
    CHECK(r[0].host.empty()); // the warm-up
    for (std::size_t i = 1; i < 4; ++i) CHECK(r[i].host[0].empty()); // the input is not copied
    for (std::size_t i = 2; i < 4; ++i) CHECK(r[i].host[1] != r[i - 1].host[1]);
    std::int32_t first = 0, last = 0, in0 = 0;
    std::memcpy(&first, r[1].host[1].data(), 4);
    std::memcpy(&last, r[3].host[1].data(), 4);
    std::memcpy(&in0, rep.result.host[0].data(), 4);
    CHECK(first == in0 + 4); // invocation 1, object 0: the warm-up counted 4 objects
    CHECK(last == in0 + 12); // invocation 3, object 0: 3 x 4 objects counted before it
    CHECK(r[0].end_cycle <= r[1].begin_cycle);
}

TEST_CASE("an invocation whose outputs differ from the reference at its index is a mismatch",
          "[harness][invocations]") {
    // The same design with a reference that ignores the invocation: only invocation 0 matches.
    DesignSpec spec = design_by_name("invocation_counter");
    auto build = spec.build;
    spec.build = [build](const model::DeviceSpec& d, const Params& p, const BuildOptions& o) {
        auto inst = build(d, p, o);
        inst.reference_at = nullptr;
        return inst;
    };
    RunOptions ro;
    ro.iters = 2;
    const auto rep = run_design(spec, "npu1_1col", {}, ro);
    REQUIRE(rep.invocations.size() == 2);
    CHECK(rep.invocations[0].all_match);
    CHECK_FALSE(rep.invocations[1].all_match);
    CHECK_FALSE(rep.all_match);
    CHECK_FALSE(rep.checks.front().match); // the last invocation's checks
}

TEST_CASE("init_values are not re-applied and worker loops keep running across invocations", "[sim][invocations]") {
    using namespace npusim::iron;
    using I32 = std::vector<std::int32_t>;
    ObjectFifo c(tensor<std::int32_t>({4}), "c", 2,
                 {.init_values = {npusim::test::bytes_of(I32{1, 2, 3, 4}), npusim::test::bytes_of(I32{5, 6, 7, 8})}});
    Worker p(
        [](ObjectFifoHandle h) {
            auto g = h.acquire(2);
            for (int k = 0; k < 2; ++k) {
                auto* v = reinterpret_cast<std::int32_t*>(g[static_cast<std::size_t>(k)].data());
                for (int i = 0; i < 4; ++i) v[i] += 100;
            }
            h.release(2);
        },
        fn_args(c.prod()), {.name = "p"});
    Runtime rt([](RuntimeData b, ObjectFifoHandle h) { h.drain(b, {.wait = true}); },
               fn_args(tensor<std::int32_t>({16}), c.cons()));
    const auto net = Program("npu1_1col", rt, {p}).resolve();
    sim::SimOptions o;
    o.invocations = 2;
    const auto r = sim::simulate(net, {std::vector<std::uint8_t>(64)}, o);
    REQUIRE(r.invocations.size() == 2);
    const auto vals = [](const std::vector<std::uint8_t>& b) { return npusim::test::values_of<std::int32_t>(b); };
    CHECK(vals(r.invocations[0].host[0]) ==
          std::vector<std::int32_t>{1, 2, 3, 4, 5, 6, 7, 8, 101, 102, 103, 104, 105, 106, 107, 108});
    // Rounds 2 and 3 of the producer, not the initial objects again.
    CHECK(vals(r.invocations[1].host[0]) ==
          std::vector<std::int32_t>{201, 202, 203, 204, 205, 206, 207, 208, 301, 302, 303, 304, 305, 306, 307, 308});
    CHECK(r.host == r.invocations[1].host);
}

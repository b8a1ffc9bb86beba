// Invariant: a design that only moves data reproduces its input, checked against the
// input bytes themselves rather than the design's own reference: E1 (passThroughLine copies),
// E2 (mem-tile forward), E11 (memcpy, DMA-only and through workers) give back the input byte for
// byte; E10 (the shim DMA's column-major read) gives back its transpose, computed here with Eigen.
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignSpec.hpp"
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/sim/Simulator.hpp"

#include <Eigen/Core>
#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

namespace {

struct Run {
    std::vector<std::vector<std::uint8_t>> before, after;
};

Run run(const std::string& design, const std::string& device, const Params& overrides = {}) {
    const auto& spec = design_by_name(design);
    const auto& dev = model::device_by_name(device);
    const auto inst = spec.build(dev, spec.resolve_params(overrides), BuildOptions(11));
    Run r;
    r.before = inst.host();
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(dev.arch);
    r.after = sim::simulate(inst.program.resolve(), r.before, o).host;
    return r;
}

} // namespace

TEST_CASE("copy designs give back their input byte for byte", "[examples][invariants]") {
    struct Case {
        const char* design;
        const char* device;
        Params params;
    };
    const std::vector<Case> cases = {
        {"passthrough_kernel", "npu1_1col", {}},
        {"passthrough_kernel", "npu2", {{"bits", 16}}},
        {"passthrough_dmas", "npu1_2col", {}},
        {"passthrough_dmas", "npu2_1col", {{"size", 65536}, {"tile", 4096}}},
        {"memcpy", "npu1", {{"columns", 4}, {"channels", 2}, {"bypass", 1}}},
        {"memcpy", "npu2", {{"columns", 2}, {"channels", 2}, {"bypass", 0}}},
    };
    for (const auto& c : cases) {
        INFO(c.design << " on " << c.device);
        const auto r = run(c.design, c.device, c.params);
        REQUIRE(r.before.size() >= 2);
        REQUIRE_FALSE(r.before.front().empty());
        // The first argument is the input, the last the output (a zeroed buffer before the run).
        CHECK(r.after.back() == r.before.front());
        CHECK(r.after.front() == r.before.front()); // the input is left as it was
    }
}

TEST_CASE("transpose_dma gives back the transpose of its input", "[examples][invariants]") {
    for (const char* device : {"npu1_1col", "npu2"}) {
        INFO(device);
        const std::int64_t M = 64, K = 32;
        const auto r = run("transpose_dma", device, {{"M", M}, {"K", K}});
        using Mat = Eigen::Matrix<std::int32_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
        REQUIRE(r.before.front().size() == static_cast<std::size_t>(M * K * 4));
        const Eigen::Map<const Mat> a(reinterpret_cast<const std::int32_t*>(r.before.front().data()), M, K);
        const Eigen::Map<const Mat> c(reinterpret_cast<const std::int32_t*>(r.after.back().data()), K, M);
        CHECK(c == a.transpose());
    }
}

// The simulator's own cost per object (docs/performance.md): each SystemC wait of a
// thread is two coroutine switches and a trip through SystemC's scheduler (about 85 ns here,
// against 700-900 ns for the three 4 KiB copies an E1 object takes); an activation of a method
// process (the DMA channels, state machines with no stack) is the trip alone (about 35 ns).
// E1's scheduling grows by exactly three per object and by nothing else, so a change that adds
// one per object fails here: one thread wait (the core for its input) and two method activations
// (the shim MM2S at each chunk's arrival, the core's MM2S for its lock or its chunk's arrival).
// Without lock run-ahead (SimOptions::lock_run_ahead) they were five: the core's S2MM slept until
// its next buffer's lock was released, and the shim MM2S waited for it to post.
TEST_CASE("E1 makes three SystemC waits per object and none per byte", "[examples][performance]") {
    const auto& spec = design_by_name("passthrough_kernel");
    const auto& dev = model::device_by_name("npu1_1col");
    auto run = [&](std::int64_t bytes, std::int64_t tile, bool run_ahead = true) {
        const auto inst = spec.build(dev, spec.resolve_params({{"size", bytes}, {"tile", tile}}), BuildOptions(11));
        sim::SimOptions o;
        o.timing = model::TimingParams::for_arch(dev.arch);
        o.lock_run_ahead = run_ahead;
        auto r = sim::simulate(inst.program.resolve(), inst.host(), o);
        REQUIRE(inst.check(r.host)[0].match);
        return r;
    };
    struct Waits {
        std::int64_t thread, method;
        std::int64_t all() const { return thread + method; }
        Waits operator-(const Waits& o) const { return {thread - o.thread, method - o.method}; }
    };
    auto waits = [&](std::int64_t bytes, std::int64_t tile, bool run_ahead = true) {
        const auto r = run(bytes, tile, run_ahead);
        return Waits{static_cast<std::int64_t>(r.scheduler_waits), static_cast<std::int64_t>(r.scheduler_activations)};
    };
    const auto w64 = waits(64 * 2048, 2048), w128 = waits(128 * 2048, 2048);
    CHECK((w128 - w64).thread == 64);
    CHECK((w128 - w64).method == 2 * 64);
    // ... and some for the run's start and end: while the first objects stream, the core, its DMA
    // channels and the drain run in lock step (two waits of each kind per object) until the input
    // runs ahead of the core (8 objects: 20 thread and 22 method waits)
    CHECK(w64.all() < 3 * 64 + 60);
    const auto without = waits(128 * 2048, 2048, false) - waits(64 * 2048, 2048, false);
    CHECK(without.thread == 64);
    CHECK(without.method <= 4 * 64); // at most four per object without run-ahead
    CHECK(run(64 * 2048, 2048).cycles == run(64 * 2048, 2048, false).cycles);
    // Objects 4x larger move 4x the bytes per BD with no more waits per object than without
    // run-ahead; 3.5 on average: at 8 KiB the core's MM2S is often already blocked on its lock when
    // the core releases it, and then waits for that release as before.
    const auto w8k = (waits(128 * 8192, 8192) - waits(64 * 8192, 8192)).all();
    CHECK(w8k <= 4 * 64);
    CHECK(w8k == (waits(128 * 8192, 8192, false) - waits(64 * 8192, 8192, false)).all());
}

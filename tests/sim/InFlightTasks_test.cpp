// Shim tasks still in flight when the runtime sequence ends (docs/notes/runtime-sequence-semantics.md
// §3): the host's run.wait() returns at the end of the instruction stream while the DMAs it started
// keep running, so the host reads what they wrote by then. npusim lets them run on (at most
// SimOptions::drain_cycles) before it takes the outputs, and warns; a task that can never complete
// ends the run at once instead of hanging or being reported as a deadlock.
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>
#include <cstring>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::bytes_of;
using npusim::test::values_of;

namespace {
sim::SimOptions inflight_opts() {
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2);
    return o;
}

std::vector<std::int32_t> inflight_ramp(std::size_t n) {
    std::vector<std::int32_t> a(n);
    for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<std::int32_t>(i * 3 + 1);
    return a;
}

// A fill of `filled` elements and a drain of `drained`, neither awaited (wait=false); the worker
// copies 64-element objects, adding `cycles` of work to each.
model::Netlist unawaited(std::int64_t filled, std::int64_t drained, std::uint64_t cycles) {
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
                                  [filled, drained](RuntimeData a, RuntimeData b, ObjectFifoHandle i,
                                                    ObjectFifoHandle o) {
                                      i.fill(a, {.tap = TensorAccessPattern({256}, 0, {filled}, {1})});
                                      o.drain(b, {.tap = TensorAccessPattern({256}, 0, {drained}, {1})});
                                  },
                              .host_elements = 256,
                              .program = "unawaited"})
        .resolve();
}
} // namespace

TEST_CASE("tasks in flight at the sequence's end run on before the host reads the outputs, with a warning",
          "[sim][inflight]") {
    const auto a = inflight_ramp(256);
    const auto r = sim::simulate(unawaited(256, 256, 0), {bytes_of(a), std::vector<std::uint8_t>(256 * 4)},
                                 inflight_opts());
    CHECK(values_of<std::int32_t>(r.host[1]) == a); // the drain's data arrived although nothing awaited it
    REQUIRE(r.warnings.size() == 1);
    CHECK_THAT(r.warnings[0], Catch::Contains("2 shim task(s) were still in flight when the runtime sequence ended at "
                                              "cycle "));
    CHECK_THAT(r.warnings[0], Catch::Contains("(not awaited; on hardware they run on after the host's run.wait() "
                                              "returns); completed by cycle "));
    CHECK_THAT(r.warnings[0], Catch::Contains("before the host reads the outputs: task 0 ('in' fill) on shim (0,0) "
                                              "MM2S 0, task 1 ('out' drain) on shim (0,0) S2MM 0"));
    CHECK_THAT(r.warnings[0], !Catch::Contains("never completed"));
}

TEST_CASE("a task in flight that can never complete ends the run at once, reported, not as a deadlock",
          "[sim][inflight]") {
    // The drain wants two objects; the fill brings one. Nothing can ever complete the drain.
    const auto a = inflight_ramp(256);
    const auto r = sim::simulate(unawaited(64, 128, 0), {bytes_of(a), std::vector<std::uint8_t>(256 * 4)},
                                 inflight_opts());
    const auto out = values_of<std::int32_t>(r.host[1]);
    CHECK(std::vector<std::int32_t>(out.begin(), out.begin() + 64) == std::vector<std::int32_t>(a.begin(), a.begin() + 64));
    CHECK(out[64] == 0);
    REQUIRE(r.warnings.size() == 1);
    CHECK_THAT(r.warnings[0], Catch::Contains("completed by cycle "));
    CHECK_THAT(r.warnings[0], Catch::Contains("task 0 ('in' fill) on shim (0,0) MM2S 0; never completed (nothing left "
                                              "in the array could move them), so the host reads the outputs without "
                                              "them: task 1 ('out' drain) on shim (0,0) S2MM 0"));
    CHECK(r.cycles < 100000); // ended when nothing could move, not at the drain bound
}

TEST_CASE("tasks in flight run on for drain_cycles at most", "[sim][inflight]") {
    // Every object takes 10^5 cycles of work: with a 1,000-cycle bound the drain is cut off.
    const auto a = inflight_ramp(256);
    auto o = inflight_opts();
    o.drain_cycles = 1000;
    const auto r = sim::simulate(unawaited(256, 256, 100000), {bytes_of(a), std::vector<std::uint8_t>(256 * 4)}, o);
    REQUIRE(r.warnings.size() == 1);
    CHECK_THAT(r.warnings[0], Catch::Contains("never completed (still running 1000 cycles after the sequence's end), so "
                                              "the host reads the outputs without them: task 0 ('in' fill) on shim "
                                              "(0,0) MM2S 0, task 1 ('out' drain) on shim (0,0) S2MM 0"));
    CHECK(r.cycles < 100000);
    CHECK(values_of<std::int32_t>(r.host[1]) != a);
}

// Run-time failures through the whole pipeline: deadlock reports, cycle limits, kernels that
// throw, protocol violations the resolve-time trace cannot see, task-queue overflow, big stacks.
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::kernel_body;
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
SimulationError::Kind run_kind(const model::Netlist& n, std::string& msg, sim::SimOptions o = opts()) {
    try {
        sim::simulate(n, zeros(n), o);
    } catch (const SimulationError& e) {
        msg = e.what();
        return e.kind();
    }
    FAIL("simulation did not fail");
    return SimulationError::Kind::Protocol;
}

void copy_body(ObjectFifoHandle i, ObjectFifoHandle o) {
    auto e = i.acquire(1);
    auto f = o.acquire(1);
    std::copy(e.as<std::int32_t>().begin(), e.as<std::int32_t>().end(), f.as<std::int32_t>().begin());
    i.release(1);
    o.release(1);
}
} // namespace

TEST_CASE("deadlock: a worker acquires from a fifo nobody fills", "[sim][deadlock]") {
    const auto net = passthrough({.type = tensor<std::int32_t>({64}),
                                  .body = copy_body,
                                  .seq = [](RuntimeData, RuntimeData b, ObjectFifoHandle,
                                            ObjectFifoHandle o) { o.drain(b, {.wait = true}); },
                                  .host_elements = 64,
                                  .program = "starved"})
                         .resolve();
    std::string msg;
    REQUIRE(run_kind(net, msg) == SimulationError::Kind::Deadlock);
    CHECK_THAT(msg, Catch::StartsWith("deadlock at cycle "));
    CHECK_THAT(msg, Catch::Contains("in design 'starved' on npu1_1col: no process can make progress"));
    CHECK_THAT(
        msg, Catch::Contains(
                 "worker 'w' on (0,2): acquire(1) on fifo 'in' consumer 0, element 0\n"
                 "      waits on lock in_cons_cons_lock_0 on (0,2) >= 1 (value now 0); released by DMA (0,2) S2MM 0"));
    CHECK_THAT(msg,
               Catch::Contains("DMA (0,2) S2MM 0: 'in' consumer S2MM, element 0\n      waits for its stream peer"));
    CHECK_THAT(msg, Catch::Contains("runtime sequence: awaits task 0 ('out' drain): syncs on shim (0,0) S2MM 0 for its "
                                    "next completion token"));
    CHECK_THAT(msg, Catch::Contains("shim DMA (0,0) MM2S 0: no task queued"));
}

TEST_CASE("the cycle limit stops a run that would go on", "[sim][limit]") {
    const auto net =
        passthrough({.type = tensor<std::int32_t>({64}), .body = copy_body, .host_elements = 65536, .program = "long"})
            .resolve();
    auto o = opts();
    o.max_cycles = 5000;
    std::string msg;
    REQUIRE(run_kind(net, msg, o) == SimulationError::Kind::Limit);
    CHECK_THAT(msg, Catch::StartsWith("design 'long' on npu1_1col: reached the cycle limit of 5000 cycles before the "
                                      "runtime sequence finished (--max-cycles)\n"));
}

TEST_CASE("a kernel that throws is reported with worker and kernel", "[sim][kernel]") {
    Kernel boom("boom", +[](const std::int32_t*, std::int32_t*) { throw std::runtime_error("bad input"); },
                {tensor<std::int32_t>({64}), tensor<std::int32_t>({64})});
    const auto net =
        passthrough({.type = tensor<std::int32_t>({64}), .body = kernel_body(boom), .host_elements = 64}).resolve();
    std::string msg;
    REQUIRE(run_kind(net, msg) == SimulationError::Kind::Kernel);
    CHECK(msg == "worker 'w': kernel 'boom' threw: bad input");
}

TEST_CASE("a release the trace could not see is a protocol error at run time", "[sim][protocol]") {
    auto iteration = std::make_shared<int>(0);
    const auto net = passthrough({.type = tensor<std::int32_t>({64}),
                                  .body =
                                      [iteration](ObjectFifoHandle i, ObjectFifoHandle o) {
                                          auto e = i.acquire(1);
                                          auto f = o.acquire(1);
                                          (void)e;
                                          (void)f;
                                          o.release(1);
                                          // the third iteration (the second simulated) releases too much
                                          i.release(++*iteration == 3 ? 2 : 1);
                                      }})
                         .resolve();
    std::string msg;
    REQUIRE(run_kind(net, msg) == SimulationError::Kind::Protocol);
    CHECK(msg == "worker 'w': release(2) on fifo 'in' consumer 0 but only 1 element(s) are held");
}

TEST_CASE("kernels run on a large core stack", "[sim][stack]") {
    Kernel big("big_stack",
               +[](const std::int32_t* a, std::int32_t* b) {
                   volatile std::int32_t scratch[512 * 1024]; // 2 MiB on the core process's stack
                   for (int i = 0; i < 512 * 1024; i += 4096) scratch[i] = a[i % 64];
                   for (int i = 0; i < 64; ++i) b[i] = a[i] + scratch[0] * 0 + 1;
               },
               {tensor<std::int32_t>({64}), tensor<std::int32_t>({64})});
    const auto net =
        passthrough({.type = tensor<std::int32_t>({64}), .body = kernel_body(big), .host_elements = 64}).resolve();
    std::vector<std::int32_t> a(64);
    for (int i = 0; i < 64; ++i) a[static_cast<std::size_t>(i)] = i * 3;
    std::vector<std::uint8_t> ab(256);
    std::memcpy(ab.data(), a.data(), 256);
    const auto r = sim::simulate(net, {ab, std::vector<std::uint8_t>(256)}, opts());
    std::vector<std::int32_t> b(64);
    std::memcpy(b.data(), r.host[1].data(), 256);
    for (int i = 0; i < 64; ++i) CHECK(b[static_cast<std::size_t>(i)] == i * 3 + 1);
}

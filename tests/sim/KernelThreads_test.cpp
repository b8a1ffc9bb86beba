// Kernel calls on a thread pool (SimOptions::kernel_threads): a kernel that throws, or that uses a
// cascade port its core lacks, gives the serial mode's error; one that calls a worker service from
// a pool thread is an error naming it. (Every registered design's results: tests/harness/
// KernelThreads_test.cpp.)
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <stdexcept>
#include <thread>

using namespace npusim;
using namespace npusim::iron;

namespace {
sim::SimOptions opts(unsigned threads) {
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2);
    o.check_memory = false;
    o.kernel_threads = threads;
    o.kernel_pool_min_nanos = 0;
    return o;
}

// A copying worker that calls `k` on each input object, `objects` objects of `elements` i32.
model::Netlist design(const Kernel& k, std::int64_t elements = 64, std::int64_t objects = 4) {
    return test::passthrough({.type = tensor<std::int32_t>({elements}),
                              .body = test::kernel_body(k),
                              .host_elements = elements * objects,
                              .program = "pool"})
        .resolve();
}

std::string error_of(const model::Netlist& net, unsigned threads) {
    try {
        sim::simulate(net, {std::vector<std::uint8_t>(1024), std::vector<std::uint8_t>(1024)}, opts(threads));
    } catch (const SimulationError& e) {
        return e.what();
    }
    return "no error";
}
} // namespace

TEST_CASE("kernel threads: a kernel's results and cycles are the serial ones", "[sim][kernel-threads]") {
    Kernel twice("flip",
                 +[](const std::int32_t* a, std::int32_t* b) {
                     for (int i = 0; i < 64; ++i) b[i] = a[i] ^ 0x5a5a;
                 },
                 {tensor<std::int32_t>({64}), tensor<std::int32_t>({64})});
    const auto net = design(twice);
    std::vector<std::uint8_t> in(1024);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint8_t>(i * 7);
    const auto serial = sim::simulate(net, {in, std::vector<std::uint8_t>(1024)}, opts(1));
    const auto pooled = sim::simulate(net, {in, std::vector<std::uint8_t>(1024)}, opts(3));
    CHECK(pooled.cycles == serial.cycles);
    CHECK(pooled.host == serial.host);
    REQUIRE(pooled.cores.size() == 1);
    CHECK(pooled.cores[0].kernel_calls == 4);
    CHECK(pooled.cores[0].busy_cycles == serial.cores[0].busy_cycles);
}

TEST_CASE("kernel threads: a kernel that throws gives the serial error", "[sim][kernel-threads]") {
    Kernel boom("boom", +[](const std::int32_t*, std::int32_t*) { throw std::runtime_error("bad input"); },
                {tensor<std::int32_t>({64}), tensor<std::int32_t>({64})});
    const auto net = design(boom);
    CHECK(error_of(net, 1) == "worker 'w': kernel 'boom' threw: bad input");
    CHECK(error_of(net, 2) == "worker 'w': kernel 'boom' threw: bad input");
}

TEST_CASE("kernel threads: a cascade word from a core without cascade gives the serial error",
          "[sim][kernel-threads]") {
    Kernel put("put", +[](const std::int32_t* a, std::int32_t*) { cascade_put(a); },
               {tensor<std::int32_t>({64}), tensor<std::int32_t>({64})});
    const auto net = design(put);
    const std::string want =
        "worker 'w': cascade_put: no CascadeFlow starts at this worker, so its core has no cascade output";
    CHECK(error_of(net, 1) == want);
    CHECK(error_of(net, 2) == want);
}

TEST_CASE("kernel threads: a kernel that calls a worker service on a pool thread is an error",
          "[sim][kernel-threads]") {
    Kernel cycles("cycles", +[](const std::int32_t*, std::int32_t*) { add_cycles(5); },
                  {tensor<std::int32_t>({64}), tensor<std::int32_t>({64})});
    const auto net = design(cycles);
    CHECK(error_of(net, 1) == "no error");
    CHECK(error_of(net, 2) == "worker 'w': a kernel called add_cycles while running on a kernel thread "
                              "(SimOptions::kernel_threads, --kernel-threads); a kernel that uses its worker's "
                              "services runs only with --kernel-threads 1");
}

// A kernel's host time decides whether its calls are worth handing over; it is measured once per
// run (the run's first call of the kernel stays on the simulating thread), shared by every core
// that calls it, not once per core.
TEST_CASE("kernel threads: a kernel is timed once per run and not once per core", "[sim][kernel-threads]") {
    Kernel slow("slow",
                +[](const std::int32_t* a, std::int32_t* b) {
                    std::this_thread::sleep_for(std::chrono::microseconds(200)); // well over 20 us
                    for (int i = 0; i < 64; ++i) b[i] = a[i];
                },
                {tensor<std::int32_t>({64}), tensor<std::int32_t>({64})});
    // Two workers on two tiles, each copying 4 objects through `slow`.
    ObjectFifo in0(tensor<std::int32_t>({64}), "in0"), out0(tensor<std::int32_t>({64}), "out0");
    ObjectFifo in1(tensor<std::int32_t>({64}), "in1"), out1(tensor<std::int32_t>({64}), "out1");
    auto body = [](ObjectFifoHandle i, ObjectFifoHandle o, Kernel kk) {
        auto e = i.acquire(1);
        auto f = o.acquire(1);
        kk(e, f);
        i.release(1);
        o.release(1);
    };
    Worker w0(body, fn_args(in0.cons(), out0.prod(), slow), {.name = "w0"});
    Worker w1(body, fn_args(in1.cons(), out1.prod(), slow), {.name = "w1"});
    const auto t = tensor<std::int32_t>({256});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, RuntimeData c, RuntimeData d, ObjectFifoHandle i0, ObjectFifoHandle o0,
           ObjectFifoHandle i1, ObjectFifoHandle o1) {
            i0.fill(a);
            i1.fill(c);
            o0.drain(b, {.wait = true});
            o1.drain(d, {.wait = true});
        },
        fn_args(t, t, t, t, in0.prod(), out0.cons(), in1.prod(), out1.cons()));
    const auto net = Program("npu1_1col", rt, {w0, w1}, "timed_once").resolve();
    auto o = opts(2);
    o.kernel_pool_min_nanos = 20000; // the default: calls under 20 us stay inline
    std::vector<std::vector<std::uint8_t>> host(4, std::vector<std::uint8_t>(1024));
    for (std::size_t i = 0; i < 1024; ++i)
        host[0][i] = static_cast<std::uint8_t>(i), host[2][i] = static_cast<std::uint8_t>(3 * i);
    const auto r = sim::simulate(net, host, o);
    CHECK(r.host[1] == host[0]);
    CHECK(r.host[3] == host[2]);
    REQUIRE(r.cores.size() == 2);
    CHECK(r.cores[0].kernel_calls + r.cores[1].kernel_calls == 8);
    // One call in the run is timed on the simulating thread; the other seven go to the threads
    // (timed per core, two would stay: 6).
    CHECK(r.cores[0].pooled_kernel_calls + r.cores[1].pooled_kernel_calls == 7);
    // Serially nothing is handed over.
    const auto serial = sim::simulate(net, host, opts(1));
    CHECK(serial.cores[0].pooled_kernel_calls + serial.cores[1].pooled_kernel_calls == 0);
    CHECK(serial.cycles == r.cycles);
}

// A call that stays on the simulating thread is timed on the kernel's first call and then once per
// 32 (KernelTiming::kRetimeEvery in sim/src/KernelPool.hpp; two clock reads cost as much as a short kernel's call): a
// kernel fast at first and slow later is handed over after its next timed call, the 33rd.
TEST_CASE("kernel threads: an inline kernel is timed again every 32nd call", "[sim][kernel-threads]") {
    static int calls = 0;
    Kernel slower("slower",
                  +[](const std::int32_t* a, std::int32_t* b) {
                      // The first call is quick; every later one takes 3 ms, well over the limit.
                      if (calls++ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(3));
                      for (int i = 0; i < 4; ++i) b[i] = a[i];
                  },
                  {tensor<std::int32_t>({4}), tensor<std::int32_t>({4})});
    const auto net = design(slower, 4, 40);
    auto o = opts(2);
    o.kernel_pool_min_nanos = 1000000; // 1 ms: the quick first call stays under it
    std::vector<std::vector<std::uint8_t>> host(2, std::vector<std::uint8_t>(4 * 40 * 4));
    for (std::size_t i = 0; i < host[0].size(); ++i) host[0][i] = static_cast<std::uint8_t>(5 * i);
    calls = 0;
    const auto r = sim::simulate(net, host, o);
    CHECK(r.host[1] == host[0]);
    REQUIRE(r.cores.size() == 1);
    CHECK(r.cores[0].kernel_calls == 40);
    // Calls 1..33 inline (1 and 33 timed), 34..40 on the pool.
    CHECK(r.cores[0].pooled_kernel_calls == 40 - 33);
}

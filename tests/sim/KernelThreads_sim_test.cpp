// Kernel calls on a thread pool (SimOptions::kernel_threads): a kernel that throws, or that uses a
// cascade port its core lacks, gives the serial mode's error; one that calls a worker service from
// a pool thread is an error naming it. (Every registered design's results: tests/harness/
// KernelThreads_test.cpp.)
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

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

// A copying worker that calls `k` on each input object, 4 objects of 64 i32.
model::Netlist design(const Kernel& k) {
    ObjectFifo in(tensor<std::int32_t>({64}), "in"), out(tensor<std::int32_t>({64}), "out");
    Worker w(
        [](ObjectFifoHandle i, ObjectFifoHandle o, Kernel kk) {
            auto e = i.acquire(1);
            auto f = o.acquire(1);
            kk(e, f);
            i.release(1);
            o.release(1);
        },
        fn_args(in.cons(), out.prod(), k), {.name = "w"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({256}), tensor<std::int32_t>({256}), in.prod(), out.cons()));
    return Program("npu1_1col", rt, {w}, "pool").resolve();
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

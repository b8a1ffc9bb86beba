// Core stream ports in simulation (iron::Port::stream, upstream aie_stream): words a core puts arrive in
// order at the other end of the flow, a core gets words a DMA or another core sends, the stream's
// back-pressure holds the putter, and a put or get without a stream-port end is a protocol error.
// docs/timing-model.md "Core stream ports".
#include "npusim/iron.hpp"
#include "npusim/model/CoreServices.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>
#include <cstring>

using namespace npusim;
using namespace npusim::iron;
using Catch::Matchers::Contains;
using npusim::test::bytes_of;
using npusim::test::values_of;

namespace {

constexpr std::int64_t kLine = 32;
const TensorType line = tensor<std::int32_t>({kLine});

std::vector<std::int32_t> input(std::int64_t n) {
    std::vector<std::int32_t> v;
    for (std::int64_t k = 0; k < n; ++k) v.push_back(static_cast<std::int32_t>(k * 7919 - 123456));
    return v;
}
void put(std::int32_t x) { model::CoreServices::current()->stream_put(static_cast<std::uint32_t>(x)); }
std::int32_t get() { return static_cast<std::int32_t>(model::CoreServices::current()->stream_get()); }

Runtime in_out_runtime(std::int64_t n, ObjectFifo& in, ObjectFifo& out) {
    return Runtime(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({n}), tensor<std::int32_t>({n}), in.prod(), out.cons()));
}

} // namespace

TEST_CASE("a stream-port producer: the core's words reach the host in order", "[sim][stream_port]") {
    for (const std::string dev : {"npu1_1col", "npu2"}) {
        INFO(dev);
        const std::int64_t n = 4 * kLine;
        const auto net = test::passthrough({.type = line,
                                            .body =
                                                [](ObjectFifoHandle i, ObjectFifoHandle) {
                                                    auto e = i.acquire(1);
                                                    for (std::int64_t k = 0; k < kLine; ++k)
                                                        put(e.as<std::int32_t>()[k] * 3 + 1);
                                                    i.release(1);
                                                },
                                            .out_prod = {.port = iron::Port::stream(0)},
                                            .host_elements = n,
                                            .device = dev,
                                            .program = "sp"})
                             .resolve();
        const auto x = input(n);
        const auto r = sim::simulate(net, {bytes_of(x), std::vector<std::uint8_t>(n * 4)}, {});
        const auto got = values_of<std::int32_t>(r.host[1]);
        for (std::size_t k = 0; k < x.size(); ++k) REQUIRE(got[k] == x[k] * 3 + 1);
        // One word per cycle at the core port at best.
        CHECK(r.cycles >= static_cast<std::uint64_t>(n));
    }
}

TEST_CASE("a stream-port consumer: the core gets the words the shim's DMA sends", "[sim][stream_port]") {
    const std::int64_t n = 3 * kLine;
    const auto net = test::passthrough({.type = line,
                                        .body =
                                            [](ObjectFifoHandle, ObjectFifoHandle o) {
                                                auto e = o.acquire(1);
                                                for (std::int64_t k = 0; k < kLine; ++k)
                                                    e.as<std::int32_t>()[k] = get() - 5;
                                                o.release(1);
                                            },
                                        .in_cons = {.port = iron::Port::stream(0)},
                                        .host_elements = n,
                                        .program = "sc"})
                         .resolve();
    const auto x = input(n);
    const auto r = sim::simulate(net, {bytes_of(x), std::vector<std::uint8_t>(n * 4)}, {});
    const auto got = values_of<std::int32_t>(r.host[1]);
    for (std::size_t k = 0; k < x.size(); ++k) REQUIRE(got[k] == x[k] - 5);
}

TEST_CASE("core to core over stream ports, with back-pressure on the putter", "[sim][stream_port]") {
    const std::int64_t n = 4 * kLine;
    auto build = [&](std::uint64_t slow) {
        ObjectFifo in(line, "in"), mid(line, "mid"), out(line, "out");
        Worker a(
            [](ObjectFifoHandle i, ObjectFifoHandle) {
                auto e = i.acquire(1);
                for (std::int64_t k = 0; k < kLine; ++k) put(e.as<std::int32_t>()[k] ^ 0x5a5a);
                i.release(1);
            },
            fn_args(in.cons(), mid.prod({.port = iron::Port::stream(0)})), {.tile = Tile(0, 2), .name = "a"});
        Worker b(
            [slow](ObjectFifoHandle, ObjectFifoHandle o) {
                auto e = o.acquire(1);
                for (std::int64_t k = 0; k < kLine; ++k) {
                    if (slow) add_cycles(slow);
                    e.as<std::int32_t>()[k] = get() + 1;
                }
                o.release(1);
            },
            fn_args(mid.cons({.port = iron::Port::stream(0)}), out.prod()), {.tile = Tile(0, 4), .name = "b"});
        return Program("npu1_1col", in_out_runtime(n, in, out), {a, b}, "cc").resolve();
    };
    const auto x = input(n);
    const auto fast = sim::simulate(build(0), {bytes_of(x), std::vector<std::uint8_t>(n * 4)}, {});
    const auto slow = sim::simulate(build(100), {bytes_of(x), std::vector<std::uint8_t>(n * 4)}, {});
    for (const auto* r : {&fast, &slow}) {
        const auto got = values_of<std::int32_t>(r->host[1]);
        for (std::size_t k = 0; k < x.size(); ++k) REQUIRE(got[k] == (x[k] ^ 0x5a5a) + 1);
    }
    // The getter takes a word every 100 cycles, so the putter waits on the stream for it.
    CHECK(slow.cycles >= static_cast<std::uint64_t>(n) * 100);
    CHECK(slow.cores.at(0).worker == "a");
    CHECK(slow.cores.at(0).stall_cycles >= static_cast<std::uint64_t>(n - 8) * 99);
    CHECK(fast.cores.at(0).stall_cycles < slow.cores.at(0).stall_cycles);
}

TEST_CASE("a stream put or get on a core without a stream-port end is a protocol error", "[sim][stream_port][errors]") {
    const auto net = test::passthrough({.type = line,
                                        .body =
                                            [](ObjectFifoHandle i, ObjectFifoHandle o) {
                                                auto e = i.acquire(1);
                                                auto f = o.acquire(1);
                                                put(1);
                                                i.release(1);
                                                o.release(1);
                                            },
                                        .host_elements = kLine,
                                        .program = "np"})
                         .resolve();
    CHECK_THROWS_WITH(
        sim::simulate(net, {std::vector<std::uint8_t>(kLine * 4), std::vector<std::uint8_t>(kLine * 4)}, {}),
        Contains("put_ms: no ObjectFifo producer end at this worker is Port::stream, so its core's output stream "
                 "port is not connected"));
}

// Buffers: initial values, a running accumulator kept across iterations, run-time parameter
// writes from the sequence, and placement errors.
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>
#include <cstring>

using namespace npusim;
using namespace npusim::iron;

TEST_CASE("a buffer keeps state across iterations; the sequence writes run-time parameters", "[sim][buffer]") {
    ObjectFifo in(tensor<std::int32_t>({16}), "in"), out(tensor<std::int32_t>({16}), "out");
    Buffer acc = Buffer::with_values(tensor<std::int32_t>({16}), "acc", std::vector<std::int32_t>(16, 1000));
    Buffer rtp(tensor<std::int32_t>({4}), "rtp");
    Worker w(
        [](ObjectFifoHandle i, ObjectFifoHandle o, Buffer a, Buffer p) {
            auto e = i.acquire(1);
            auto f = o.acquire(1);
            auto x = e.as<std::int32_t>();
            auto y = f.as<std::int32_t>();
            auto s = a.as<std::int32_t>();
            for (int j = 0; j < 16; ++j) {
                s[static_cast<std::size_t>(j)] +=
                    x[static_cast<std::size_t>(j)] * p.as<std::int32_t>()[0]; // running sum x scale
                y[static_cast<std::size_t>(j)] = s[static_cast<std::size_t>(j)];
            }
            i.release(1);
            o.release(1);
        },
        fn_args(in.cons(), out.prod(), acc, rtp), {.name = "acc"});
    Runtime rt(
        [&rtp](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            rtp.write<std::int32_t>(0, 3);
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({64}), tensor<std::int32_t>({64}), in.prod(), out.cons()));
    const auto net = Program("npu1_1col", rt, {w}).resolve();
    std::vector<std::int32_t> a(64);
    for (std::size_t k = 0; k < 64; ++k) a[k] = static_cast<std::int32_t>(k);
    std::vector<std::uint8_t> ab(256);
    std::memcpy(ab.data(), a.data(), 256);
    const auto r = sim::simulate(net, {ab, std::vector<std::uint8_t>(256)}, {});
    std::vector<std::int32_t> c(64);
    std::memcpy(c.data(), r.host[1].data(), 256);
    for (std::size_t j = 0; j < 16; ++j) {
        std::int32_t s = 1000;
        for (std::size_t t = 0; t < 4; ++t) {
            s += a[t * 16 + j] * 3;
            REQUIRE(c[t * 16 + j] == s);
        }
    }
}

TEST_CASE("buffer placement errors", "[sim][buffer][errors]") {
    Buffer shared(tensor<std::int32_t>({4}), "scratch");
    Worker w1([](Buffer) {}, fn_args(shared), {.name = "one"});
    CHECK_THROWS_WITH(Worker([](Buffer) {}, fn_args(shared), {.name = "two"}),
                      "buffer 'scratch' has no tile and is already used by worker 'one'; give it tile= to share it");
    Buffer far(tensor<std::int32_t>({4}), "far", {}, Tile(2, 2));
    ObjectFifo f(tensor<std::int32_t>({4}), "f");
    Worker w([](ObjectFifoHandle, Buffer) {}, fn_args(f.cons(), far), {.tile = Tile(0, 2), .name = "w"});
    Runtime rt([](RuntimeData a, ObjectFifoHandle h) { h.fill(a); }, fn_args(tensor<std::int32_t>({4}), f.prod()));
    CHECK_THROWS_WITH(
        Program("npu1", rt, {w}).resolve(),
        "buffer 'far' on (2,2) is not reachable from worker 'w' on (0,2) (a core reaches its own, west, north and "
        "south memory)");
    CHECK_THROWS_WITH(Buffer(tensor<std::int32_t>({4}), "b", std::vector<std::uint8_t>(3)),
                      "buffer 'b': initial value has 3 B, the type i32[4] has 16 B");
}

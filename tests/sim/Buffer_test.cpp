// Buffers: initial values, a running accumulator kept across iterations, run-time parameter
// writes from the sequence, and placement errors.
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>
#include <cstring>

using namespace npusim;
using namespace npusim::iron;

TEST_CASE("a buffer keeps state across iterations, the sequence writes run-time parameters", "[sim][buffer]") {
    Buffer acc = Buffer::with_values(tensor<std::int32_t>({16}), "acc", std::vector<std::int32_t>(16, 1000));
    Buffer rtp = Buffer(tensor<std::int32_t>({4}), "rtp").use_write_rtp();
    const auto net =
        test::passthrough({.buffers = {acc, rtp},
                           .type = tensor<std::int32_t>({16}),
                           .body =
                               [a = acc, p = rtp](ObjectFifoHandle i, ObjectFifoHandle o) {
                                   auto e = i.acquire(1);
                                   auto f = o.acquire(1);
                                   auto x = e.as<std::int32_t>();
                                   auto y = f.as<std::int32_t>();
                                   auto s = a.as<std::int32_t>();
                                   for (int j = 0; j < 16; ++j) {
                                       s[static_cast<std::size_t>(j)] += x[static_cast<std::size_t>(j)] *
                                                                         p.as<std::int32_t>()[0]; // running sum x scale
                                       y[static_cast<std::size_t>(j)] = s[static_cast<std::size_t>(j)];
                                   }
                                   i.release(1);
                                   o.release(1);
                               },
                           .seq =
                               [&rtp](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                                   rtp.write<std::int32_t>(0, 3);
                                   i.fill(a);
                                   o.drain(b, {.wait = true});
                               },
                           .worker = {.name = "acc"}})
            .resolve();
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

namespace {
// One worker scaling a 16-element tile by its run-time parameter once per barrier phase.
struct RtpDesign {
    ObjectFifo in{tensor<std::int32_t>({16}), "in"}, out{tensor<std::int32_t>({16}), "out"};
    Buffer rtp;
    WorkerRuntimeBarrier barrier;
    explicit RtpDesign(bool write_rtp, int barrier_init = 0)
        : rtp(Buffer::splat<std::int32_t>(tensor<std::int32_t>({1}), "rtp", 1).use_write_rtp(write_rtp)),
          barrier(barrier_init, "phase") {}
    Worker worker(int wait_value = 1) {
        return Worker(
            [wait_value](ObjectFifoHandle i, ObjectFifoHandle o, Buffer p, WorkerRuntimeBarrier b) {
                b.wait_for_value(wait_value);
                auto e = i.acquire(1);
                auto f = o.acquire(1);
                for (int j = 0; j < 16; ++j)
                    f.as<std::int32_t>()[static_cast<std::size_t>(j)] =
                        e.as<std::int32_t>()[static_cast<std::size_t>(j)] * p.as<std::int32_t>()[0];
                i.release(1);
                o.release(1);
                b.release_with_value(1);
            },
            fn_args(in.cons(), out.prod(), rtp, barrier), {.name = "scaler"});
    }
    // Two phases: scale by 3, then by 5, each released by barrier.set(1).
    Program program(int set_value = 1) {
        Runtime rt(
            [this, set_value](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                // One task group per phase, finished before the next phase sets the barrier: the
                // sequence may set it again only after the worker has released phase 1 (else a
                // set(1) that comes first is lost under the worker's release and it waits forever,
                // as it would on the NPU).
                for (int phase = 0; phase < 2; ++phase) {
                    rtp[0] = phase == 0 ? 3 : 5;
                    barrier.set(set_value);
                    TaskGroup g;
                    i.fill(a, {.group = &g});
                    o.drain(b, {.wait = true, .group = &g});
                    g.finish();
                }
            },
            fn_args(tensor<std::int32_t>({16}), tensor<std::int32_t>({16}), in.prod(), out.cons()));
        return Program("npu1_1col", rt, {worker()});
    }
};

std::vector<std::int32_t> run_rtp(const model::Netlist& net, std::vector<std::string>* warnings = nullptr) {
    std::vector<std::uint8_t> a(64);
    for (int k = 0; k < 16; ++k) {
        const std::int32_t v = k + 1;
        std::memcpy(a.data() + 4 * k, &v, 4);
    }
    const auto r = sim::simulate(net, {a, std::vector<std::uint8_t>(64)}, {});
    if (warnings) *warnings = r.warnings;
    std::vector<std::int32_t> c(16);
    std::memcpy(c.data(), r.host[1].data(), 64);
    return c;
}
} // namespace

TEST_CASE("WorkerRuntimeBarrier: the sequence sets it, the worker waits for the value, reads its RTP and releases",
          "[sim][buffer][barrier]") {
    RtpDesign d(true);
    const auto net = d.program().resolve();
    // One lock on the worker's tile with the barrier's initial value, set twice by the sequence.
    int sets = 0;
    for (const auto& op : net.sequence) sets += op.kind == model::RuntimeOp::Kind::SetLock ? 1 : 0;
    CHECK(sets == 2);
    REQUIRE(net.cores.size() == 1);
    REQUIRE(net.cores[0].locks.size() == 1);
    CHECK(net.locks[static_cast<std::size_t>(net.cores[0].locks[0].lock)].name == "phase_scaler");
    // The last phase scales by 5 (the drain of phase 2 overwrites b).
    const auto c = run_rtp(net);
    for (int k = 0; k < 16; ++k) CHECK(c[static_cast<std::size_t>(k)] == 5 * (k + 1));
}

TEST_CASE("an RTP write to a Buffer without use_write_rtp never reaches the array, as on the NPU, and is warned",
          "[sim][buffer][barrier]") {
    RtpDesign d(false);
    const auto net = d.program().resolve();
    REQUIRE(net.warnings.size() == 2);
    CHECK(net.warnings[0] ==
          "buffer 'rtp': the runtime sequence writes 4 B at offset 0 but the Buffer is not use_write_rtp: IRON emits a "
          "memref.store there, which the NPU instruction translation skips, so the write never reaches the array "
          "(dropped here too); declare it with use_write_rtp()");
    const auto c = run_rtp(net);
    for (int k = 0; k < 16; ++k) CHECK(c[static_cast<std::size_t>(k)] == k + 1); // the initial value 1
}

TEST_CASE("WorkerRuntimeBarrier and RTP errors name the object", "[sim][buffer][barrier][errors]") {
    {
        RtpDesign d(true, 64);
        CHECK_THROWS_WITH(d.program().resolve(), "phase: initial value 64 must be within 0..63 (the lock's state)");
    }
    {
        RtpDesign d(true);
        CHECK_THROWS_WITH(d.program(70).resolve(),
                          "phase.set(70): a barrier's value must be within 0..63 (the lock's state)");
    }
    {
        RtpDesign d(true);
        Worker w = d.worker(-1);
        Runtime rt(
            [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                i.fill(a);
                o.drain(b, {.wait = true});
            },
            fn_args(tensor<std::int32_t>({16}), tensor<std::int32_t>({16}), d.in.prod(), d.out.cons()));
        CHECK_THROWS_WITH(Program("npu1_1col", rt, {w}).resolve(),
                          Catch::Contains("worker 'scaler': phase.wait_for_value(-1): a barrier's value must be within "
                                          "0..63 (the lock's state)"));
    }
    CHECK_THROWS_WITH(Buffer::splat<float>(tensor<std::int32_t>({4}), "s", 1.0f),
                      "buffer 's': a f32 initial value cannot fill the type i32[4]");
    const auto b = Buffer::splat<std::int16_t>(tensor<std::int16_t>({2}), "small", 7).use_write_rtp();
    Runtime rt([&b](RuntimeData) { b[0] = 40000; }, fn_args(tensor<std::int32_t>({4})));
    CHECK_THROWS_WITH(Program("npu1_1col", rt, {}).resolve(),
                      Catch::Contains("buffer 'small' (i16[2]): rtp[0] = 40000 does not fit a i16 element"));
    Runtime rt2([&b](RuntimeData) { b[2] = 1; }, fn_args(tensor<std::int32_t>({4})));
    CHECK_THROWS_WITH(Program("npu1_1col", rt2, {}).resolve(),
                      Catch::Contains("buffer 'small' (i16[2]): rtp[2] is outside its 2 elements"));
    WorkerRuntimeBarrier lonely(0, "lonely");
    CHECK_THROWS_WITH(lonely.wait_for_value(1), "lonely: wait_for_value() called outside a worker body");
    CHECK_THROWS_WITH(lonely.set(1), "lonely: set() called outside the runtime sequence");
}

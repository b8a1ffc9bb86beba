// The remaining ObjectFifo options, each through the whole path: init_values, via_DMA between
// neighbours, consumer_obj_type (asymmetric granularity), set_iter_count, the seed's to_stream
// spelling, and the shim d0 size limit.
#include "FifoState.hpp"
#include "NetlistQuery.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>
#include <cstring>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::bytes_of;
using npusim::test::lock_init;
using npusim::test::values_of;

TEST_CASE("init_values: the producer side starts full", "[sim][fifo]") {
    // A worker produces nothing: the two initial objects are all that flows.
    ObjectFifo f(tensor<std::int32_t>({4}), "f", 2,
                 {.init_values = {bytes_of(std::vector<std::int32_t>{1, 2, 3, 4}),
                                  bytes_of(std::vector<std::int32_t>{5, 6, 7, 8})}});
    Worker idle(
        [](ObjectFifoHandle h) {
            add_cycles(1);
            (void)h;
        },
        fn_args(f.prod()), {.while_true = false, .name = "idle"});
    Runtime rt([](RuntimeData b, ObjectFifoHandle c) { c.drain(b, {.wait = true}); },
               fn_args(tensor<std::int32_t>({8}), f.cons()));
    const auto n = Program("npu1", rt, {idle}).resolve();
    CHECK(lock_init(n, "f_prod_lock_0") == 0);
    CHECK(lock_init(n, "f_cons_lock_0") == 2);
    const auto r = sim::simulate(n, {std::vector<std::uint8_t>(32)}, {});
    CHECK(values_of<std::int32_t>(r.host[0]) == std::vector<std::int32_t>{1, 2, 3, 4, 5, 6, 7, 8});
}

TEST_CASE("via_DMA splits a fifo between neighbours that could share memory", "[sim][fifo]") {
    auto build = [](bool via) {
        ObjectFifo in(tensor<std::int32_t>({8}), "in"), mid(tensor<std::int32_t>({8}), "mid", 2, {.via_dma = via}),
            out(tensor<std::int32_t>({8}), "out");
        auto copy = [](ObjectFifoHandle a, ObjectFifoHandle b) {
            auto e = a.acquire(1);
            auto g = b.acquire(1);
            std::memcpy(g.data(), e.data(), 32);
            a.release(1);
            b.release(1);
        };
        Worker w1(copy, fn_args(in.cons(), mid.prod())), w2(copy, fn_args(mid.cons(), out.prod()));
        Runtime rt(
            [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                i.fill(a);
                o.drain(b, {.wait = true});
            },
            fn_args(tensor<std::int32_t>({32}), tensor<std::int32_t>({32}), in.prod(), out.cons()));
        return Program("npu1_1col", rt, {w1, w2}).resolve();
    };
    const auto shared = build(false), dma = build(true);
    CHECK(shared.flows.size() == 2);
    CHECK(dma.flows.size() == 3);
    std::vector<std::int32_t> a(32);
    for (std::size_t i = 0; i < 32; ++i) a[i] = static_cast<std::int32_t>(i * i);
    for (const auto* n : {&shared, &dma}) {
        const auto r = sim::simulate(*n, {bytes_of(a), std::vector<std::uint8_t>(128)}, {});
        CHECK(values_of<std::int32_t>(r.host[1]) == a);
    }
}

TEST_CASE("consumer_obj_type: one 16-element object feeds four 4-element acquires", "[sim][fifo]") {
    ObjectFifo in(tensor<std::int32_t>({16}), "in", 1, {.consumer_obj_type = tensor<std::int32_t>({4})}),
        out(tensor<std::int32_t>({4}), "out");
    Worker w(
        [](ObjectFifoHandle a, ObjectFifoHandle b) {
            auto e = a.acquire(1);
            REQUIRE(e.elements() == 4);
            auto g = b.acquire(1);
            for (int i = 0; i < 4; ++i) g.at<std::int32_t>(i) = e.at<std::int32_t>(i) * 10;
            a.release(1);
            b.release(1);
        },
        fn_args(in.cons(), out.prod()));
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({32}), tensor<std::int32_t>({32}), in.prod(), out.cons()));
    const auto n = Program("npu2", rt, {w}).resolve();
    std::vector<std::int32_t> a(32);
    for (std::size_t i = 0; i < 32; ++i) a[i] = static_cast<std::int32_t>(i + 1);
    const auto r = sim::simulate(n, {bytes_of(a), std::vector<std::uint8_t>(128)}, {});
    const auto c = values_of<std::int32_t>(r.host[1]);
    for (std::size_t i = 0; i < 32; ++i) REQUIRE(c[i] == a[i] * 10);
    CHECK_THROWS_WITH(
        ObjectFifo(tensor<std::int32_t>({16}), "bad", 1, {.consumer_obj_type = tensor<std::int32_t>({5})}),
        "fifo 'bad': consumer_obj_type i32[5] must have the element type of i32[16] and divide its element count");
}

TEST_CASE("set_iter_count ends a mem-tile chain, the rest of the stream is not forwarded", "[sim][fifo]") {
    ObjectFifo in(tensor<std::int32_t>({8}), "in");
    auto fwd = in.cons().forward();
    fwd.set_iter_count(1); // each chain runs once over its 2 buffers: 2 objects pass, then it stops
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({16}), tensor<std::int32_t>({16}), in.prod(), fwd.cons()));
    const auto n = Program("npu1", rt, {}).resolve();
    for (const auto& ch : n.channels) CHECK(ch.bds.back().next == -1);
    std::vector<std::int32_t> a(16, 3);
    const auto r = sim::simulate(n, {bytes_of(a), std::vector<std::uint8_t>(64)}, {});
    CHECK(values_of<std::int32_t>(r.host[1]) == a);
    std::string msg;
    try {
        ObjectFifo in2(tensor<std::int32_t>({8}), "in2");
        auto fwd2 = in2.cons().forward();
        fwd2.set_iter_count(1);
        Runtime rt2(
            [](RuntimeData a2, RuntimeData b2, ObjectFifoHandle i, ObjectFifoHandle o) {
                i.fill(a2);
                o.drain(b2, {.wait = true});
            },
            fn_args(tensor<std::int32_t>({24}), tensor<std::int32_t>({24}), in2.prod(), fwd2.cons()));
        const auto n2 = Program("npu1", rt2, {}).resolve();
        sim::simulate(n2, {std::vector<std::uint8_t>(96), std::vector<std::uint8_t>(96)}, {});
    } catch (const SimulationError& e) {
        msg = e.what();
        CHECK(e.kind() == SimulationError::Kind::Deadlock);
    }
    CHECK_THAT(msg, Catch::Contains("deadlock at cycle")); // a third object has nowhere to go
    CHECK_THROWS_WITH(fwd.set_iter_count(0), "fifo 'in_fwd': set_iter_count(0) must be within 1..256");
}

TEST_CASE("the seed's to_stream spelling, shim d0 size limit", "[sim][fifo]") {
    ObjectFifo a(tensor<std::int32_t>({8}), "a", 2, {.to_stream = {{2, 4}, {4, 1}}});
    CHECK(a.state()->dims_to_stream.size() == 2);
    CHECK_THROWS_WITH(
        ObjectFifo(tensor<std::int32_t>({8}), "b", 2, {.dims_to_stream = {{8, 1}}, .to_stream = {{8, 1}}}),
        "fifo 'b': give dims_to_stream or to_stream, not both");
    ObjectFifo in(tensor<std::int32_t>({2048}), "in");
    auto fwd = in.cons().forward();
    Runtime rt(
        [](RuntimeData x, RuntimeData y, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(x, {.tap = TensorAccessPattern({2, 2048}, 0, {1, 1, 2, 1024},
                                                  {0, 0, 2048, 1})}); // d0 = 1024 words > 1023
            o.drain(y, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({2, 2048}), tensor<std::int32_t>({2048}), in.prod(), fwd.cons()));
    CHECK_THROWS_WITH(
        Program("npu1", rt, {}).resolve(),
        "fill of fifo 'in' (tap(offset=0, sizes=[1,1,2,1024], strides=[0,0,2048,1])): d0 size 1024 / d1 size 2 words "
        "exceed 1023 (10-bit size field of a shim BD)");
}

// Data through split/join, repeat_count and mem-tile padding, against goldens computed here.
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <random>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::bytes_of;
using npusim::test::values_of;

namespace {
sim::SimOptions opts() {
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2);
    return o;
}
} // namespace

TEST_CASE("split to four workers and join back moves every segment to its worker", "[sim][links]") {
    for (const char* dev : {"npu1_1col", "npu2"}) {
        ObjectFifo in(tensor<std::int32_t>({2048}), "in"), out(tensor<std::int32_t>({2048}), "out");
        const std::vector<std::int64_t> offs{0, 512, 1024, 1536};
        auto parts = in.cons().split(offs, {.obj_types = std::vector<TensorType>(4, tensor<std::int32_t>({512}))});
        auto back = out.prod().join(offs, {.obj_types = std::vector<TensorType>(4, tensor<std::int32_t>({512}))});
        std::vector<Worker> ws;
        for (int i = 0; i < 4; ++i)
            ws.emplace_back(
                [i](ObjectFifoHandle a, ObjectFifoHandle b) {
                    auto e = a.acquire(1);
                    auto f = b.acquire(1);
                    auto x = e.as<std::int32_t>();
                    auto y = f.as<std::int32_t>();
                    for (std::size_t j = 0; j < x.size(); ++j) y[j] = x[j] + (i + 1);
                    a.release(1);
                    b.release(1);
                },
                fn_args(parts[static_cast<std::size_t>(i)].cons(), back[static_cast<std::size_t>(i)].prod()));
        Runtime rt(
            [](RuntimeData a, RuntimeData b, ObjectFifoHandle h, ObjectFifoHandle o) {
                h.fill(a);
                o.drain(b, {.wait = true});
            },
            fn_args(tensor<std::int32_t>({8192}), tensor<std::int32_t>({8192}), in.prod(), out.cons()));
        const auto net = Program(dev, rt, ws).resolve();
        std::mt19937 rng(5);
        std::vector<std::int32_t> a(8192);
        for (auto& x : a) x = static_cast<std::int32_t>(rng() % 100000);
        const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(8192 * 4)}, opts());
        const auto c = values_of<std::int32_t>(r.host[1]);
        for (std::size_t k = 0; k < a.size(); ++k)
            REQUIRE(c[k] == a[k] + static_cast<std::int32_t>((k % 2048) / 512) + 1);
    }
}

TEST_CASE("repeat_count sends every object R times", "[sim][links]") {
    ObjectFifo in(tensor<std::int32_t>({64}), "in", 1);
    auto fwd = in.cons().forward({.depth = 1, .repeat_count = 3});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({128}), tensor<std::int32_t>({384}), in.prod(), fwd.cons()));
    const auto net = Program("npu1", rt, {}).resolve();
    std::vector<std::int32_t> a(128);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int32_t>(i * 7);
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(384 * 4)}, opts());
    const auto c = values_of<std::int32_t>(r.host[1]);
    for (std::size_t k = 0; k < 384; ++k) REQUIRE(c[k] == a[(k / 192) * 64 + k % 64]); // object 0 x3, object 1 x3
}

TEST_CASE("mem-tile padding surrounds each object with the pad value", "[sim][links]") {
    // The output object is the padded one (10 x 12): a padded BD's length counts the padding and
    // the toolchain refuses a smaller one (DMABDOp::verify "Data exceeds len after padding.",
    // AIEDialect.cpp:2477-2485; tests/sim/Padding_test.cpp).
    ObjectFifo in2(tensor<std::int32_t>({64}), "in2");
    auto fwd2 = in2.cons().forward({.obj_type = tensor<std::int32_t>({120}),
                                    .dims_to_stream = {{8, 8}, {8, 1}},
                                    .pad_dimensions = {{1, 1}, {2, 2}},
                                    .pad_value = 7});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({64}), tensor<std::int32_t>({120}), in2.prod(), fwd2.cons()));
    const auto net = Program("npu2", rt, {}).resolve();
    std::vector<std::int32_t> a(64);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int32_t>(100 + i);
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(120 * 4)}, opts());
    const auto c = values_of<std::int32_t>(r.host[1]);
    for (int row = 0; row < 10; ++row)
        for (int col = 0; col < 12; ++col) {
            const bool inside = row >= 1 && row <= 8 && col >= 2 && col <= 9;
            const std::int32_t want = inside ? a[static_cast<std::size_t>((row - 1) * 8 + (col - 2))] : 7;
            REQUIRE(c[static_cast<std::size_t>(row * 12 + col)] == want);
        }
}

TEST_CASE("a forward may change the object size: the mem tile holds and moves the larger object", "[sim][links]") {
    // ml/conv2d's pattern (conv2d.py): 2-row objects into the mem tile, forwarded as 1-row objects to
    // a core, whose 1-row results are forwarded as 2-row objects back. The toolchain accepts it
    // (ObjectFifoLinkOp::verify has no size rule for a 1-to-1 link) and builds the link's buffers
    // from the larger fifo (AIEObjectFifoStatefulTransform.cpp createObjectFifoElements, "check
    // which objectfifo of the link has bigger size"), both mem-tile channels moving the larger
    // object per BD (createMemTileDMA: lenOut = targetLen).
    ObjectFifo in(tensor<std::int32_t>({128}), "in");
    auto row_in = in.cons().forward({.obj_type = tensor<std::int32_t>({64}), .name = "row_in"});
    ObjectFifo row_out(tensor<std::int32_t>({64}), "row_out");
    auto out = row_out.cons().forward({.obj_type = tensor<std::int32_t>({128}), .name = "out"});
    Worker w(
        [](ObjectFifoHandle a, ObjectFifoHandle b) {
            auto e = a.acquire(1);
            auto f = b.acquire(1);
            auto x = e.as<std::int32_t>();
            auto y = f.as<std::int32_t>();
            for (std::size_t j = 0; j < x.size(); ++j) y[j] = 3 * x[j] + static_cast<std::int32_t>(j);
            a.release(1);
            b.release(1);
        },
        fn_args(row_in.cons(), row_out.prod()));
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({1024}), tensor<std::int32_t>({1024}), in.prod(), out.cons()));
    const auto net = Program("npu1_1col", rt, {w}).resolve();
    // The mem tile holds 2 x 512 B for each link (the larger objects), both of its channels per
    // link move 512 B per BD; the core's buffers are 256 B.
    for (const auto& b : net.buffers) CHECK(b.bytes == (b.tile.row == 1 ? 512u : 256u));
    int memtile_channels = 0;
    for (const auto& ch : net.channels)
        if (ch.tile.row == 1) {
            ++memtile_channels;
            for (const auto& bd : ch.bds) CHECK(bd.length_bytes == 512u);
        }
    CHECK(memtile_channels == 4);
    std::vector<std::int32_t> a(1024);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int32_t>(i * 5 - 700);
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(1024 * 4)}, opts());
    const auto c = values_of<std::int32_t>(r.host[1]);
    for (std::size_t k = 0; k < a.size(); ++k) REQUIRE(c[k] == 3 * a[k] + static_cast<std::int32_t>(k % 64));
}

TEST_CASE("a segment of two sub-objects: the consumer's BDs take the mem tile's segment in two objects, a join's "
          "producer fills one segment with two",
          "[sim][links]") {
    // upstream ml/mobilenet cascade.py:348 splits a 76,800-element weight object at offsets 0 and
    // 38,400 into 19,200-element objects: the mem tile's BD moves the whole segment
    // (getDistributeTransferLengths) and the consumer's S2MM BDs complete two objects from it.
    for (const char* dev : {"npu1_1col", "npu2"}) {
        ObjectFifo in(tensor<std::int32_t>({1024}), "in"), out(tensor<std::int32_t>({1024}), "out");
        const std::vector<std::int64_t> offs{0, 512};
        const std::vector<TensorType> quarter(2, tensor<std::int32_t>({256}));
        auto parts = in.cons().split(offs, {.obj_types = quarter});
        auto back = out.prod().join(offs, {.obj_types = quarter});
        std::vector<Worker> ws;
        for (int i = 0; i < 2; ++i)
            ws.emplace_back(
                [i](ObjectFifoHandle a, ObjectFifoHandle b) {
                    for (int half = 0; half < 2; ++half) {
                        auto e = a.acquire(1);
                        auto f = b.acquire(1);
                        auto x = e.as<std::int32_t>();
                        auto y = f.as<std::int32_t>();
                        for (std::size_t j = 0; j < x.size(); ++j) y[j] = x[j] * 3 + 10 * (i + 1) + half;
                        a.release(1);
                        b.release(1);
                    }
                },
                fn_args(parts[static_cast<std::size_t>(i)].cons(), back[static_cast<std::size_t>(i)].prod()));
        Runtime rt(
            [](RuntimeData a, RuntimeData b, ObjectFifoHandle h, ObjectFifoHandle o) {
                h.fill(a);
                o.drain(b, {.wait = true});
            },
            fn_args(tensor<std::int32_t>({3072}), tensor<std::int32_t>({3072}), in.prod(), out.cons()));
        const auto net = Program(dev, rt, ws).resolve();
        std::vector<std::int32_t> a(3072);
        for (std::size_t k = 0; k < a.size(); ++k) a[k] = static_cast<std::int32_t>(k * 5 % 9973) - 4000;
        const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(3072 * 4)}, opts());
        const auto c = values_of<std::int32_t>(r.host[1]);
        for (std::size_t k = 0; k < a.size(); ++k) {
            const std::size_t within = k % 1024; // segment (worker) within / 512, object half (within % 512) / 256
            REQUIRE(c[k] == a[k] * 3 + 10 * static_cast<std::int32_t>(within / 512 + 1) +
                                 static_cast<std::int32_t>((within % 512) / 256));
        }
    }
}

// Port::stream / aie_stream at resolve: the stream end has no buffer and no DMA channel, its flow
// starts or ends at the core's stream port; the toolchain's rules with its messages
// (ObjectFifoCreateOp::verify, lib/Dialect/AIE/IR/AIEDialect.cpp `if (auto aieStream =
// getAieStream())`; AIEObjectFifoStatefulTransform.cpp reservePinnedChannels, checkAIEStreamIndex
// and the acquire/release check; the lit tests test/objectFifo-stateful-transform/aie_stream/*).
// docs/resolve-lowlevel.md "Stream ports".
#include "npusim/iron.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;
using Catch::Matchers::Contains;

namespace {

const TensorType line = tensor<std::int32_t>({16});

// in (runtime -> worker w) and out (worker w -> runtime); `prod_opts` / `cons_opts` for out's ends.
model::Netlist stream_out_design(ProdOptions prod_opts, FifoOptions fifo_opts = {},
                                 const std::string& dev = "npu1_1col",
                                 std::function<void(ObjectFifoHandle, ObjectFifoHandle)> body = nullptr) {
    if (!body)
        body = [](ObjectFifoHandle i, ObjectFifoHandle) {
            i.acquire(1);
            i.release(1);
        };
    return test::passthrough({.type = line,
                              .body = std::move(body),
                              .out = std::move(fifo_opts),
                              .out_prod = std::move(prod_opts),
                              .host_elements = line.elements(),
                              .device = dev,
                              .program = "stream_out"})
        .resolve();
}

} // namespace

TEST_CASE("a stream-port producer end has no buffer and no MM2S channel: its flow starts at the core",
          "[frontend][stream_port]") {
    const auto net = stream_out_design({.port = Port::stream(0)});
    // Only `in` has a consumer ring and an S2MM channel on the worker's tile.
    for (const auto& ch : net.channels) CHECK_FALSE(ch.prov.object == "out");
    for (const auto& b : net.buffers) CHECK(b.name.rfind("out", 0) != 0);
    const model::Flow* out = nullptr;
    int index = -1;
    for (std::size_t i = 0; i < net.flows.size(); ++i)
        if (net.flows[i].prov.object == "out") out = &net.flows[i], index = static_cast<int>(i);
    REQUIRE(out);
    CHECK(out->from_core);
    CHECK_FALSE(out->to_core);
    CHECK(out->source.tile == net.cores.at(0).tile);
    CHECK(out->source.channel == 0);
    CHECK(net.cores.at(0).stream_out == index);
    CHECK(net.cores.at(0).stream_in == -1);
    CHECK(net.cores.at(0).rings.size() == 1); // `in` only
    CHECK_THAT(net.dump(), Contains("  (0,2) Core 0 -> (0,0) S2MM 0 ("));
    bool recorded = false;
    for (const auto& e : net.fifo_ends)
        if (e.fifo == "out" && e.consumer == -1) {
            CHECK(e.holding == model::FifoEndHolding::StreamPort);
            CHECK(std::string(model::fifo_end_holding_name(e.holding)) == "core stream port");
            recorded = true;
        }
    CHECK(recorded);
}

TEST_CASE("a stream port between two cores that share memory still uses the stream (requiresDMAs)",
          "[frontend][stream_port]") {
    // AIEObjectFifoStatefulTransform requiresDMAs: `if (createOp.getAieStream()) return true;`.
    ObjectFifo in(line, "in"), mid(line, "mid"), out(line, "out");
    Worker a([](ObjectFifoHandle i, ObjectFifoHandle) { i.acquire(1), i.release(1); },
             fn_args(in.cons(), mid.prod({.port = Port::stream(0)})), {.tile = Tile(0, 2), .name = "a"});
    Worker b(
        [](ObjectFifoHandle, ObjectFifoHandle o) {
            o.acquire(1);
            o.release(1);
        },
        fn_args(mid.cons({.port = Port::stream(0)}), out.prod()), {.tile = Tile(0, 3), .name = "b"});
    Runtime rt(
        [](RuntimeData x, RuntimeData y, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(x);
            o.drain(y, {.wait = true});
        },
        fn_args(line, line, in.prod(), out.cons()));
    const auto net = Program("npu1_1col", rt, {a, b}, "two").resolve();
    const model::Flow* f = nullptr;
    for (const auto& x : net.flows)
        if (x.prov.object == "mid") f = &x;
    REQUIRE(f);
    CHECK(f->from_core);
    CHECK(f->to_core);
    CHECK(net.cores.at(0).stream_out >= 0);
    CHECK(net.cores.at(1).stream_in == net.cores.at(0).stream_out);
}

TEST_CASE("Port::dma(n) pins the DMA channel like channel = n", "[frontend][stream_port]") {
    const auto net = stream_out_design({.port = Port::dma(1)});
    bool found = false;
    for (const auto& ch : net.channels)
        if (ch.prov.object == "out") {
            CHECK(ch.channel == 1);
            found = true;
        }
    CHECK(found);
    CHECK_THROWS_WITH(stream_out_design({.channel = 0, .port = Port::dma(1)}),
                      "fifo 'out': producer given channel 0 and Port::dma(1); give one");
}

TEST_CASE("a stream-port end cannot be acquired or released", "[frontend][stream_port][errors]") {
    // test/objectFifo-stateful-transform/aie_stream/bad_acquire.mlir, bad_release.mlir
    CHECK_THROWS_WITH(stream_out_design({.port = Port::stream(0)}, {}, "npu1_1col",
                                        [](ObjectFifoHandle, ObjectFifoHandle o) { o.acquire(1); }),
                      Contains("acquire(1) on fifo 'out' producer: 'aie.objectfifo.acquire' op cannot acquire from "
                               "objectfifo stream port (this end is Port::stream(0); its kernel moves words with "
                               "put_ms / get_ss)"));
    CHECK_THROWS_WITH(stream_out_design({.port = Port::stream(0)}, {}, "npu1_1col",
                                        [](ObjectFifoHandle, ObjectFifoHandle o) { o.release(1); }),
                      Contains("release(1) on fifo 'out' producer: 'aie.objectfifo.release' op cannot release from "
                               "objectfifo stream port"));
}

TEST_CASE("stream port numbers: a compute tile's core has one stream port each way",
          "[frontend][stream_port][errors]") {
    for (const int port : {1, -1}) {
        INFO(port);
        CHECK_THROWS_WITH(stream_out_design({.port = Port::stream(port)}),
                          "fifo 'out': fifo 'out' producer is Port::stream(" + std::to_string(port) +
                              "), out of range: a compute tile's core has 1 output stream port (Core 0; "
                              "AIE2TargetModel getNumSourceSwitchboxConnections / isLegalTileConnection)");
    }
}

TEST_CASE("a DMA channel pin and a stream port on one fifo are refused", "[frontend][stream_port][errors]") {
    CHECK_THROWS_WITH(stream_out_design({.channel = 1, .port = Port::stream(0)}),
                      "fifo 'out': cannot pin a DMA channel on an objectfifo that also uses aie_stream (stream ports "
                      "bypass DMA channels) (fifo 'out' producer pins DMA channel 1, its producer is a stream port)");
}

TEST_CASE("ObjectFifoCreateOp::verify's aie_stream rules", "[frontend][stream_port][errors]") {
    SECTION("producer-side options unavailable on a stream end") {
        CHECK_THROWS_WITH(stream_out_design({.port = Port::stream(0)}, {.repeat_count = 2}),
                          "fifo 'out': `repeat_count` unavailable on stream end (its producer is Port::stream(0))");
        CHECK_THROWS_WITH(stream_out_design({.port = Port::stream(0)}, {.dims_to_stream = {{4, 4}, {4, 1}}}),
                          "fifo 'out': `dimensionsToStream` data layout transformations are unavailable on stream end "
                          "(its producer is Port::stream(0))");
        FifoOptions init;
        init.init_values = {std::vector<std::uint8_t>(64), std::vector<std::uint8_t>(64)};
        CHECK_THROWS_WITH(stream_out_design({.port = Port::stream(0)}, init),
                          "fifo 'out': `init_values` unavailable on stream end (its producer is Port::stream(0))");
    }
    SECTION("1-to-1 only") {
        ObjectFifo in(line, "in"), out(line, "out");
        Worker w([](ObjectFifoHandle i, ObjectFifoHandle) { i.acquire(1), i.release(1); },
                 fn_args(in.cons(), out.prod({.port = Port::stream(0)})), {.name = "w"});
        Runtime rt(
            [](RuntimeData a, RuntimeData b, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle o1,
               ObjectFifoHandle o2) {
                i.fill(a);
                o1.drain(b);
                o2.drain(c, {.wait = true});
            },
            fn_args(line, line, line, in.prod(), out.cons(), out.cons()));
        CHECK_THROWS_WITH(Program("npu1_1col", rt, {w}, "bc").resolve(),
                          "fifo 'out': `aie_stream` can only be used in 1-to-1 object FIFOs (its producer is a "
                          "stream port and it has 2 consumers)");
    }
    SECTION("not on shim tiles (a runtime end)") {
        ObjectFifo in(line, "in");
        Worker w([](ObjectFifoHandle i) { i.acquire(1), i.release(1); }, fn_args(in.cons()), {.name = "w"});
        Runtime rt([](RuntimeData a, ObjectFifoHandle i) { i.fill(a, {.wait = true}); },
                   fn_args(line, in.prod({.port = Port::stream(0)})));
        CHECK_THROWS_WITH(Program("npu1_1col", rt, {w}, "shim").resolve(),
                          "fifo 'in': `aie_stream` is not available for shim and mem tiles (fifo 'in' producer is "
                          "Port::stream(0) but is filled or drained by the runtime sequence)");
    }
    SECTION("consumer-side dims unavailable on a stream end") {
        const auto p =
            test::passthrough({.type = line,
                               .body = [](ObjectFifoHandle, ObjectFifoHandle o) { o.acquire(1), o.release(1); },
                               .in_cons = {.dims_from_stream = {{4, 4}, {4, 1}}, .port = Port::stream(0)},
                               .host_elements = line.elements(),
                               .program = "dims"});
        CHECK_THROWS_WITH(p.resolve(),
                          "fifo 'in': `dimensionsFromStreamPerConsumer` data layout transformations are unavailable "
                          "on stream end (its consumer is a stream port)");
    }
}

TEST_CASE("one core stream port per direction: a second stream producer on a worker is refused",
          "[frontend][stream_port][errors]") {
    ObjectFifo in(line, "in"), o1(line, "o1"), o2(line, "o2");
    Worker w([](ObjectFifoHandle i, ObjectFifoHandle, ObjectFifoHandle) { i.acquire(1), i.release(1); },
             fn_args(in.cons(), o1.prod({.port = Port::stream(0)}), o2.prod({.port = Port::stream(0)})),
             {.tile = Tile(0, 2), .name = "w"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle x, ObjectFifoHandle y) {
            i.fill(a);
            x.drain(b);
            y.drain(c, {.wait = true});
        },
        fn_args(line, line, line, in.prod(), o1.cons(), o2.cons()));
    CHECK_THROWS_WITH(Program("npu1_1col", rt, {w}, "two_out").resolve(),
                      "fifo 'o2': 'aie.tile' op number of output Core channels exceeded! (tile (0,2): worker 'w' "
                      "already sends fifo 'o1' on its stream port 0)");
}

TEST_CASE("the export prints a stream-port end as upstream's aie_stream attributes",
          "[frontend][stream_port][export]") {
    // (end, port) as test/objectFifo-stateful-transform/aie_stream/producer_stream_AIE2.mlir spells it.
    // Both ends of the worker are stream ports: its kernel would get_ss / put_ms every word.
    const auto text = export_mlir(test::passthrough({.type = line,
                                                     .body = [](ObjectFifoHandle, ObjectFifoHandle) {},
                                                     .in_cons = {.port = Port::stream(0)},
                                                     .out_prod = {.port = Port::stream(0)},
                                                     .host_elements = line.elements(),
                                                     .program = "t"}));
    CHECK_THAT(text, Contains("aie.objectfifo @out(%logical_core, {%logical_shim_noc_0}, 2 : i32) {aie_stream = 0 : "
                              "i32, aie_stream_port = 0 : i32} : !aie.objectfifo<memref<16xi32>>"));
    CHECK_THAT(text, Contains("{aie_stream = 1 : i32, aie_stream_port = 0 : i32} : !aie.objectfifo<memref<16xi32>>"));
}

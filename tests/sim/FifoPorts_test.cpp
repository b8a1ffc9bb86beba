// ObjectFifo ergonomics and DMA ports: generated fifo names, IRON's keyword arguments
// as option structs (prod({...}), cons({...})), and prod/cons `channel=` (the seed's Port.dma(n))
// pinning an end's DMA channel. The toolchain's rules are cited at each test; designs are
// resolved and simulated against references computed here.
#include "FifoState.hpp"
#include "NetlistQuery.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <regex>

using namespace npusim;
using namespace npusim::iron;
using model::Direction;
using model::TileKind;
using npusim::test::bytes_of;
using npusim::test::channel_of;
using npusim::test::has_buffer;
using npusim::test::values_of;

namespace {

// Each object plus `add` (element-wise, int32).
void add_k(ObjectFifoHandle i, ObjectFifoHandle o, std::int32_t add) {
    auto e = i.acquire(1);
    auto f = o.acquire(1);
    const auto* a = reinterpret_cast<const std::int32_t*>(e.data());
    auto* b = reinterpret_cast<std::int32_t*>(f.data());
    for (std::size_t k = 0; k < e[0].bytes() / 4; ++k) b[k] = a[k] + add;
    i.release(1);
    o.release(1);
}

std::vector<std::int32_t> iota_vec(std::size_t n, std::int32_t start) {
    std::vector<std::int32_t> v(n);
    for (std::size_t k = 0; k < n; ++k) v[k] = start + static_cast<std::int32_t>(k) * 3;
    return v;
}

int fifo_index(const std::string& name) {
    static const std::regex re("of([0-9]+)");
    std::smatch m;
    REQUIRE(std::regex_match(name, m, re));
    return std::stoi(m[1].str());
}

} // namespace

// ---- generated names (python/iron/dataflow/objectfifo.py ObjectFifo.__init__: name None ->
//      f"of{next(ObjectFifo._of_index)}", a class-wide itertools.count()) ---------------------

TEST_CASE("ObjectFifo without a name: IRON's \"of<N>\" from one counter, in construction order", "[sim][fifo][names]") {
    ObjectFifo a(tensor<std::int32_t>({16}));
    ObjectFifo b(tensor<std::int32_t>({16}), 3);
    ObjectFifo c(tensor<std::int32_t>({16}), FifoOptions{.via_dma = true});
    ObjectFifo named(tensor<std::int32_t>({16}), "named"); // a named fifo takes no number
    ObjectFifo d(tensor<std::int32_t>({16}));
    CHECK(fifo_index(b.name()) == fifo_index(a.name()) + 1);
    CHECK(fifo_index(c.name()) == fifo_index(a.name()) + 2);
    CHECK(fifo_index(d.name()) == fifo_index(a.name()) + 3);
    CHECK(b.depth() == 3);
    CHECK(c.state()->via_dma);
    CHECK(named.name() == "named");
}

TEST_CASE("unnamed fifos: a design runs, its buffers and messages use the generated names", "[sim][fifo][names]") {
    ObjectFifo in(tensor<std::int32_t>({16})), out(tensor<std::int32_t>({16}));
    Worker w([](ObjectFifoHandle i, ObjectFifoHandle o) { add_k(i, o, 5); }, fn_args(in.cons(), out.prod()),
             {.name = "w"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({64}), tensor<std::int32_t>({64}), in.prod(), out.cons()));
    const auto n = Program("npu1_1col", rt, {w}).resolve();
    CHECK(has_buffer(n, in.name() + "_cons_buff_0"));
    CHECK(has_buffer(n, out.name() + "_buff_0"));
    const auto a = iota_vec(64, -20);
    const auto r = sim::simulate(n, {bytes_of(a), std::vector<std::uint8_t>(256)}, {});
    std::vector<std::int32_t> want(64);
    for (std::size_t k = 0; k < 64; ++k) want[k] = a[k] + 5;
    CHECK(values_of<std::int32_t>(r.host[1]) == want);

    ObjectFifo bad(tensor<std::int32_t>({16}));
    CHECK_THROWS_WITH(bad.prod(0), "fifo '" + bad.name() + "': producer depth 0 must be >= 1");
    CHECK_THROWS_WITH(ObjectFifo(tensor<std::int32_t>({16}), ""),
                      "ObjectFifo: the name is empty; give a name or none (IRON then generates of0, of1, ...)");
}

// ---- keyword arguments as option structs (IRON prod(depth, channel, tile), cons(depth,
//      dims_from_stream, channel, tile)) -----------------------------------------------------

TEST_CASE("cons({.dims_from_stream}) and prod({.depth, .tile}) mean what the positional forms mean",
          "[sim][fifo][options]") {
    // The consumer's S2MM writes the 4x16 object transposed: (16, 1) outer, (4, 16) inner.
    auto run = [](bool options) {
        ObjectFifo in(tensor<std::int32_t>({64}), "in"), out(tensor<std::int32_t>({64}), "out");
        const StreamDims t = {{16, 1}, {4, 16}};
        auto ic = options ? in.cons({.dims_from_stream = t}) : in.cons(std::nullopt, std::nullopt, t);
        auto ip = options ? in.prod({.depth = 2, .tile = Tile(0, 0)}) : in.prod(2, Tile(0, 0));
        Worker w([](ObjectFifoHandle i, ObjectFifoHandle o) { add_k(i, o, 0); }, fn_args(ic, out.prod()),
                 {.name = "w"});
        Runtime rt(
            [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                i.fill(a);
                o.drain(b, {.wait = true});
            },
            fn_args(tensor<std::int32_t>({64}), tensor<std::int32_t>({64}), ip, out.cons({.tile = Tile(0, 0)})));
        const auto n = Program("npu1_1col", rt, {w}).resolve();
        return values_of<std::int32_t>(
            sim::simulate(n, {bytes_of(iota_vec(64, 1)), std::vector<std::uint8_t>(256)}, {}).host[1]);
    };
    // Reference: the stream carries x[0..63] in order; word s = 4 i + j (outer i of size 16 and
    // stride 1, inner j of size 4 and stride 16) lands at i + 16 j.
    const auto x = iota_vec(64, 1);
    std::vector<std::int32_t> want(64);
    for (std::size_t s = 0; s < 64; ++s) want[s / 4 + (s % 4) * 16] = x[s];
    CHECK(run(true) == want);
    CHECK(run(false) == want);
}

// ---- channel= (AIEObjectFifoStatefulTransform reservePinnedChannels / DMAChannelAnalysis::
//      reservePinnedChannel; python/iron/dataflow/objectfifo.py prod()/cons() channel=) -------

namespace {
struct PinnedDesign {
    ObjectFifo in{tensor<std::int32_t>({16}), "in"}, side{tensor<std::int32_t>({16}), "side"},
        out{tensor<std::int32_t>({16}), "out"};
};

// shim -> in (+ side) -> worker 'w' -> out -> shim; the worker adds the side object to each input.
Program pinned_program(PinnedDesign& d, ConsOptions in_cons, ConsOptions side_cons, ProdOptions out_prod) {
    Worker w(
        [](ObjectFifoHandle i, ObjectFifoHandle s, ObjectFifoHandle o) {
            auto e = i.acquire(1);
            auto g = s.acquire(1);
            auto f = o.acquire(1);
            const auto* a = reinterpret_cast<const std::int32_t*>(e.data());
            const auto* b = reinterpret_cast<const std::int32_t*>(g.data());
            auto* c = reinterpret_cast<std::int32_t*>(f.data());
            for (int k = 0; k < 16; ++k) c[k] = a[k] + b[k];
            i.release(1);
            s.release(1);
            o.release(1);
        },
        fn_args(d.in.cons(in_cons), d.side.cons(side_cons), d.out.prod(out_prod)), {.name = "w"});
    Runtime rt(
        [](RuntimeData a, RuntimeData s, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle si, ObjectFifoHandle o) {
            i.fill(a);
            si.fill(s);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({64}), tensor<std::int32_t>({64}), tensor<std::int32_t>({64}), d.in.prod(),
                d.side.prod(), d.out.cons()));
    return Program("npu1_1col", rt, {w}, "pins");
}

std::vector<std::int32_t> run_pinned(const model::Netlist& n) {
    return values_of<std::int32_t>(
        sim::simulate(n, {bytes_of(iota_vec(64, 7)), bytes_of(iota_vec(64, -100)), std::vector<std::uint8_t>(256)}, {})
            .host[2]);
}
} // namespace

TEST_CASE("channel= pins an end's DMA channel, reserved before first-free assignment, outputs unchanged",
          "[sim][fifo][channel]") {
    std::vector<std::int32_t> want(64);
    const auto a = iota_vec(64, 7), s = iota_vec(64, -100);
    for (std::size_t k = 0; k < 64; ++k) want[k] = a[k] + s[k];

    PinnedDesign plain;
    const auto n0 = pinned_program(plain, {}, {}, {}).resolve();
    CHECK(channel_of(n0, "in", Direction::S2MM, TileKind::Compute).channel == 0);
    CHECK(channel_of(n0, "side", Direction::S2MM, TileKind::Compute).channel == 1);
    CHECK(channel_of(n0, "out", Direction::MM2S, TileKind::Compute).channel == 0);
    CHECK(run_pinned(n0) == want);

    // Pin `in` to S2MM 1 and `out` to MM2S 1: `side`, lowered after `in` was reserved, gets 0.
    PinnedDesign pinned;
    const auto n1 = pinned_program(pinned, {.channel = 1}, {}, {.channel = 1}).resolve();
    CHECK(channel_of(n1, "in", Direction::S2MM, TileKind::Compute).channel == 1);
    CHECK(channel_of(n1, "side", Direction::S2MM, TileKind::Compute).channel == 0);
    CHECK(channel_of(n1, "out", Direction::MM2S, TileKind::Compute).channel == 1);
    // The flows follow the channels.
    for (const auto& f : n1.flows)
        if (f.prov.object == "in") CHECK(f.dests.at(0).channel == 1);
    CHECK(run_pinned(n1) == want);
}

TEST_CASE("channel= on a runtime end pins the shim DMA channel", "[sim][fifo][channel]") {
    PinnedDesign d;
    ObjectFifo& in = d.in;
    Worker w([](ObjectFifoHandle i, ObjectFifoHandle o) { add_k(i, o, 1); }, fn_args(in.cons(), d.out.prod()),
             {.name = "w"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({64}), tensor<std::int32_t>({64}), in.prod({.channel = 1}),
                d.out.cons({.channel = 1})));
    const auto n = Program("npu1_1col", rt, {w}).resolve();
    for (const auto& f : n.flows) {
        if (f.prov.object == "in") CHECK((f.source.tile.row == 0 && f.source.channel == 1));
        if (f.prov.object == "out") CHECK((f.dests.at(0).tile.row == 0 && f.dests.at(0).channel == 1));
    }
    const auto a = iota_vec(64, 3);
    const auto r = sim::simulate(n, {bytes_of(a), std::vector<std::uint8_t>(256)}, {});
    std::vector<std::int32_t> want(64);
    for (std::size_t k = 0; k < 64; ++k) want[k] = a[k] + 1;
    CHECK(values_of<std::int32_t>(r.host[1]) == want);
}

TEST_CASE("channel= refused as the toolchain refuses it: out of range, taken twice, negative, re-pinned",
          "[sim][fifo][channel]") {
    {
        PinnedDesign d; // a compute tile has 2 S2MM channels (0, 1)
        CHECK_THROWS_WITH(pinned_program(d, {.channel = 2}, {}, {}).resolve(),
                          "compute tile (0,2): fifo 'in' (consumer 0): pinned S2MM DMA channel 2 is out of range or "
                          "already in use on this tile (the tile has 2 S2MM channels)");
    }
    {
        PinnedDesign d;
        CHECK_THROWS_WITH(pinned_program(d, {.channel = 1}, {.channel = 1}, {}).resolve(),
                          "compute tile (0,2): fifo 'side' (consumer 0): pinned S2MM DMA channel 1 is out of range or "
                          "already in use on this tile (taken by fifo 'in' (consumer 0))");
    }
    CHECK_THROWS_WITH(ObjectFifo(tensor<std::int32_t>({16}), "f").cons({.channel = -1}),
                      "fifo 'f': consumer DMA channel -1 must be >= 0");
    ObjectFifo f(tensor<std::int32_t>({16}), "f");
    f.prod({.channel = 0});
    CHECK_NOTHROW(f.prod({.channel = 0}));
    CHECK_THROWS_WITH(f.prod({.channel = 1}), "fifo 'f': producer already pinned to DMA channel 0, cannot re-pin to 1");
    ObjectFifo g(tensor<std::int32_t>({16}), "g");
    g.prod();
    CHECK_THROWS_WITH(g.prod({.channel = 1}),
                      "fifo 'g': producer already pinned to DMA channel None, cannot re-pin to 1");
}

TEST_CASE("channel= on a fifo whose cores share memory: runs without DMA, as upstream, and warns",
          "[sim][fifo][channel]") {
    ObjectFifo in(tensor<std::int32_t>({16}), "in"), mid(tensor<std::int32_t>({16}), "mid"),
        out(tensor<std::int32_t>({16}), "out");
    Worker w1([](ObjectFifoHandle i, ObjectFifoHandle o) { add_k(i, o, 2); }, fn_args(in.cons(), mid.prod()),
              {.tile = Tile(0, 2), .name = "w1"});
    Worker w2([](ObjectFifoHandle i, ObjectFifoHandle o) { add_k(i, o, 10); },
              fn_args(mid.cons({.channel = 1}), out.prod()), {.tile = Tile(0, 3), .name = "w2"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({64}), tensor<std::int32_t>({64}), in.prod(), out.cons()));
    const auto n = Program("npu1_1col", rt, {w1, w2}).resolve();
    REQUIRE(n.warnings.size() == 1);
    CHECK(n.warnings[0] == "fifo 'mid': its DMA channel pin has no effect: both ends share memory, so the fifo uses "
                           "no DMA channel (give via_dma to move it by DMA)");
    for (const auto& c : n.channels) CHECK(c.prov.object != "mid");
    const auto a = iota_vec(64, 0);
    const auto r = sim::simulate(n, {bytes_of(a), std::vector<std::uint8_t>(256)}, {});
    std::vector<std::int32_t> want(64);
    for (std::size_t k = 0; k < 64; ++k) want[k] = a[k] + 12;
    CHECK(values_of<std::int32_t>(r.host[1]) == want);
}

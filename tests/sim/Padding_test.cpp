// Mem-tile MM2S padding as the toolchain lowers it (mlir-aie at 3ca0193): the link buffer of a
// forward to a larger, padded object is the input's (AIEObjectFifoStatefulTransform.cpp:957-963),
// the output BD streams the padded object (:1502-1507); split/join with one sub-fifo is that same
// forward (AIEOps.td:2238-2239 isJoin / isDistribute need more than one); ObjectFifoLink is the
// explicit form; the pad value is the per-element value packed into the channel's 32-bit
// CONSTANT_PAD_VALUE word (python/helpers/util.py:221-238), which only NPU2 has
// (AIETargetModel.h:926). Data are checked byte for byte against goldens computed here.
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::bytes_of;
using npusim::test::values_of;

namespace {

constexpr std::int64_t kReal = 8, kBefore = 4, kAfter = 4, kRegion = kBefore + kReal + kAfter, kCount = 3;

template <class T>
std::vector<T> run(const std::string& device, const ObjectFifo& in, const ObjectFifo& out, model::Netlist* net_out = nullptr) {
    Runtime rt(
        [](RuntimeData a, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(c, {.wait = true});
        },
        fn_args(tensor<T>({kCount * kReal}), tensor<T>({kCount * kRegion}), in.prod(), out.cons()));
    const auto net = Program(device, rt, {}).resolve();
    if (net_out) *net_out = net;
    std::vector<T> a(static_cast<std::size_t>(kCount * kReal));
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<T>(10 + i);
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::device_by_name(device).arch);
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(kCount * kRegion * sizeof(T))}, o);
    return values_of<T>(r.host[1]);
}

template <class T>
std::vector<T> golden(T pad) {
    std::vector<T> c;
    for (std::int64_t k = 0; k < kCount; ++k) {
        c.insert(c.end(), kBefore, pad);
        for (std::int64_t i = 0; i < kReal; ++i) c.push_back(static_cast<T>(10 + k * kReal + i));
        c.insert(c.end(), kAfter, pad);
    }
    return c;
}

const model::DmaChannelProgram& mem_channel(const model::Netlist& net, model::Direction dir) {
    for (const auto& ch : net.channels)
        if (ch.tile.row == 1 && ch.dir == dir) return ch;
    FAIL("no mem-tile channel");
    return net.channels.front();
}

// The mem tile of a padded forward holds the input-sized object and its two channels move their
// own objects: S2MM the input (32 B), MM2S the padded output (64 B, 8 data words + 4 + 4 pad words).
void check_input_sized_pool(const model::Netlist& net) {
    const auto& s2mm = mem_channel(net, model::Direction::S2MM);
    const auto& mm2s = mem_channel(net, model::Direction::MM2S);
    for (const auto& bd : s2mm.bds) {
        CHECK(bd.length_bytes == kReal * 4);
        CHECK(net.buffers[static_cast<std::size_t>(bd.buffer)].bytes == kReal * 4);
        CHECK(bd.pad.empty());
    }
    for (const auto& bd : mm2s.bds) {
        CHECK(bd.length_bytes == kRegion * 4);
        CHECK(net.buffers[static_cast<std::size_t>(bd.buffer)].bytes == kReal * 4);
        CHECK(bd.pad == std::vector<model::PadDim>{{kBefore, kAfter}});
    }
}

ObjectFifo padded_forward(const ObjectFifo& in, std::int64_t pad) {
    return in.cons().forward({.obj_type = tensor<std::int32_t>({kRegion}),
                              .name = "out",
                              .dims_to_stream = {{kReal, 1}},
                              .pad_dimensions = {{kBefore, kAfter}},
                              .pad_value = pad});
}

} // namespace

TEST_CASE("a forward to a larger padded object keeps the input-sized buffer and streams the padding",
          "[sim][padding]") {
    // AIEObjectFifoStatefulTransform.cpp:957-963: "When output has padDimensions, MemTile buffer
    // should use input (smaller) size"; :1502-1507: the output keeps its own (padded) length.
    for (const auto& [device, pad] : {std::pair{"npu1_1col", std::int64_t{0}}, std::pair{"npu2", std::int64_t{1000}}}) {
        INFO(device);
        ObjectFifo in(tensor<std::int32_t>({kReal}), "in");
        ObjectFifo out = padded_forward(in, pad);
        model::Netlist net;
        CHECK(run<std::int32_t>(device, in, out, &net) == golden<std::int32_t>(static_cast<std::int32_t>(pad)));
        check_input_sized_pool(net);
        for (const auto& b : net.buffers)
            if (b.tile.row == 1) CHECK(b.name.rfind("in_cons_buff_", 0) == 0);
    }
}

TEST_CASE("split with one output is the forward: it may enlarge and pad the object, pad_value per output",
          "[sim][padding]") {
    // AIEOps.td:2239 isDistribute: more than one output; objectfifo.py split(pad_value=[...]).
    ObjectFifo in(tensor<std::int32_t>({kReal}), "in");
    auto outs = in.cons().split({0}, {.obj_types = {tensor<std::int32_t>({kRegion})},
                                      .names = {"out"},
                                      .dims_to_stream = {{{kReal, 1}}},
                                      .pad_dimensions = {{{kBefore, kAfter}}},
                                      .pad_value = {-5}});
    REQUIRE(outs.size() == 1);
    model::Netlist net;
    CHECK(run<std::int32_t>("npu2", in, outs[0], &net) == golden<std::int32_t>(-5));
    check_input_sized_pool(net);
    CHECK(mem_channel(net, model::Direction::MM2S).bds[0].pad_word == 0xFFFFFFFBu);
    // The same design written with forward() resolves to the same mem-tile programs.
    ObjectFifo in2(tensor<std::int32_t>({kReal}), "in");
    model::Netlist fwd;
    run<std::int32_t>("npu2", in2, padded_forward(in2, -5), &fwd);
    for (auto dir : {model::Direction::S2MM, model::Direction::MM2S}) {
        const auto &a = mem_channel(net, dir).bds, &b = mem_channel(fwd, dir).bds;
        REQUIRE(a.size() == b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            CHECK(a[i].length_bytes == b[i].length_bytes);
            CHECK(a[i].pad == b[i].pad);
            CHECK(a[i].pad_word == b[i].pad_word);
            CHECK(a[i].dims == b[i].dims);
        }
    }
}

TEST_CASE("split's pad_value list needs one entry per output", "[sim][padding]") {
    ObjectFifo in(tensor<std::int32_t>({16}), "in");
    CHECK_THROWS_WITH(in.cons().split({0, 8}, {.pad_value = {1}}),
                      "fifo 'in': split() pad_value has 1 entries for 2 sub-fifos");
}

TEST_CASE("ObjectFifoLink(in.cons(), out.prod()) links a padded output fifo built directly", "[sim][padding]") {
    // python/iron/dataflow/objectfifo.py:1135 ObjectFifoLink: the explicit form of forward().
    ObjectFifo in(tensor<std::int8_t>({kReal}), "in");
    ObjectFifo out(tensor<std::int8_t>({kRegion}), "out", 2,
                   {.dims_to_stream = {{kReal, 1}}, .pad_dimensions = {{kBefore, kAfter}}, .pad_value = 8});
    ObjectFifoLink(in.cons(), out.prod());
    model::Netlist net;
    // An i8 value is replicated across the 32-bit word (util.py pack_pad_value: 0x08080808).
    CHECK(run<std::int8_t>("npu2", in, out, &net) == golden<std::int8_t>(8));
    CHECK(mem_channel(net, model::Direction::MM2S).bds[0].pad_word == 0x08080808u);
    // The element count of the mem tile's buffer is the input's: 8 i8 = 2 words.
    CHECK(net.buffers[static_cast<std::size_t>(mem_channel(net, model::Direction::S2MM).bds[0].buffer)].bytes == 8);
}

TEST_CASE("ObjectFifoLink with several outputs is a split at the given offsets", "[sim][padding]") {
    ObjectFifo in(tensor<std::int32_t>({16}), "in");
    ObjectFifo x(tensor<std::int32_t>({8}), "x"), y(tensor<std::int32_t>({8}), "y");
    ObjectFifoLink(std::vector<ObjectFifoHandle>{in.cons()}, std::vector<ObjectFifoHandle>{x.prod(), y.prod()},
                   AnyMemTile, {}, {0, 8});
    ObjectFifo out(tensor<std::int32_t>({16}), "out");
    ObjectFifoLink(std::vector<ObjectFifoHandle>{x.cons(), y.cons()}, std::vector<ObjectFifoHandle>{out.prod()},
                   AnyMemTile, {0, 8});
    Runtime rt(
        [](RuntimeData a, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(c, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({32}), tensor<std::int32_t>({32}), in.prod(), out.cons()));
    const auto net = Program("npu1_1col", rt, {}).resolve();
    std::vector<std::int32_t> a(32);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int32_t>(3 * i + 1);
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2);
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(32 * 4)}, o);
    CHECK(values_of<std::int32_t>(r.host[1]) == a);
}

TEST_CASE("padding per dimension: each dimension's before/after repeat the padded inner block", "[sim][padding]") {
    // A 3-D pattern over a 2 x 3 x 4 object padded in every dimension, against a direct reading
    // of the padded index space: position (i0, i1, i2) of the padded box is data when every index
    // is inside its dimension's [before, before + size), else the pad word (the address
    // generator of a mem-tile MM2S with zero-padding, docs/hardware-sources.md zero_padding).
    const std::int64_t s0 = 2, s1 = 3, s2 = 4;
    const PadDims pad = {{1, 0}, {0, 2}, {1, 1}};
    const std::int64_t p0 = s0 + 1, p1 = s1 + 2, p2 = s2 + 2;
    ObjectFifo in(tensor<std::int32_t>({s0 * s1 * s2}), "in");
    ObjectFifo out = in.cons().forward({.obj_type = tensor<std::int32_t>({p0 * p1 * p2}),
                                        .dims_to_stream = {{s0, s1 * s2}, {s1, s2}, {s2, 1}},
                                        .pad_dimensions = pad,
                                        .pad_value = 77});
    Runtime rt(
        [](RuntimeData a, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(c, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({s0 * s1 * s2}), tensor<std::int32_t>({p0 * p1 * p2}), in.prod(), out.cons()));
    const auto net = Program("npu2", rt, {}).resolve();
    std::vector<std::int32_t> a(static_cast<std::size_t>(s0 * s1 * s2));
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int32_t>(i + 1);
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2P);
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(p0 * p1 * p2 * 4)}, o);
    const auto c = values_of<std::int32_t>(r.host[1]);
    std::size_t k = 0;
    for (std::int64_t i0 = 0; i0 < p0; ++i0)
        for (std::int64_t i1 = 0; i1 < p1; ++i1)
            for (std::int64_t i2 = 0; i2 < p2; ++i2, ++k) {
                const std::int64_t d0 = i0 - 1, d1 = i1, d2 = i2 - 1;
                const bool data = d0 >= 0 && d0 < s0 && d1 >= 0 && d1 < s1 && d2 >= 0 && d2 < s2;
                INFO("padded position " << i0 << "," << i1 << "," << i2);
                REQUIRE(c[k] == (data ? a[static_cast<std::size_t>(d0 * s1 * s2 + d1 * s2 + d2)] : 77));
            }
}

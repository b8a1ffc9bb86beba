// split / join / forward links, repeat_count and data-layout limits: lowering structure against
// the rules R4, R5, R8, R9 of docs/resolve.md "Rule labels", and their errors.
#include "npusim/iron.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;

namespace {
const model::DmaChannelProgram& channel(const model::Netlist& n, model::TileCoord t, model::Direction d, int ch) {
    for (const auto& c : n.channels)
        if (c.tile == t && c.dir == d && c.channel == ch) return c;
    FAIL("no channel");
    throw;
}
int lock_init(const model::Netlist& n, const std::string& name) {
    for (const auto& l : n.locks)
        if (l.name == name) return l.init;
    FAIL("no lock " << name);
    return -1;
}
void one_each(ObjectFifoHandle i, ObjectFifoHandle o) {
    auto e = i.acquire(1);
    auto f = o.acquire(1);
    std::copy(e.as<std::int32_t>().begin(), e.as<std::int32_t>().end(), f.as<std::int32_t>().begin());
    i.release(1);
    o.release(1);
}

// shim -> in (i32[2048]) -> split into 4 x i32[512] -> 4 workers -> join into out (i32[2048]) -> shim
Program split_join(const std::string& dev, std::vector<std::int64_t> offsets = {0, 512, 1024, 1536}, int depth = 2) {
    ObjectFifo in(tensor<std::int32_t>({2048}), "in", depth), out(tensor<std::int32_t>({2048}), "out", depth);
    auto parts = in.cons().split(offsets, {.obj_types = std::vector<TensorType>(4, tensor<std::int32_t>({512})),
                                           .names = {"memA0", "memA1", "memA2", "memA3"}});
    auto back = out.prod().join(offsets, {.obj_types = std::vector<TensorType>(4, tensor<std::int32_t>({512})),
                                          .names = {"memC0", "memC1", "memC2", "memC3"}});
    std::vector<Worker> ws;
    for (int i = 0; i < 4; ++i)
        ws.emplace_back(one_each,
                        fn_args(parts[static_cast<std::size_t>(i)].cons(), back[static_cast<std::size_t>(i)].prod()));
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({8192}), tensor<std::int32_t>({8192}), in.prod(), out.cons()));
    return Program(dev, rt, ws, "split_join");
}
} // namespace

TEST_CASE("split: one pool on the mem tile, a lock pair and an MM2S channel per sub-fifo", "[frontend][links]") {
    const auto n = split_join("npu1_1col").resolve();
    // pool: the input's link-side copy, depth 2 (a mem tile keeps the declared depth)
    int pool = 0;
    for (const auto& b : n.buffers)
        if (b.name.rfind("in_cons_buff_", 0) == 0) {
            ++pool;
            CHECK(b.tile == model::TileCoord{0, 1});
            CHECK(b.bytes == 8192);
        }
    CHECK(pool == 2);
    for (int i = 0; i < 4; ++i) {
        CHECK(lock_init(n, "in_cons_prod_lock_" + std::to_string(i)) == 2);
        CHECK(lock_init(n, "in_cons_cons_lock_" + std::to_string(i)) == 0);
    }
    // S2MM: depth x n BDs, segment r of each buffer, cyclic (R9)
    const auto& s2mm = channel(n, {0, 1}, model::Direction::S2MM, 0);
    REQUIRE(s2mm.bds.size() == 8);
    for (std::size_t k = 0; k < 8; ++k) {
        CHECK(s2mm.bds[k].offset_bytes == (k % 4) * 2048);
        CHECK(s2mm.bds[k].length_bytes == 2048);
        CHECK(s2mm.bds[k].next == static_cast<int>((k + 1) % 8));
    }
    // Each output has its own MM2S channel with one BD per buffer over its segment.
    for (int i = 0; i < 4; ++i) {
        const auto& mm2s = channel(n, {0, 1}, model::Direction::MM2S, i);
        REQUIRE(mm2s.bds.size() == 2);
        CHECK(mm2s.bds[0].offset_bytes == static_cast<std::uint32_t>(i) * 2048);
        CHECK(n.locks[static_cast<std::size_t>(mm2s.bds[0].acquire_lock)].name ==
              "in_cons_cons_lock_" + std::to_string(i));
        CHECK(n.locks[static_cast<std::size_t>(mm2s.bds[0].release_lock)].name ==
              "in_cons_prod_lock_" + std::to_string(i));
    }
    // join mirrors it: the output's pool and lock pairs, n S2MM channels, one MM2S with 8 BDs
    CHECK(lock_init(n, "out_prod_lock_3") == 2);
    CHECK(channel(n, {0, 1}, model::Direction::MM2S, 4).bds.size() == 8);
    // fifos lower in name order: in (S2MM 0), memA0-3 (MM2S 0-3), memC0-3 (S2MM 1-4), out (MM2S 4)
    CHECK(channel(n, {0, 1}, model::Direction::S2MM, 4).bds[0].offset_bytes == 3 * 2048);
    CHECK(channel(n, {0, 1}, model::Direction::S2MM, 4).bds[1].offset_bytes == 3 * 2048);
}

TEST_CASE("repeat_count on a forward: the pool's free-slot lock counts depth x R", "[frontend][links]") {
    ObjectFifo in(tensor<std::int32_t>({64}), "in", 1);
    auto fwd = in.cons().forward({.depth = 1, .repeat_count = 3});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({64}), tensor<std::int32_t>({192}), in.prod(), fwd.cons()));
    const auto n = Program("npu1", rt, {}).resolve();
    CHECK(lock_init(n, "in_cons_prod_lock_0") == 3);
    const auto& s2mm = channel(n, {0, 1}, model::Direction::S2MM, 0);
    CHECK(s2mm.bds[0].acquire_value == 3); // the input side moves R at a time
    const auto& mm2s = channel(n, {0, 1}, model::Direction::MM2S, 0);
    REQUIRE(mm2s.bds.size() == 1); // depth 1: one BD with a hardware repeat
    CHECK(mm2s.bds[0].repeat == 2);
    // --netlist shows it (BD repeat counts in the dump)
    CHECK_THAT(n.dump(), Catch::Contains("next 0  repeat 2"));
}

TEST_CASE("link errors: offsets out of order or outside the object, sub-object sizes that are no whole "
          "multiple of the offsets' segments (getDistributeTransferLengths)",
          "[frontend][links][errors]") {
    // The mem tile moves offset-derived segments (AIEDialect.cpp getDistributeTransferLengths:
    // to the next offset, the last to the end of the object); the toolchain checks nothing more.
    // npusim refuses only an object that is no whole multiple of its segment nor a whole part of it.
    ObjectFifo in(tensor<std::int32_t>({2048}), "in");
    CHECK_THROWS_WITH(
        in.cons().split({0, 384}, {.obj_types = {tensor<std::int32_t>({256}), tensor<std::int32_t>({512})}}),
        "fifo 'in_split0': object of 256 elements but split offsets give segment [0,384) of 384 elements; the mem "
        "tile moves the segment (AIEDialect.cpp getDistributeTransferLengths), so one must be a whole multiple of "
        "the other");
    CHECK_THROWS_WITH(
        in.cons().split({0, 1800}, {.obj_types = {tensor<std::int32_t>({512}), tensor<std::int32_t>({512})}}),
        Catch::Contains("fifo 'in_split0': object of 512 elements but split offsets give segment [0,1800)"));
    // Whole multiples either way stream as written (mobilenet cascade.py:348: a segment of two objects).
    CHECK_NOTHROW(ObjectFifo(tensor<std::int32_t>({2048}), "in2")
                      .cons()
                      .split({0, 1024}, {.obj_types = {tensor<std::int32_t>({512}), tensor<std::int32_t>({2048})}}));
    CHECK_THROWS_WITH(in.cons().split({0, 2048}),
                      "fifo 'in': split() offset 2048 of sub-fifo 1 is outside the parent object of 2048 elements");
    CHECK_THROWS_WITH(in.cons().split({512, 256}),
                      "fifo 'in': split() offsets must increase: sub-fifos 0 and 1 overlap (offset 512 then 256)");
    CHECK_THROWS_WITH(in.prod().split({0}), "fifo 'in': split() is only available on consumer handles");
    CHECK_THROWS_WITH(in.cons().split({0, 1024}, {.names = {"one"}}),
                      "fifo 'in': split() names has 1 entries for 2 sub-fifos");
}

TEST_CASE("link errors: mem tile BDs, channels and memory run out", "[frontend][links][errors]") {
    // 8 segments x depth 4 = 32 BDs on one even channel; even channels share BDs 0-23
    {
        ObjectFifo in(tensor<std::int32_t>({1024}), "in", 4);
        std::vector<std::int64_t> offs;
        for (int i = 0; i < 8; ++i) offs.push_back(128 * i);
        auto parts = in.cons().split(offs);
        std::vector<ObjectFifoHandle> outs;
        for (auto& p : parts) outs.push_back(p.cons());
        Runtime rt([](RuntimeData a, ObjectFifoHandle i, std::vector<ObjectFifoHandle>) { i.fill(a); },
                   fn_args(tensor<std::int32_t>({1024}), in.prod(), outs));
        // AIEPlacer.cpp placeNonCoreTileByCentroid's message ("MemTile": stringifyAIETileType)
        CHECK_THROWS_WITH(Program("npu1_1col", rt, {}).resolve(),
                          "link of fifo 'in': no MemTile has sufficient DMA capacity for 1 input/8 output channels "
                          "near centroid column 0");
    }
    {
        ObjectFifo in(tensor<std::int32_t>({1024}), "in", 8);
        std::vector<std::int64_t> offs{0, 256, 512, 768};
        auto parts = in.cons().split(offs);
        std::vector<ObjectFifoHandle> sinks;
        Runtime rt(
            [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle p0, ObjectFifoHandle p1,
               ObjectFifoHandle p2, ObjectFifoHandle p3) {
                i.fill(a);
                for (auto* p : {&p0, &p1, &p2, &p3}) p->drain(b);
            },
            fn_args(tensor<std::int32_t>({1024}), tensor<std::int32_t>({256}), in.prod(), parts[0].cons(),
                    parts[1].cons(), parts[2].cons(), parts[3].cons()));
        CHECK_THROWS_WITH(
            Program("npu1", rt, {}).resolve(),
            "mem tile (0,1): link of fifo 'in' needs 32 BDs on S2MM channel 0 but only 24 of BDs 0-23 are free: "
            "Allocator exhausted available BD IDs (maximum 24 available for channel 0).");
    }
    {
        ObjectFifo big(tensor<std::int32_t>({80000}), "big", 2); // 2 x 320000 B > 512 KiB
        auto fwd = big.cons().forward();
        Runtime rt(
            [](RuntimeData a, ObjectFifoHandle i, ObjectFifoHandle o) {
                i.fill(a);
                o.drain(a, {.wait = true});
            },
            fn_args(tensor<std::int32_t>({80000}), big.prod(), fwd.cons()));
        // npu1_1col: no neighbour mem tile to take the second element (on npu2 it goes to (1,1):
        // tests/sim/MemTileSpill_test.cpp).
        CHECK_THROWS_WITH(
            Program("npu1_1col", rt, {}).resolve(),
            "mem tile (0,1): Basic sequential allocation also failed. Out of data memory: needs 640000 B ('big' 2 x "
            "320000 B) but the tile has 524288 B; buffer big_cons_buff_1 of 320000 B does not fit, and no neighbour "
            "mem tile shares memory with this one");
    }
}

TEST_CASE("data layout limits of tile BDs", "[frontend][links][errors]") {
    auto make = [](StreamDims dims) {
        ObjectFifo in(tensor<std::int32_t>({256}), "in", 2, {.dims_to_stream = dims}),
            out(tensor<std::int32_t>({256}), "out");
        Worker w(one_each, fn_args(in.cons(), out.prod()));
        Worker src(
            [](ObjectFifoHandle o) {
                auto e = o.acquire(1);
                (void)e;
                o.release(1);
            },
            fn_args(in.prod()));
        Runtime rt([](RuntimeData b, ObjectFifoHandle o) { o.drain(b, {.wait = true}); },
                   fn_args(tensor<std::int32_t>({256}), out.cons()));
        return Program("npu1", rt, {src, w});
    };
    CHECK_THROWS_WITH(make({{2, 128}, {2, 64}, {4, 16}, {16, 1}}).resolve(),
                      "fifo 'in' dims_to_stream: 4 dimensions but a compute tile BD supports 3");
    CHECK_THROWS_WITH(
        make({{2, 9000}, {128, 1}}).resolve(),
        "fifo 'in' dims_to_stream: dimension 0 stride 9000 words exceeds the 13-bit stride field of a compute tile "
        "BD (max 8192)");
    CHECK_THROWS_WITH(
        make({{300, 1}}).resolve(),
        "fifo 'in' dims_to_stream: dimension 0 size 300 exceeds the 8-bit size field of a compute tile BD (max 255)");
}

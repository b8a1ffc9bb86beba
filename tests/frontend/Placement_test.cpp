// Link (mem-tile) placement as mlir-aie's SequentialPlacer does it
// (lib/Dialect/AIE/Transforms/AIEPlacer.cpp: placeNonCoreLogicalTiles, computeCentroidColumn,
// findTileWithCapacity, validateAndUpdateChannelUsage); docs/resolve.md, "Mem-tile placement and
// memory allocation".
#include "npusim/iron.hpp"
#include "resolve/Placement.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;
using Catch::Matchers::Contains;

namespace {
const model::DmaChannelProgram* channel_of(const model::Netlist& n, const std::string& object, model::Direction d) {
    for (const auto& c : n.channels)
        if (c.dir == d && c.prov.object == object) return &c;
    return nullptr;
}
model::TileCoord buffer_tile(const model::Netlist& n, const std::string& name) {
    for (const auto& b : n.buffers)
        if (b.name == name) return b.tile;
    FAIL("no buffer " << name);
    return {};
}

void pass(ObjectFifoHandle i, ObjectFifoHandle o) {
    auto e = i.acquire(1);
    auto f = o.acquire(1);
    std::copy(e.as<std::int32_t>().begin(), e.as<std::int32_t>().end(), f.as<std::int32_t>().begin());
    i.release(1);
    o.release(1);
}
void pass2(ObjectFifoHandle i0, ObjectFifoHandle i1, ObjectFifoHandle o0, ObjectFifoHandle o1) {
    pass(i0, o0);
    pass(i1, o1);
}
void pass_and_sink(ObjectFifoHandle i, ObjectFifoHandle sink, ObjectFifoHandle o) {
    pass(i, o);
    sink.acquire(1);
    sink.release(1);
}

// npu1_2col (mem tiles: 6 S2MM / 6 MM2S), every core in column 0. Fifo "in" is split 1 -> 5
// (1 S2MM + 5 MM2S), the workers' outputs joined 5 -> 1 into "out" (5 S2MM + 1 MM2S): together
// exactly one mem tile. "a_small" is split 1 -> 2 (1 S2MM + 2 MM2S); its name sorts first, so it
// is the first link in program order. `pin` pins all three links to (0,1). Depth 1 keeps the BDs
// of the two big links within the mem tile's 24 even + 24 odd ones (at depth 2 the even ones run out).
Program three_links(bool pin) {
    const auto seg = tensor<std::int32_t>({64});
    const Tile where = pin ? Tile(0, 1) : AnyMemTile;
    ObjectFifo in(tensor<std::int32_t>({320}), "in", 1), out(tensor<std::int32_t>({320}), "out", 1);
    ObjectFifo small(tensor<std::int32_t>({128}), "a_small", 1);
    auto s = in.cons().split(
        {0, 64, 128, 192, 256},
        {.tile = where, .obj_types = std::vector<TensorType>(5, seg), .names = {"s0", "s1", "s2", "s3", "s4"}});
    auto j = out.prod().join(
        {0, 64, 128, 192, 256},
        {.tile = where, .obj_types = std::vector<TensorType>(5, seg), .names = {"j0", "j1", "j2", "j3", "j4"}});
    auto t = small.cons().split({0, 64}, {.tile = where, .obj_types = {seg, seg}, .names = {"t0", "t1"}});
    std::vector<Worker> ws;
    ws.emplace_back(pass2, fn_args(s[0].cons(), s[1].cons(), j[0].prod(), j[1].prod()), WorkerOptions{.tile = {0, 2}});
    ws.emplace_back(pass_and_sink, fn_args(s[2].cons(), t[0].cons(), j[2].prod()), WorkerOptions{.tile = {0, 3}});
    ws.emplace_back(pass_and_sink, fn_args(s[3].cons(), t[1].cons(), j[3].prod()), WorkerOptions{.tile = {0, 4}});
    ws.emplace_back(pass, fn_args(s[4].cons(), j[4].prod()), WorkerOptions{.tile = {0, 5}});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle sm, ObjectFifoHandle o) {
            i.fill(a);
            sm.fill(b);
            o.drain(c, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({320}), tensor<std::int32_t>({128}), tensor<std::int32_t>({320}), in.prod(),
                small.prod(), out.cons()));
    return Program("npu1_2col", rt, ws, "three_links");
}
} // namespace

// AIEPlacer.cpp placeNonCoreLogicalTiles sorts by descending channel demand; findTileWithCapacity
// then takes the tile nearest the centroid column that still has the channels. Program order would
// put "a_small" on (0,1) first and push the 5-way split and the join to (1,1); by demand the split
// (6 channels) and the join (6) fill (0,1) and the 1 -> 2 split (3) goes to the neighbour (1,1).
TEST_CASE("SequentialPlacer: heaviest link first, a full mem tile sends the next link to its neighbour",
          "[frontend][placement]") {
    const auto n = three_links(false).resolve();
    CHECK(buffer_tile(n, "in_cons_buff_0") == model::TileCoord{0, 1}); // split 1 -> 5 pool
    CHECK(buffer_tile(n, "out_buff_0") == model::TileCoord{0, 1}); // join 5 -> 1 pool
    CHECK(buffer_tile(n, "a_small_cons_buff_0") == model::TileCoord{1, 1}); // split 1 -> 2 pool
    const auto* t1 = channel_of(n, "t1", model::Direction::MM2S);
    REQUIRE(t1);
    CHECK(t1->tile == model::TileCoord{1, 1});
}

// Pinned links are never moved: SequentialPlacer::validateAndUpdateChannelUsage rejects a pinned
// tile without the channels, with "tile (c, r) requires i input/o output DMA channels, but only a
// input/b output available". Pinned links are checked in program order: "a_small" (1/2) fits, the
// 5-way split (1/5) then finds only 4 MM2S left.
TEST_CASE("SequentialPlacer: a pinned mem tile without the DMA channels is a DesignError", "[frontend][placement]") {
    CHECK_THROWS_WITH(three_links(true).resolve(), "link of fifo 'in': tile (0, 1) requires 1 input/5 output DMA "
                                                   "channels, but only 5 input/4 output available");
}

// AIEPlacer.cpp computeCentroidColumn: the link goes to the column of the cores it serves (here
// (1,2) and (1,3) on npu1_2col). A link with only runtime (shim) ends has centroid 0 in the
// toolchain; npusim's departure (docs/resolve.md) takes the least loaded tile, ties to column 0.
TEST_CASE("SequentialPlacer: a link sits at the centroid column of its cores", "[frontend][placement]") {
    auto build = [](bool with_cores) {
        ObjectFifo in(tensor<std::int32_t>({128}), "in", 2);
        auto parts = in.cons().split({0, 64}, {.names = {"p0", "p1"}});
        std::vector<Worker> ws;
        auto sink = [](ObjectFifoHandle i) {
            i.acquire(1);
            i.release(1);
        };
        if (with_cores) {
            ws.emplace_back(sink, fn_args(parts[0].cons()), WorkerOptions{.tile = {1, 2}});
            ws.emplace_back(sink, fn_args(parts[1].cons()), WorkerOptions{.tile = {1, 3}});
            Runtime rt([](RuntimeData a, ObjectFifoHandle i) { i.fill(a); },
                       fn_args(tensor<std::int32_t>({128}), in.prod()));
            return Program("npu1_2col", rt, ws).resolve();
        }
        Runtime rt(
            [](RuntimeData a, ObjectFifoHandle i, ObjectFifoHandle p0, ObjectFifoHandle p1) {
                i.fill(a);
                p0.drain(a);
                p1.drain(a);
            },
            fn_args(tensor<std::int32_t>({128}), in.prod(), parts[0].cons(), parts[1].cons()));
        return Program("npu1_2col", rt, ws).resolve();
    };
    CHECK(buffer_tile(build(true), "in_cons_buff_0") == model::TileCoord{1, 1});
    CHECK(buffer_tile(build(false), "in_cons_buff_0") == model::TileCoord{0, 1});
}

// Running out of BDs (or locks) on a mem tile does NOT make the placer try another mem tile:
// SequentialPlacer counts DMA channels only, and the toolchain then fails in
// AIEAssignBufferDescriptorIDs.cpp ("Allocator exhausted available BD IDs (maximum N available
// for channel c).") or AIEAssignLockIDs.cpp ("not allocated a lock."). The issue asked for a
// retry on BDs and locks; the source wins, so npusim refuses what the toolchain refuses
// (docs/resolve.md). Three forwards of depth 12 (cores in column 0: centroid 0) all fit (0,1) by
// channels (3 of 6 each way) although (1,1) is free; each takes 12 + 12 BDs of its channel
// parity, so the third (channels 2, even, after channel 0) finds the 24 even BDs taken.
TEST_CASE("SequentialPlacer: BDs are not a placement criterion, exhausting them quotes the BD allocator",
          "[frontend][placement]") {
    // Each forward's output goes to a worker in column 0, so every centroid is column 0.
    ObjectFifo a(tensor<std::int32_t>({16}), "fa", 12), b(tensor<std::int32_t>({16}), "fb", 12),
        c(tensor<std::int32_t>({16}), "fc", 12);
    auto ga = a.cons().forward(), gb = b.cons().forward(), gc = c.cons().forward();
    auto sink = [](ObjectFifoHandle i) {
        i.acquire(1);
        i.release(1);
    };
    std::vector<Worker> ws;
    ws.emplace_back(sink, fn_args(ga.cons()), WorkerOptions{.tile = {0, 2}});
    ws.emplace_back(sink, fn_args(gb.cons()), WorkerOptions{.tile = {0, 3}});
    ws.emplace_back(sink, fn_args(gc.cons()), WorkerOptions{.tile = {0, 4}});
    Runtime rt(
        [](RuntimeData x, ObjectFifoHandle i0, ObjectFifoHandle i1, ObjectFifoHandle i2) {
            for (auto* h : {&i0, &i1, &i2}) h->fill(x);
        },
        fn_args(tensor<std::int32_t>({16}), a.prod(), b.prod(), c.prod()));
    CHECK_THROWS_WITH(Program("npu1_2col", rt, ws).resolve(),
                      Contains("mem tile (0,1)") &&
                          Contains("Allocator exhausted available BD IDs (maximum 24 available for channel 2)."));
}

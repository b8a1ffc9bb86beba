// Low-level objects (Lock, Buffer, TileDma, Flow ends) on unplaced Tiles (AnyMemTile,
// AnyComputeTile, Tile::any), placed as aiecc's aie-place-tiles places IRON's aie.logical_tile ops
// (mlir-aie lib/Dialect/AIE/Transforms/AIEPlacer.cpp at 3ca0193): one logical tile per Tile
// (python/iron/device/device.py resolve_tile dedups by identity), compute ones on the first free
// compute tile column by column (SequentialPlacer::initialize's column-major compTiles, l.92-107;
// findUnconstrainedCoreCandidate), mem ones at the centroid column of the cores their flows reach
// (computeCentroidColumn l.1131, placeNonCoreTileByCentroid l.1238, findTileWithCapacity l.1284),
// with the DMA channels their flow ends take (addChannelRequirementsFromFlows l.1045).
#include "npusim/iron.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace npusim;
using namespace npusim::iron;

namespace {

const auto kLlpI32 = tensor<std::int32_t>({64});

// The netlist's channel program on `t` in direction `dir`, or nullptr.
const model::DmaChannelProgram* llp_channel(const model::Netlist& net, model::TileCoord t, model::Direction dir) {
    for (const auto& ch : net.channels)
        if (ch.tile == t && ch.dir == dir) return &ch;
    return nullptr;
}

const model::NetLock& llp_lock(const model::Netlist& net, const std::string& name) {
    return *std::find_if(net.locks.begin(), net.locks.end(), [&](const auto& l) { return l.name == name; });
}

const model::NetBuffer& llp_buffer(const model::Netlist& net, const std::string& name) {
    return *std::find_if(net.buffers.begin(), net.buffers.end(), [&](const auto& b) { return b.name == name; });
}

// A relay shim (0,0) -> `mem` -> `core` through a TileDma on `mem` (its Buffer and Locks on
// `mem` too) and a receiving TileDma on the pinned compute tile `core`.
model::Netlist llp_relay(const Tile& mem, const Tile& core, const std::string& device = "npu1") {
    Buffer buf(kLlpI32, "relay_buf", {}, mem), sink(kLlpI32, "sink_buf", {}, core);
    Lock empty(mem, std::nullopt, 1, "relay_empty"), full(mem, std::nullopt, 0, "relay_full");
    Lock s_empty(core, std::nullopt, 1, "sink_empty"), s_full(core, std::nullopt, 0, "sink_full");
    Runtime rt([](RuntimeData) {}, fn_args(kLlpI32));
    rt.add_flow(Flow(Tile(0, 0), mem, {.shim_symbol = "in"}));
    rt.add_flow(Flow(mem, core));
    rt.add_tile_dma(
        TileDma(mem,
                {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = buf, .acquires = {{empty}}, .releases = {{full}}}}},
                 DmaChannel{DMAChannelDir::MM2S, 0, {Bd{.buffer = buf, .acquires = {{full}}, .releases = {{empty}}}}}},
                "relay"));
    rt.add_tile_dma(TileDma(
        core,
        {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = sink, .acquires = {{s_empty}}, .releases = {{s_full}}}}}},
        "sink"));
    return Program(device, rt, {}, "relay").resolve();
}

} // namespace

TEST_CASE("unplaced low-level objects: one AnyMemTile, one mem tile at the centroid of the cores its flows reach",
          "[frontend][lowlevel][placement]") {
    // The relay's flows reach the shim (0,0) (no core, and through it only the relay itself) and
    // the compute tile (2,2): the centroid column is 2, so every object naming AnyMemTile is on (2,1).
    const auto net = llp_relay(AnyMemTile, Tile(2, 2));
    const model::TileCoord mem{2, 1};
    CHECK(llp_buffer(net, "relay_buf").tile == mem);
    CHECK(llp_lock(net, "relay_empty").tile == mem);
    CHECK(llp_lock(net, "relay_full").tile == mem);
    REQUIRE(llp_channel(net, mem, model::Direction::S2MM));
    REQUIRE(llp_channel(net, mem, model::Direction::MM2S));
    const auto into = std::find_if(net.flows.begin(), net.flows.end(), [](const auto& f) {
        return f.source.tile == model::TileCoord{0, 0};
    });
    REQUIRE(into != net.flows.end());
    CHECK(into->dests.front().tile == mem);
    // A core at column 3 moves it to (3,1); a column constraint overrides the centroid.
    CHECK(llp_buffer(llp_relay(AnyMemTile, Tile(3, 2)), "relay_buf").tile == model::TileCoord{3, 1});
    Tile col1 = Tile::any(TileKind::Mem);
    col1.col = 1;
    CHECK(llp_buffer(llp_relay(col1, Tile(3, 2)), "relay_buf").tile == model::TileCoord{1, 1});
}

TEST_CASE("unplaced low-level objects: an AnyComputeTile takes the first free compute tile after the workers",
          "[frontend][lowlevel][placement]") {
    // The worker is on (0,2) (first compute tile); the TileDma's compute logical tile takes the next
    // in column order, (0,3), and its Buffer and Locks with it.
    Buffer buf(kLlpI32, "rx_buf", {}, AnyComputeTile);
    Lock empty(AnyComputeTile, std::nullopt, 1, "rx_empty"), full(AnyComputeTile, std::nullopt, 0, "rx_full");
    Runtime rt([](RuntimeData) {}, fn_args(kLlpI32));
    rt.add_flow(Flow(Tile(0, 0), AnyComputeTile, {.shim_symbol = "in"}));
    rt.add_tile_dma(TileDma(
        AnyComputeTile,
        {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = buf, .acquires = {{empty}}, .releases = {{full}}}}}}, "rx"));
    const auto net = Program("npu1", rt, {Worker([] {}, {.while_true = false})}, "rx").resolve();
    REQUIRE(net.cores.size() == 1);
    CHECK(net.cores[0].tile == model::TileCoord{0, 2});
    CHECK(llp_buffer(net, "rx_buf").tile == model::TileCoord{0, 3});
    CHECK(llp_lock(net, "rx_full").tile == model::TileCoord{0, 3});
    CHECK(llp_channel(net, {0, 3}, model::Direction::S2MM));
}

TEST_CASE("unplaced low-level objects: a Tile a worker runs on is the worker's tile",
          "[frontend][lowlevel][placement]") {
    // IRON's Worker keeps a Tile it is given (worker.py l.88-97), so a Lock and a TileDma naming the
    // same Tile are on the worker's tile; AnyComputeTile itself is copied per worker, not shared.
    const Tile t = Tile::any(TileKind::Compute);
    Buffer buf(kLlpI32, "w_buf", {}, t);
    Lock empty(t, std::nullopt, 1, "w_empty"), full(t, std::nullopt, 0, "w_full");
    Runtime rt([](RuntimeData) {}, fn_args(kLlpI32));
    rt.add_flow(Flow(Tile(0, 0), t, {.shim_symbol = "in"}));
    rt.add_tile_dma(TileDma(
        t, {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = buf, .acquires = {{empty}}, .releases = {{full}}}}}},
        "w_rx"));
    Worker first([] {}, {.while_true = false}); // on (0,2)
    Worker w(
        [](Lock f, Lock e) {
            f.acquire();
            e.release();
        },
        fn_args(full, empty), {.tile = t, .while_true = false});
    const auto net = Program("npu1", rt, {first, w}, "shared").resolve();
    REQUIRE(net.cores.size() == 2);
    CHECK(net.cores[1].tile == model::TileCoord{0, 3});
    CHECK(llp_lock(net, "w_full").tile == model::TileCoord{0, 3});
    CHECK(llp_buffer(net, "w_buf").tile == model::TileCoord{0, 3});
}

TEST_CASE("unplaced low-level objects export one aie.logical_tile per Tile, without coordinates",
          "[frontend][lowlevel][placement][export]") {
    Buffer buf(kLlpI32, "relay_buf", {}, AnyMemTile);
    Lock empty(AnyMemTile, std::nullopt, 1, "relay_empty"), full(AnyMemTile, std::nullopt, 0, "relay_full");
    Runtime rt([](RuntimeData) {}, fn_args(kLlpI32));
    rt.add_flow(Flow(Tile(0, 0), AnyMemTile, {.shim_symbol = "in"}));
    rt.add_tile_dma(
        TileDma(AnyMemTile,
                {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = buf, .acquires = {{empty}}, .releases = {{full}}}}}},
                "relay"));
    const std::string m = export_mlir(Program("npu1", rt, {}, "relay"));
    std::size_t n = 0;
    for (auto p = m.find("aie.logical_tile<MemTile>(?, ?)"); p != std::string::npos;
         p = m.find("aie.logical_tile<MemTile>(?, ?)", p + 1))
        ++n;
    CHECK(n == 1);
    CHECK_THAT(m, Catch::Contains("aie.memtile_dma(%logical_mem) {"));
    CHECK_THAT(m, Catch::Contains("aie.lock(%logical_mem) {init = 1 : i32, sym_name = \"relay_empty\"}"));
}

TEST_CASE("pinned low-level objects: an unpinned worker does not take a compute tile a pinned Lock, TileDma or "
          "Buffer names",
          "[frontend][lowlevel][placement]") {
    // aie-place-tiles places every fully pinned logical tile before any unpinned one, workers
    // included (SequentialPlacer::place sorts them first, AIEPlacer.cpp l.252-312), and a placed
    // compute tile leaves the free ones (recordPlacement l.835-838): the worker goes to (0,3). npusim
    // placed the unpinned workers first, so the worker took (0,2), the tile the low-level objects name.
    const Tile core(0, 2);
    Buffer buf(kLlpI32, "pin_buf", {}, core);
    Lock empty(core, std::nullopt, 1, "pin_empty"), full(core, std::nullopt, 0, "pin_full");
    SECTION("a Lock") {
        Runtime rt([](RuntimeData) {}, fn_args(kLlpI32));
        rt.add_lock(full);
        const auto net = Program("npu1", rt, {Worker([] {}, {.while_true = false})}, "pin_lock").resolve();
        REQUIRE(net.cores.size() == 1);
        CHECK(net.cores[0].tile == model::TileCoord{0, 3});
        CHECK(llp_lock(net, "pin_full").tile == model::TileCoord{0, 2});
    }
    SECTION("a TileDma with its Buffer") {
        Runtime rt([](RuntimeData) {}, fn_args(kLlpI32));
        rt.add_flow(Flow(Tile(0, 0), core, {.shim_symbol = "in"}));
        const Bd bd{.buffer = buf, .acquires = {{empty}}, .releases = {{full}}};
        rt.add_tile_dma(TileDma(core, {DmaChannel{DMAChannelDir::S2MM, 0, {bd}}}, "pin_rx"));
        const auto net = Program("npu1", rt, {Worker([] {}, {.while_true = false})}, "pin_dma").resolve();
        REQUIRE(net.cores.size() == 1);
        CHECK(net.cores[0].tile == model::TileCoord{0, 3});
        CHECK(llp_buffer(net, "pin_buf").tile == model::TileCoord{0, 2});
    }
    SECTION("a worker's Buffer") {
        // buffer.py l.95 Buffer.tiles(): a pinned Buffer among a worker's fn_args names its tile.
        Runtime rt([](RuntimeData) {}, fn_args(kLlpI32));
        Worker reader([](Buffer) {}, fn_args(buf), {.tile = Tile(0, 3), .while_true = false});
        const auto net =
            Program("npu1", rt, {reader, Worker([] {}, {.while_true = false})}, "pin_buf").resolve();
        REQUIRE(net.cores.size() == 2);
        CHECK(net.cores[1].tile == model::TileCoord{0, 4});
    }
}

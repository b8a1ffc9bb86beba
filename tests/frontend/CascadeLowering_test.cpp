// CascadeFlow: IRON's registration on the source worker (python/iron/dataflow/cascadeflow.py
// l.50-61, program.py l.230-234), the toolchain's rules on its tiles (CascadeFlowOp::verify,
// lib/Dialect/AIE/IR/AIEDialect.cpp l.1196-1224; AIELowerCascadeFlows.cpp l.50-63;
// ConfigureCascadeOp::verify l.1250-1283), placement next to a placed peer (AIEPlacer.cpp
// l.230-237, l.533) and the lowering into Netlist::cascades. docs/resolve.md "Cascades".
#include "npusim/iron.hpp"
#include "resolve/CascadeLowering.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;

namespace {

// Workers with no fifos: each body only touches the cascade (never run here).
Worker cascade_worker(const std::string& name, Tile tile) {
    return Worker([] {}, {.tile = tile, .name = name});
}

Runtime empty_runtime() {
    return Runtime([](RuntimeData) {}, fn_args(tensor<std::int32_t>({16})));
}

model::Netlist resolve_with(const std::vector<Worker>& workers, const std::string& device = "npu1") {
    return Program(device, empty_runtime(), workers, "casc").resolve();
}

} // namespace

TEST_CASE("a CascadeFlow lowers to a cascade connection between the two cores", "[frontend][cascade]") {
    auto a = cascade_worker("a", Tile(0, 4));
    auto b = cascade_worker("b", Tile(0, 3));
    auto c = cascade_worker("c", Tile(1, 3));
    CascadeFlow(a, b); // north -> south
    CascadeFlow(b, c); // west -> east
    const auto net = resolve_with({a, b, c});
    REQUIRE(net.cascades.size() == 2);
    CHECK(net.cascades[0].src == model::TileCoord{0, 4});
    CHECK(net.cascades[0].dst == model::TileCoord{0, 3});
    CHECK(net.cascades[0].describe() == "cascade from worker 'a' on (0,4) to worker 'b' on (0,3)");
    CHECK(net.cascades[1].describe() == "cascade from worker 'b' on (0,3) to worker 'c' on (1,3)");
    CHECK(net.cores[0].cascade_out == 0);
    CHECK(net.cores[0].cascade_in == -1);
    CHECK(net.cores[1].cascade_in == 0);
    CHECK(net.cores[1].cascade_out == 1);
    CHECK(net.cores[2].cascade_in == 1);
    const auto dump = net.dump();
    CHECK(dump.find("cascades:\n  (0,4) -> (0,3)  512-bit words, worker 'a' -> worker 'b'\n") != std::string::npos);
}

TEST_CASE("cascade direction: north to south or west to east only", "[frontend][cascade][errors]") {
    SECTION("upward (to the north)") {
        auto a = cascade_worker("a", Tile(0, 2));
        auto b = cascade_worker("b", Tile(0, 3));
        CascadeFlow(a, b);
        CHECK_THROWS_WITH(resolve_with({a, b}),
                          "CascadeFlow from worker 'a' on (0,2) to worker 'b' on (0,3): source tile must be to the "
                          "North or West of the destination tile (cascades run north to south or west to east: "
                          "input from North or West, output to South or East on AIE2)");
    }
    SECTION("westward, on AIE2P") {
        auto a = cascade_worker("a", Tile(1, 2));
        auto b = cascade_worker("b", Tile(0, 2));
        CascadeFlow(a, b);
        CHECK_THROWS_WITH(resolve_with({a, b}, "npu2"),
                          "CascadeFlow from worker 'a' on (1,2) to worker 'b' on (0,2): source tile must be to the "
                          "North or West of the destination tile (cascades run north to south or west to east: "
                          "input from North or West, output to South or East on AIE2P)");
    }
}

TEST_CASE("cascade tiles must be adjacent", "[frontend][cascade][errors]") {
    auto a = cascade_worker("a", Tile(0, 4));
    auto b = cascade_worker("b", Tile(0, 2));
    CascadeFlow(a, b);
    CHECK_THROWS_WITH(resolve_with({a, b}),
                      "CascadeFlow from worker 'a' on (0,4) to worker 'b' on (0,2): tiles must be adjacent");
    auto d = cascade_worker("d", Tile(1, 5));
    auto e = cascade_worker("e", Tile(2, 4));
    CascadeFlow(d, e); // diagonal
    CHECK_THROWS_WITH(resolve_with({d, e}),
                      "CascadeFlow from worker 'd' on (1,5) to worker 'e' on (2,4): tiles must be adjacent");
    auto s = cascade_worker("self", Tile(0, 3));
    CascadeFlow(s, s);
    CHECK_THROWS_WITH(resolve_with({s}),
                      "CascadeFlow from worker 'self' on (0,3) to worker 'self' on (0,3): tiles must be adjacent");
}

TEST_CASE("one cascade input and one cascade output per tile", "[frontend][cascade][errors]") {
    SECTION("two inputs") {
        auto n = cascade_worker("north", Tile(1, 3));
        auto w = cascade_worker("west", Tile(0, 2));
        auto d = cascade_worker("dst", Tile(1, 2));
        CascadeFlow(n, d);
        CascadeFlow(w, d);
        CHECK_THROWS_WITH(resolve_with({n, w, d}),
                          "CascadeFlow from worker 'west' on (0,2) to worker 'dst' on (1,2): worker 'dst' already "
                          "has a cascade input, from worker 'north' on (1,3); a tile has one cascade input (North or "
                          "West)");
    }
    SECTION("two outputs") {
        auto s = cascade_worker("src", Tile(0, 3));
        auto south = cascade_worker("south", Tile(0, 2));
        auto east = cascade_worker("east", Tile(1, 3));
        CascadeFlow(s, south);
        CascadeFlow(s, east);
        CHECK_THROWS_WITH(resolve_with({s, south, east}),
                          "CascadeFlow from worker 'src' on (0,3) to worker 'east' on (1,3): worker 'src' already "
                          "has a cascade output, to worker 'south' on (0,2); a tile has one cascade output (South or "
                          "East)");
    }
}

TEST_CASE("cascade ends are compute tiles", "[frontend][cascade][errors]") {
    // A worker cannot be pinned on a mem or shim tile in the first place ...
    CHECK_THROWS_WITH(cascade_worker("m", Tile(0, 1)),
                      "worker 'm': tile Tile(0,1) is not a compute tile (rows 0 and 1 are shim and mem tiles)");
    // ... and the cascade rule itself, as CascadeFlowOp::verify words it (AIEDialect.cpp l.1203-1206).
    const auto& dev = model::device_by_name("npu1");
    CHECK_THROWS_WITH(detail::verify_cascade_tiles(dev, {0, 2}, {0, 1}, "cascade x"),
                      "cascade x: memTile row has no cascade stream interface");
    CHECK_THROWS_WITH(detail::verify_cascade_tiles(dev, {1, 0}, {2, 0}, "cascade x"),
                      "cascade x: shimTile row has no cascade stream interface");
    CHECK_NOTHROW(detail::verify_cascade_tiles(dev, {0, 3}, {0, 2}, "cascade x"));
    CHECK_NOTHROW(detail::verify_cascade_tiles(dev, {0, 3}, {1, 3}, "cascade x"));
    CHECK(detail::cascade_adjacent({2, 5}, {2, 4}));
    CHECK(detail::cascade_adjacent({2, 5}, {3, 5}));
    CHECK_FALSE(detail::cascade_adjacent({2, 4}, {2, 5}));
    CHECK_FALSE(detail::cascade_adjacent({3, 5}, {2, 5}));
}

TEST_CASE("a cascade's destination must be one of the Program's workers", "[frontend][cascade][errors]") {
    auto a = cascade_worker("a", Tile(0, 3));
    auto b = cascade_worker("b", Tile(0, 2));
    CascadeFlow(a, b);
    CHECK_THROWS_WITH(resolve_with({a}),
                      "CascadeFlow from worker 'a' on (0,3): its destination worker 'b' is not among the Program's "
                      "workers");
}

TEST_CASE("unpinned workers are placed where their cascade fits", "[frontend][cascade][placement]") {
    auto a = cascade_worker("a", AnyComputeTile);
    auto b = cascade_worker("b", AnyComputeTile);
    auto c = cascade_worker("c", AnyComputeTile);
    CascadeFlow(a, b);
    CascadeFlow(b, c);
    const auto net = resolve_with({a, b, c});
    // a takes the first free tile (0,2); b one column east of it (the row below is the mem tile);
    // c next to b again.
    CHECK(net.cores[0].tile == model::TileCoord{0, 2});
    CHECK(net.cores[1].tile == model::TileCoord{1, 2});
    CHECK(net.cores[2].tile == model::TileCoord{2, 2});
    REQUIRE(net.cascades.size() == 2);
}

// Netlist-only rules of the engine: how much tile memory a run backs.
#include "TileMemory.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::model;

TEST_CASE("tile_memory_extent: the end of the highest buffer on the tile, at least 4 B", "[sim][memory]") {
    std::vector<NetBuffer> b;
    b.push_back({"a", {0, 2}, 0x400, 256, {}, {}});
    b.push_back({"b", {0, 2}, 0x100, 64, {}, {}});
    b.push_back({"c", {0, 1}, 0x8000, 16, {}, {}});
    CHECK(sim::tile_memory_extent(b, {0, 2}) == 0x500);
    CHECK(sim::tile_memory_extent(b, {0, 1}) == 0x8010);
    CHECK(sim::tile_memory_extent(b, {0, 3}) == 4);
    sim::TileMemory mem(b);
    CHECK(mem.buffer(0) == mem.of({0, 2}) + 0x400);
    CHECK(mem.buffer(1)[63] == 0); // zero-initialised
    CHECK(mem.of({0, 2}) == mem.of({0, 2}));
}

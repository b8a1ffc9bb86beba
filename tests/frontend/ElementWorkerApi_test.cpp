// Spellings IRON users rely on: multi-dimensional element indexing (IRON elem[i, j])
// and Worker.grid (python/iron/worker.py L180-205).
#include "npusim/iron.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

using namespace npusim;
using namespace npusim::iron;

TEST_CASE("Element::at(i, j, ...) indexes row-major over the element's shape, bounds checked per dimension",
          "[frontend][element]") {
    std::vector<std::int32_t> mem(2 * 3 * 4);
    for (std::size_t k = 0; k < mem.size(); ++k) mem[k] = static_cast<std::int32_t>(k);
    const auto t = tensor<std::int32_t>({2, 3, 4});
    const std::string owner = "cube";
    const Element e(reinterpret_cast<std::byte*>(mem.data()), &t, &owner);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 4; ++k) CHECK(e.at<std::int32_t>(i, j, k) == (i * 3 + j) * 4 + k);
    e.at<std::int32_t>(1, 2, 3) = -1;
    CHECK(mem.back() == -1);
    CHECK_THROWS_WITH(e.at<std::int32_t>(0, 3, 0),
                      "'cube': index (0,3,0) is outside the shape (2,3,4) of element type i32[2,3,4]");
    CHECK_THROWS_WITH(e.at<std::int32_t>(0, 0),
                      "'cube': 2 indices (0,0) for an element of type i32[2,3,4] with 3 dimension(s)");
    CHECK_THROWS_WITH(e.at<float>(0, 0, 0), "'cube': element of type i32[2,3,4] accessed as f32");
}

TEST_CASE("Worker::grid builds rows x cols workers with factory(r, c)", "[frontend][worker]") {
    ObjectFifo f(tensor<std::int32_t>({4}), "f");
    const auto g = Worker::grid(2, 3, [](int r, int c) {
        return Worker([] {}, WorkerOptions{.tile = Tile(c, 2 + r), .name = fmt::format("w_{}_{}", r, c)});
    });
    REQUIRE(g.size() == 2);
    REQUIRE(g[1].size() == 3);
    CHECK(g[1][2].name() == "w_1_2");
    CHECK(g[0][1].state()->opts.tile.coord() == model::TileCoord{1, 2});
    CHECK(Worker::grid(0, 3, [](int, int) { return Worker([] {}); }).empty());
}

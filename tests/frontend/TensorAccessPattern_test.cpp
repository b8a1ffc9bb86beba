#include "npusim/frontend/TensorAccessPattern.hpp"
#include "npusim/model/Error.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;

TEST_CASE("access order of a column-major read of a 2x3 tensor", "[frontend][tap]") {
    TensorAccessPattern t({2, 3}, 0, {1, 1, 3, 2}, {0, 0, 1, 3});
    CHECK(t.access_order() == std::vector<std::int64_t>{0, 3, 1, 4, 2, 5});
    CHECK(t.transfer_elements() == 6);
    CHECK(t.visualize() == "tap(offset=0, sizes=[1,1,3,2], strides=[0,0,1,3])\n"
                           "0 2 4\n"
                           "1 3 5\n");
}

TEST_CASE("sizes are padded to four dimensions, repeat dimension with stride 0", "[frontend][tap]") {
    TensorAccessPattern t({8}, 4, {2, 4}, {0, 1});
    CHECK(t.sizes() == std::array<std::int64_t, 4>{1, 1, 2, 4});
    CHECK(t.access_order() == std::vector<std::int64_t>{4, 5, 6, 7, 4, 5, 6, 7});
    CHECK(t.min_index() == 4);
    CHECK(t.max_index() == 7);
    // each cell shows the last step that touches it; untouched cells show "."
    CHECK(t.visualize() == "tap(offset=4, sizes=[1,1,2,4], strides=[0,0,0,1])\n. . . . 4 5 6 7\n");
}

TEST_CASE("malformed patterns", "[frontend][tap]") {
    CHECK_THROWS_WITH(
        TensorAccessPattern({8}, 0, {1, 2}, {1}),
        "TensorAccessPattern: sizes and strides must have the same length, 1 to 4 (got 2 sizes, 1 strides)");
    CHECK_THROWS_WITH(TensorAccessPattern({8}, 0, {0}, {1}), "TensorAccessPattern: size 0 must be >= 1");
}

// The parameter checks designs make (each a DesignError naming the design and the values).
#include "npusim/harness/DesignParams.hpp"
#include "npusim/model/Error.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

TEST_CASE("require_multiple: a positive multiple", "[harness][params]") {
    CHECK_NOTHROW(require_multiple("d", {{"size", 4096}, {"tile", 1024}}, "size", "tile"));
    CHECK_NOTHROW(require_multiple("d", {{"size", 1024}, {"tile", 1024}}, "size", "tile"));
    CHECK_THROWS_WITH(require_multiple("d", {{"size", 1000}, {"tile", 1024}}, "size", "tile"),
                      "design 'd': parameter size=1000 must be a positive multiple of tile=1024");
    CHECK_THROWS_WITH(require_multiple("d", {{"size", 0}, {"tile", 16}}, "size", "tile"),
                      "design 'd': parameter size=0 must be a positive multiple of tile=16");
    CHECK_THROWS_WITH(require_multiple("d", {{"size", 64}, {"tile", 0}}, "size", "tile"),
                      "design 'd': parameter size=64 must be a positive multiple of tile=0");
    CHECK_THROWS_AS(require_multiple("d", {{"size", -64}, {"tile", -16}}, "size", "tile"), DesignError);
}

TEST_CASE("require_one_of: a listed value", "[harness][params]") {
    CHECK_NOTHROW(require_one_of("d", {{"bits", 16}}, "bits", {8, 16, 32}));
    CHECK_THROWS_WITH(require_one_of("d", {{"bits", 12}}, "bits", {8, 16, 32}),
                      "design 'd': parameter bits=12 must be one of 8, 16, 32");
}

TEST_CASE("require_vector_multiple: whole 512-bit vectors for AIE-API kernels", "[harness][params]") {
    CHECK_NOTHROW(require_vector_multiple("d", {{"tile", 128}}, "tile", 64, "passThrough"));
    CHECK_THROWS_WITH(require_vector_multiple("d", {{"tile", 40}}, "tile", 64, "passThrough"),
                      "design 'd': the AIE-API passThrough kernel works on whole 512-bit vectors of 64 elements; "
                      "parameter tile=40 is "
                      "not a multiple of 64");
}

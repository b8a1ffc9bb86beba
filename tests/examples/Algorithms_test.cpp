// The registered designs built by IRON's algorithm templates (npusim/algorithms/Transform.hpp):
// transform (algorithms.transform(lambda x: x + 1)) and reduce (algorithms.reduce with
// reduce_max), run through the harness on small and large devices with every output checked
// against the design's golden reference.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

namespace {
RunOptions opts(const std::string& device, KernelSet ks = KernelSet::reference) {
    return test::run_opts(device, 11, ks);
}
} // namespace

TEST_CASE("transform design: x + 1 through algorithms.transform", "[examples][algorithms]") {
    for (const std::string device : {"npu1_1col", "npu2"}) {
        INFO(device);
        CHECK(run_design(design_by_name("transform"), device, {}, opts(device)).all_match);
        CHECK(run_design(design_by_name("transform"), device, {{"size", 4096}, {"tile_size", 256}}, opts(device))
                  .all_match);
    }
    CHECK_THROWS_WITH(run_design(design_by_name("transform"), "npu1_1col", {{"size", 1000}}, opts("npu1_1col")),
                      "transform: Number of elements (1000) must be a multiple of tile size (16)");
}

TEST_CASE("reduce design: reduce_max through algorithms.reduce", "[examples][algorithms]") {
    for (const std::string device : {"npu1_1col", "npu2"})
        for (auto ks : {KernelSet::reference, KernelSet::aie}) {
            INFO(device);
            CHECK(run_design(design_by_name("reduce"), device, {}, opts(device, ks)).all_match);
        }
    CHECK_THROWS_AS(run_design(design_by_name("reduce"), "npu1_1col", {{"size", 100}}, opts("npu1_1col")), DesignError);
}

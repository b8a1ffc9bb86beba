// Every registered design on every device the issue names, with its golden check, plus the
// parameter variants (element widths, sizes).
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

namespace {
sim::SimOptions designs_opts(const std::string& device) { return test::sim_opts(device); }
void designs_require_pass(const std::string& design, const std::string& device, const Params& p = {}) {
    INFO(design << " on " << device);
    const auto rep = run_design(design_by_name(design), device, p, 7, designs_opts(device));
    for (const auto& c : rep.checks) {
        INFO(c.name << ": " << c.first_mismatches);
        CHECK(c.match);
    }
    REQUIRE(rep.all_match);
    CHECK(rep.result.cycles > 0);
}
} // namespace

TEST_CASE("E1-E4 pass on npu1_1col, npu1, npu2_1col and npu2", "[examples]") {
    for (const char* design : {"passthrough_kernel", "passthrough_dmas", "vector_scalar_mul", "vector_vector_add"})
        for (const char* device : {"npu1_1col", "npu1", "npu2_1col", "npu2"}) designs_require_pass(design, device);
}

TEST_CASE("element-width and size variants", "[examples]") {
    designs_require_pass("passthrough_kernel", "npu1", {{"bits", 16}});
    designs_require_pass("passthrough_kernel", "npu2_3col", {{"bits", 32}, {"size", 8192}, {"tile", 2048}});
    designs_require_pass("vector_scalar_mul", "npu1_2col", {{"bits", 32}, {"factor", -7}});
    designs_require_pass("vector_scalar_mul", "npu2", {{"size", 16384}, {"tile", 512}});
    designs_require_pass("vector_vector_add", "npu2_7col", {{"size", 4096}, {"tile", 64}});
    designs_require_pass("passthrough_dmas", "npu1_3col", {{"size", 65536}, {"tile", 4096}});
}

TEST_CASE("designs reject parameters they cannot run", "[examples]") {
    CHECK_THROWS_WITH(run_design(design_by_name("passthrough_kernel"), "npu1", {{"bits", 12}}, 1, designs_opts("npu1")),
                      "design 'passthrough_kernel': parameter bits=12 must be one of 8, 16, 32");
    CHECK_THROWS_WITH(run_design(design_by_name("vector_vector_add"), "npu1", {{"tile", 100}}, 1, designs_opts("npu1")),
                      "design 'vector_vector_add': parameter size=1024 must be a positive multiple of tile=100");
}

TEST_CASE("a wrong output is reported with indices and values", "[examples]") {
    const auto& spec = design_by_name("passthrough_kernel");
    auto inst = spec.build(model::device_by_name("npu1"), spec.resolve_params({}), 3);
    auto host = inst.host();
    host[1] = host[0];
    host[1][10] ^= 1;
    host[1][4000] ^= 1;
    const auto checks = inst.check(host);
    REQUIRE(checks.size() == 1);
    CHECK_FALSE(checks[0].match);
    CHECK(checks[0].mismatches == 2);
    CHECK_THAT(checks[0].first_mismatches, Catch::StartsWith("[10] got "));
    CHECK_THAT(checks[0].first_mismatches, Catch::Contains("; [4000] got "));
}

// E15 scale_shift (mlir-aie programming_examples/ml/scale_shift/scale_shift.py): two phases over the
// same workers, switched by a use_write_rtp Buffer and released by WorkerRuntimeBarriers; the
// output must equal bf16(bf16(A*B) + C) exactly on every device generation.
#include "npusim/harness/DesignRunner.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

TEST_CASE("scale_shift: D = A * B + C in two barrier-released phases, exact in bf16", "[examples][scale_shift]") {
    for (const char* device : {"npu1_1col", "npu2"}) {
        INFO(device);
        const auto rep = run_design(design_by_name("scale_shift"), device, {{"size", 8192}}, 1, {});
        CHECK(rep.all_match);
        REQUIRE(rep.result.cores.size() == 2);
        for (const auto& c : rep.result.cores) {
            CHECK(c.iterations == 2); // one body iteration per phase
            CHECK(c.kernel_calls == 2 * 8192 / 1024 / 2);
        }
    }
    CHECK_THROWS_WITH(run_design(design_by_name("scale_shift"), "npu1_1col", {{"size", 3000}}, 1, {}),
                      "design 'scale_shift': parameter size=3000 must be a positive multiple of 2048");
}

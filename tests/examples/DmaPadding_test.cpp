// dma_padding (examples/src/DmaPadding.cpp, after mlir-aie basic/dma_padding): every way of
// writing the mem-tile MM2S padding runs and matches its golden reference - on npu1 with zeros
// (no pad value register), on npu2 with a non-zero pad value for i32 and i8 - and a non-zero pad
// value on npu1 is refused with the toolchain's reason (AIEDialect.cpp:491-497 for a fifo,
// :2778-2786 for a DmaChannel).
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

namespace {
Params with(const std::string& api, const std::string& dtype, std::int64_t pad) {
    return {{"api", param_name_code(api)}, {"dtype", param_name_code(dtype)}, {"pad", pad}};
}
} // namespace

TEST_CASE("dma_padding: forward, split, link, tile_dma and tile_dma_any pad with zeros on npu1 and a pad value on "
          "npu2",
          "[examples][padding]") {
    const auto& spec = design_by_name("dma_padding");
    for (const std::string api : {"forward", "split", "link", "tile_dma", "tile_dma_any"}) {
        INFO(api);
        CHECK(run_design(spec, "npu1_1col", with(api, "i32", 0), test::run_opts("npu1_1col", 3)).all_match);
        CHECK(run_design(spec, "npu2", with(api, "i32", 1000), test::run_opts("npu2", 3)).all_match);
        CHECK(run_design(spec, "npu2", with(api, "i8", 8), test::run_opts("npu2", 3)).all_match);
        CHECK(run_design(spec, "npu2", with(api, "i8", -3), test::run_opts("npu2", 3)).all_match);
    }
    // The defaults (api forward, i32, pad 0) on every device the design lists.
    for (const auto& d : spec.devices) CHECK(run_design(spec, d, {}, test::run_opts(d, 5)).all_match);
}

TEST_CASE("dma_padding: a non-zero pad value on npu1 is refused as the toolchain refuses it", "[examples][padding]") {
    const auto& spec = design_by_name("dma_padding");
    CHECK_THROWS_WITH(run_design(spec, "npu1_1col", with("forward", "i32", 7), test::run_opts("npu1_1col", 3)),
                      "fifo 'out': pad_value 7 on npu1_1col: `padValue` requires the CONSTANT_PAD_VALUE register, "
                      "unavailable on this target (its mem tiles pad with zeros)");
    CHECK_THROWS_WITH(run_design(spec, "npu1_1col", with("tile_dma", "i32", 7), test::run_opts("npu1_1col", 3)),
                      "TileDma 'mem_dma' MM2S channel 0: pad_value requires the CONSTANT_PAD_VALUE register, "
                      "unavailable on this target");
}

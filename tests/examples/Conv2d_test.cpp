// E14 ml/conv2d (mlir-aie programming_examples/ml/conv2d/conv2d.py and test.py): the exact golden
// on every device with both kernel builds, test.py's own tolerance check against a float model,
// the size-changing forwards through the mem tile, and the parameter rules.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace npusim;
using namespace npusim::harness;

namespace {

RunOptions conv_opts(const std::string& device, KernelSet k = KernelSet::reference) { return test::run_opts(device, 9, k); }

} // namespace

TEST_CASE("conv2d matches the exact int8 golden on every device, reference and AIE-API kernels", "[examples][conv2d]") {
    const Params small{{"width", 16}, {"height", 4}, {"in_channels", 32}, {"out_channels", 16}};
    for (const auto& dev : model::all_devices())
        for (auto k : {KernelSet::reference, KernelSet::aie}) {
            INFO(dev.name << " " << kernel_set_name(k));
            const auto r = run_design(design_by_name("conv2d"), dev.name, small, conv_opts(dev.name, k));
            REQUIRE(r.checks.size() == 1);
            CHECK(r.checks[0].elements == 16u * 4u * 16u);
            CHECK(r.all_match);
        }
    // The defaults (32 x 32, 64 -> 64 channels, scale 10): both builds give the same bytes.
    const auto a = run_design(design_by_name("conv2d"), "npu2", {}, conv_opts("npu2"));
    const auto b = run_design(design_by_name("conv2d"), "npu2", {}, conv_opts("npu2", KernelSet::aie));
    CHECK(a.all_match);
    CHECK(b.all_match);
    CHECK(a.result.host == b.result.host);
}

TEST_CASE("conv2d passes test.py's check: torch Conv2d x 7.6294e-6 in steps of 0.0078, atol 2 steps",
          "[examples][conv2d]") {
    // test.py: golden = 0.0078 * clamp(round(conv(x) * 7.6294e-6 / 0.0078), -128, 127) in float,
    // compared (run_conv_torch_test) with the NPU's int8 output x 0.0078, atol = 2 x 0.0078.
    // Computed here in NCHW order from the design's YCXC8 / OIYXI8O8 inputs.
    const auto& spec = design_by_name("conv2d");
    const auto p = spec.resolve_params({});
    const std::int64_t w = p.at("width"), h = p.at("height"), ci = p.at("in_channels"), co = p.at("out_channels");
    const auto r = run_design(spec, "npu1", {}, conv_opts("npu1"));
    REQUIRE(r.all_match);
    auto inst = spec.build(model::device_by_name("npu1"), p, 9);
    const auto act = inst.inputs.at("act").values<std::int8_t>();
    const auto wts = inst.inputs.at("wts").values<std::int8_t>();
    const auto& out_bytes = r.result.host[2];
    REQUIRE(out_bytes.size() == static_cast<std::size_t>(w * h * co));
    int max_steps = 0;
    for (std::int64_t oc = 0; oc < co; ++oc)
        for (std::int64_t y = 0; y < h; ++y)
            for (std::int64_t x = 0; x < w; ++x) {
                double conv = 0;
                for (std::int64_t ic = 0; ic < ci; ++ic)
                    conv +=
                        double(act[static_cast<std::size_t>(((y * (ci / 8) + ic / 8) * w + x) * 8 + ic % 8)]) *
                        double(wts[static_cast<std::size_t>(((oc / 8 * (ci / 8) + ic / 8) * 8 + ic % 8) * 8 + oc % 8)]);
                const double golden = std::clamp(std::nearbyint(conv * 7.6294e-6 / 0.0078), -128.0, 127.0);
                const auto got = static_cast<std::int8_t>(
                    out_bytes[static_cast<std::size_t>(((y * (co / 8) + oc / 8) * w + x) * 8 + oc % 8)]);
                const int steps = static_cast<int>(std::abs(double(got) - golden));
                max_steps = std::max(max_steps, steps);
                REQUIRE(std::abs(double(got) * 0.0078 - golden * 0.0078) <= 2 * 0.0078 + 1e-9);
            }
    CHECK(max_steps <= 2);
}

TEST_CASE("conv2d forwards 2-row objects through the mem tile as 1-row objects to and from the core",
          "[examples][conv2d]") {
    const auto& spec = design_by_name("conv2d");
    auto inst = spec.build(model::device_by_name("npu1_1col"), spec.resolve_params({}), 1);
    const auto n = inst.program.resolve();
    // act rows are 32 x 64 B = 2 KiB, output rows 2 KiB: the mem tile holds 2 x 4 KiB per link, the
    // core 2 x 2 KiB per row fifo plus the 4 KiB weights (depth 1).
    std::uint32_t mem = 0, core = 0;
    for (const auto& b : n.buffers) {
        if (b.tile.row == 1) {
            CHECK(b.bytes == 4096u);
            mem += b.bytes;
        }
        if (b.tile.row >= 2) core += b.bytes;
    }
    CHECK(mem == 4u * 4096u);
    CHECK(core == 2u * 2048u + 2u * 2048u + 4096u);
}

TEST_CASE("conv2d parameter rules", "[examples][conv2d]") {
    const auto& spec = design_by_name("conv2d");
    const auto o = conv_opts("npu1");
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"width", 12}}, o),
                      "design 'conv2d': parameter width=12: width must be a multiple of 8 and >= 8 (conv2d.py)");
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"in_channels", 12}}, o),
                      "design 'conv2d': parameters in_channels=12 and out_channels=64 must be multiples of 8 and >= 8 "
                      "(conv2d.py)");
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"height", 3}}, o),
                      "design 'conv2d': parameter height=3 must be even and at least 2 (conv2d.py requires height > "
                      "1; the mem-tile fifos hold 2 rows per object, so the last row of an odd height would never be "
                      "forwarded)");
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"scale", 40}}, o),
                      "design 'conv2d': parameter scale=40 must be in 0..31");
}

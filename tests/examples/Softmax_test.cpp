// E13 ml/softmax (mlir-aie programming_examples/ml/softmax/softmax.py through IRON's
// transform_parallel): the golden (float32 softmax per 1024-element tile, rtol 0.128 as the
// example's assert_pass) on every device with 1 and 2 channels, the kernel's own error visible
// against it, and the parameter rules.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/kernels/softmax_lut.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <cmath>
#include <cstring>

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

namespace {

RunOptions softmax_opts(const std::string& device) { return test::run_opts(device, 11); }

} // namespace

TEST_CASE("softmax matches the float softmax per tile within rtol 0.128 on every device, 1 and 2 channels",
          "[examples][softmax]") {
    for (const auto& dev : model::all_devices())
        for (std::int64_t ch : {1, 2}) {
            INFO(dev.name << " channels=" << ch);
            const std::int64_t size = 2048 * dev.cols * ch;
            const auto r =
                run_design(design_by_name("softmax"), dev.name, {{"size", size}, {"channels", ch}}, softmax_opts(dev.name));
            REQUIRE(r.checks.size() == 1);
            CHECK(r.checks[0].elements == static_cast<std::uint64_t>(size));
            CHECK(r.checks[0].rtol == 0.128);
            CHECK(r.all_match);
            CHECK(r.workers == static_cast<std::size_t>(dev.cols * ch));
            // The table exp and the truncating bf16 conversions of the AIE2 kernel differ from the
            // float32 golden by about a bf16 step, well inside the example's tolerance.
            CHECK(r.checks[0].max_rel_err > 0.0);
            CHECK(r.checks[0].max_rel_err < 0.04);
        }
}

TEST_CASE("softmax runs the device generation's kernel: AIE2's table exp on npu1, AIE2P's exp2 on npu2",
          "[examples][softmax]") {
    const Params p{{"size", 65536}};
    for (const char* dev : {"npu1", "npu2"}) {
        INFO(dev);
        const auto r = run_design(design_by_name("softmax"), dev, p, softmax_opts(dev));
        REQUIRE(r.all_match);
        auto inst = design_by_name("softmax").build(model::device_by_name(dev),
                                                    design_by_name("softmax").resolve_params(p), 11);
        const auto in = inst.inputs.at("a").values<bfloat16>();
        std::vector<bfloat16> want(in.size());
        for (std::size_t t = 0; t < in.size(); t += 1024) {
            if (std::string(dev) == "npu1")
                kernels::softmax_lut_bf16(in.data() + t, want.data() + t, 1024);
            else
                kernels::softmax_exp2_bf16(in.data() + t, want.data() + t, 1024);
        }
        REQUIRE(r.result.host[1].size() == want.size() * 2);
        CHECK(std::memcmp(r.result.host[1].data(), want.data(), r.result.host[1].size()) == 0);
    }
}

TEST_CASE("softmax parameter rules", "[examples][softmax]") {
    const auto& spec = design_by_name("softmax");
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"size", 4096}}, softmax_opts("npu1")),
                      "design 'softmax': parameter size=4096 must be a positive multiple of 8192 (tile_size 1024 x "
                      "columns=4 x channels=2)");
    CHECK_THROWS_AS(run_design(spec, "npu1", {{"channels", 3}}, softmax_opts("npu1")), DesignError);
}

TEST_CASE("softmax --kernels aie runs the AIE-API builds of softmax.cc: the reference kernels' bits and cycles",
          "[examples][softmax][aie]") {
    // kernels_ref/aie/softmax.cc (softmax_bf16_aie2 on npu1, softmax_bf16_aie2p on npu2) through the
    // AIE-API host layer's parallel_lookup / exp2 / inv: bit for bit the reference kernels' outputs
    // (tests/kernels_ref/aie_api/AieExpSoftmax_test.cpp), so the design's output and cycle count
    // equal the reference run's, and both pass the golden check (rtol 0.128).
    const Params p{{"size", 65536}};
    for (const char* dev : {"npu1", "npu2"}) {
        INFO(dev);
        auto aie = softmax_opts(dev);
        aie.kernels = KernelSet::aie;
        const auto r_ref = run_design(design_by_name("softmax"), dev, p, softmax_opts(dev));
        const auto r_aie = run_design(design_by_name("softmax"), dev, p, aie);
        REQUIRE(r_aie.all_match);
        CHECK(r_aie.result.host == r_ref.result.host);
        CHECK(r_aie.result.cycles == r_ref.result.cycles);
        // independently: the first tile against the plain float softmax, as the golden does
        const auto& out = r_aie.result.host[1];
        auto inst = design_by_name("softmax").build(model::device_by_name(dev),
                                                    design_by_name("softmax").resolve_params(p), 11);
        const auto in = inst.inputs.at("a").values<bfloat16>();
        float mx = -INFINITY, sum = 0;
        for (std::size_t i = 0; i < 1024; ++i) mx = std::max(mx, static_cast<float>(in[i]));
        std::vector<float> e(1024);
        for (std::size_t i = 0; i < 1024; ++i) sum += (e[i] = std::exp(static_cast<float>(in[i]) - mx));
        for (std::size_t i = 0; i < 1024; ++i) {
            bfloat16 got;
            std::memcpy(&got.bits, out.data() + 2 * i, 2);
            const float want = e[i] / sum;
            REQUIRE(std::fabs(static_cast<float>(got) - want) < 0.128f * (std::fabs(static_cast<float>(got)) + want));
        }
    }
}

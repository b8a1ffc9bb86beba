// E13 ml/swiglu (mlir-aie programming_examples/ml/swiglu/swiglu.py): the golden (float32
// (x*w1) * silu(x*w2), rtol 0.128 as the example's assert_pass) on npu1 (run.lit) and npu2
// (run_strix.lit), reference and AIE-API kernels; the generation's kernel bit for bit; the
// interleaved weights; the parameter rules.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/kernels/activation_tanh.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <cstring>

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

TEST_CASE("swiglu matches its float32 golden on npu1 and npu2, reference and AIE-API kernels alike",
          "[examples][swiglu]") {
    const Params p{{"size", 16384}, {"columns", 4}};
    for (const char* dev : {"npu1", "npu2"}) {
        INFO(dev);
        const auto r_ref = run_design(design_by_name("swiglu"), dev, p, test::run_opts(dev, 5));
        const auto r_aie = run_design(design_by_name("swiglu"), dev, p, test::run_opts(dev, 5, KernelSet::aie));
        REQUIRE(r_ref.checks.size() == 1);
        CHECK(r_ref.checks[0].rtol == 0.128);
        CHECK(r_ref.all_match);
        CHECK(r_aie.all_match);
        CHECK(r_ref.workers == 4);
        CHECK(r_aie.result.host == r_ref.result.host);
        CHECK(r_aie.result.cycles == r_ref.result.cycles);
        // the truncating bf16 stores keep the kernel a few bf16 steps from the float golden
        CHECK(r_ref.checks[0].max_rel_err > 0.0);
        CHECK(r_ref.checks[0].max_rel_err < 0.128);
    }
}

TEST_CASE("swiglu runs the generation's kernel on the host's interleaved weights", "[examples][swiglu]") {
    const Params p{{"size", 4096}, {"columns", 2}};
    for (const char* dev : {"npu1", "npu2"}) {
        INFO(dev);
        const auto r = run_design(design_by_name("swiglu"), dev, p, test::run_opts(dev, 9));
        REQUIRE(r.all_match);
        const auto& spec = design_by_name("swiglu");
        auto inst = spec.build(model::device_by_name(dev), spec.resolve_params(p), 9);
        const auto a = inst.inputs.at("a").values<bfloat16>();
        const auto w = inst.inputs.at("w").values<bfloat16>();
        REQUIRE(w.size() == 2 * a.size());
        std::vector<bfloat16> want(a.size());
        for (std::size_t t = 0; t < a.size(); t += 1024) // line t/1024: w1 at 2t, w2 at 2t + 1024
            kernels::swiglu_bf16(a.data() + t, w.data() + 2 * t, w.data() + 2 * t + 1024, want.data() + t, 1024,
                                 std::string(dev) == "npu2");
        REQUIRE(r.result.host[2].size() == want.size() * 2);
        CHECK(std::memcmp(r.result.host[2].data(), want.data(), r.result.host[2].size()) == 0);
    }
}

TEST_CASE("swiglu parameter rules", "[examples][swiglu]") {
    const auto& spec = design_by_name("swiglu");
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"size", 2048}}, test::run_opts("npu1")),
                      "design 'swiglu': parameter size=2048 must be a positive multiple of 4096 (1024-element lines x "
                      "columns=4)");
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"columns", 5}}, test::run_opts("npu1")),
                      "design 'swiglu': parameter columns=5 exceeds device npu1's 4 columns (or is below 1)");
    CHECK_THROWS_AS(run_design(spec, "npu1_1col", {}, test::run_opts("npu1_1col")), DesignError);
}

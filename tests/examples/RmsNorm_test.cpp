// E13 ml/norm op=rms (mlir-aie programming_examples/ml/norm/norm.py, run_strix.lit: NPU2 only): the
// golden (float32 RMSNorm per row, assert_pass atol 0.05) with reference and AIE-API kernels, the
// kernel bit for bit per row, and the parameter and device rules.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/kernels/rms_norm.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <cstring>

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

TEST_CASE("rms_norm matches its float32 golden on npu2, reference and AIE-API kernels alike", "[examples][norm]") {
    const Params p{{"sequence_length", 16}, {"embedding_dim", 4096}};
    const auto r_ref = run_design(design_by_name("rms_norm"), "npu2", p, test::run_opts("npu2", 4));
    const auto r_aie = run_design(design_by_name("rms_norm"), "npu2", p, test::run_opts("npu2", 4, KernelSet::aie));
    REQUIRE(r_ref.checks.size() == 1);
    CHECK(r_ref.checks[0].atol == 0.05);
    CHECK(r_ref.checks[0].rtol == 0.128);
    CHECK(r_ref.all_match);
    CHECK(r_aie.all_match);
    CHECK(r_ref.workers == 8);
    CHECK(r_aie.result.host == r_ref.result.host);
    CHECK(r_aie.result.cycles == r_ref.result.cycles);
    CHECK(r_ref.checks[0].max_abs_err > 0.0); // truncating stores: a bf16 step off the golden at most
    CHECK(r_ref.checks[0].max_abs_err < 0.02);
}

TEST_CASE("rms_norm runs the kernel on each row", "[examples][norm]") {
    const Params p{{"sequence_length", 8}, {"embedding_dim", 256}};
    const auto r = run_design(design_by_name("rms_norm"), "npu2", p, test::run_opts("npu2", 6));
    REQUIRE(r.all_match);
    const auto& spec = design_by_name("rms_norm");
    auto inst = spec.build(model::device_by_name("npu2"), spec.resolve_params(p), 6);
    const auto a = inst.inputs.at("a").values<bfloat16>();
    std::vector<bfloat16> want(a.size());
    for (std::size_t row = 0; row < 8; ++row) kernels::rms_norm_bf16(a.data() + row * 256, want.data() + row * 256, 256);
    REQUIRE(r.result.host[1].size() == want.size() * 2);
    CHECK(std::memcmp(r.result.host[1].data(), want.data(), r.result.host[1].size()) == 0);
}

TEST_CASE("rms_norm parameter and device rules", "[examples][norm]") {
    const auto& spec = design_by_name("rms_norm");
    CHECK_THROWS_WITH(run_design(spec, "npu2", {{"sequence_length", 12}}, test::run_opts("npu2")),
                      "design 'rms_norm': parameter sequence_length=12 must be a positive multiple of 8 (the cores)");
    CHECK_THROWS_WITH(run_design(spec, "npu2", {{"embedding_dim", 100}}, test::run_opts("npu2")),
                      "design 'rms_norm': parameter embedding_dim=100 must be a positive multiple of 16 (the "
                      "kernel's vector)");
    CHECK_THROWS_AS(run_design(spec, "npu1", {}, test::run_opts("npu1")), DesignError);
}

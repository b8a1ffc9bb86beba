// E6 matmul_single_core and E7 matmul_whole_array in every dtype combination IRON's examples offer
// (dtype_in -> dtype_out: i8 -> i8/i16/i32, i16 -> i16/i32, bf16 -> bf16/f32), with the mmul shapes
// of each generation (AIE2 i8 4x8x8, i16 4x4x4, bf16 4x8x4; AIE2P 8x8x8, 4x4x8, 4x8x8), against the
// host golden (int64 / double triple loop, then converted to the output type; bf16 and f32 within
// the rtol the design states).
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

namespace {

RunOptions dtypes_run_opts(const std::string& device) { return test::run_opts(device, 5); }

const std::pair<const char*, const char*> kCombos[] = {{"i8", "i8"},   {"i8", "i16"},    {"i8", "i32"},  {"i16", "i16"},
                                                       {"i16", "i32"}, {"bf16", "bf16"}, {"bf16", "f32"}};

Params dtypes(const char* in, const char* out, Params p) {
    p["dtype_in"] = param_name_code(in);
    p["dtype_out"] = param_name_code(out);
    return p;
}

} // namespace

TEST_CASE("matmul_single_core: every dtype combination matches on npu1 and npu2", "[examples][matmul][dtypes]") {
    for (const char* device : {"npu1_1col", "npu2_1col"})
        for (const auto& [in, out] : kCombos) {
            INFO(device << " " << in << " -> " << out);
            const auto r = run_design(design_by_name("matmul_single_core"), device,
                                      dtypes(in, out, {{"M", 128}, {"K", 128}, {"N", 128}}), dtypes_run_opts(device));
            CHECK(r.all_match);
            REQUIRE(r.checks.size() == 1);
            INFO(r.checks[0].first_mismatches);
            CHECK(r.checks[0].mismatches == 0);
            CHECK(r.checks[0].elements == 128 * 128);
            CHECK(r.params.at("dtype_in") == (std::string(in) == "bf16" ? 0 : std::string(in) == "i8" ? 1 : 2));
        }
}

TEST_CASE("matmul_whole_array: every dtype combination matches on npu1 and npu2", "[examples][matmul][dtypes]") {
    // m = 16, n = 16 are multiples of 2r and 2t for every shape (AIE2P i8 8x8x8 needs 16 x 16)
    for (const char* device : {"npu1", "npu2"})
        for (const auto& [in, out] : kCombos) {
            INFO(device << " " << in << " -> " << out);
            const auto r =
                run_design(design_by_name("matmul_whole_array"), device,
                           dtypes(in, out, {{"M", 128}, {"K", 128}, {"N", 128}, {"m", 16}, {"k", 32}, {"n", 16}}),
                           dtypes_run_opts(device));
            CHECK(r.all_match);
            REQUIRE(r.checks.size() == 1);
            INFO(r.checks[0].first_mismatches);
            CHECK(r.checks[0].mismatches == 0);
        }
}

TEST_CASE("matmul dtypes: the defaults stay i16 -> i32 (single core) and i16 -> i16 (whole array)",
          "[examples][matmul][dtypes]") {
    const auto& sc = design_by_name("matmul_single_core");
    const auto& wa = design_by_name("matmul_whole_array");
    const auto sp = sc.resolve_params({}), wp = wa.resolve_params({});
    auto param = [](const DesignSpec& s, const std::string& name) {
        for (const auto& p : s.params)
            if (p.name == name) return p;
        FAIL("no parameter " << name);
        return ParamSpec{};
    };
    CHECK(param(sc, "dtype_in").value_str(sp.at("dtype_in")) == "i16");
    CHECK(param(sc, "dtype_out").value_str(sp.at("dtype_out")) == "i32");
    CHECK(param(wa, "dtype_out").value_str(wp.at("dtype_out")) == "i16");
    CHECK(param(sc, "dtype_in").describe() == "dtype_in=i16{bf16,i8,i16}");
    CHECK(param(wa, "dtype_out").describe() == "dtype_out=i16{bf16,i8,i16,f32,i32}");
    CHECK(param_takes_names("dtype_in"));
}

TEST_CASE("matmul dtypes: a combination mm.cc does not build, a wrong name", "[examples][matmul][dtypes]") {
    const auto o = dtypes_run_opts("npu1");
    CHECK_THROWS_WITH(run_design(design_by_name("matmul_single_core"), "npu1", dtypes("bf16", "i32", {}), o),
                      "design 'matmul_single_core': dtype_in=bf16 dtype_out=i32 is not a combination the mm kernel "
                      "builds (i8->i8, i8->i16, i8->i32, i16->i16, i16->i32, bf16->bf16, bf16->f32)");
    CHECK_THROWS_AS(run_design(design_by_name("matmul_whole_array"), "npu1", dtypes("i16", "i8", {}), o), DesignError);
    CHECK_THROWS_WITH(
        run_design(design_by_name("matmul_whole_array"), "npu1", {{"dtype_out", param_name_code("f16")}}, o),
        "design 'matmul_whole_array': parameter dtype_out=f16 is not one of bf16, i8, i16, f32, i32");
}

TEST_CASE("matmul dtypes: i8 and bf16 kernel calls follow their matrix unit's peak", "[examples][matmul][dtypes]") {
    // Same sizes, same data movement: i8 (256 MAC/cycle on AIE2) must not be slower than i16 (64),
    // bf16 (128) in between; on AIE2P every peak doubles.
    auto cycles = [](const char* device, const char* in, const char* out) {
        return run_design(design_by_name("matmul_single_core"), device,
                          dtypes(in, out, {{"M", 128}, {"K", 128}, {"N", 128}}), dtypes_run_opts(device))
            .result.cycles;
    };
    const auto i8 = cycles("npu1_1col", "i8", "i32"), i16 = cycles("npu1_1col", "i16", "i32"),
               bf16 = cycles("npu1_1col", "bf16", "f32");
    CHECK(i8 < bf16);
    CHECK(bf16 < i16);
}

TEST_CASE("matmul dtypes, kernels=aie: the AIE-API builds of every combination match on npu1 and npu2",
          "[examples][matmul][dtypes][aie]") {
    for (const char* device : {"npu1_1col", "npu2_1col"})
        for (const auto& [in, out] : kCombos) {
            INFO(device << " " << in << " -> " << out);
            auto o = dtypes_run_opts(device), ref = dtypes_run_opts(device);
            o.kernels = KernelSet::aie;
            const Params p = dtypes(in, out, {{"M", 128}, {"K", 128}, {"N", 128}});
            const auto r = run_design(design_by_name("matmul_single_core"), device, p, o);
            CHECK(r.kernels == KernelSet::aie);
            CHECK(r.all_match);
            REQUIRE(r.checks.size() == 1);
            INFO(r.checks[0].first_mismatches);
            CHECK(r.checks[0].mismatches == 0);
            // the same cost models: the same cycles as the reference build; integers bit for bit
            const auto rr = run_design(design_by_name("matmul_single_core"), device, p, ref);
            CHECK(r.result.cycles == rr.result.cycles);
            if (std::string(in) != "bf16") CHECK(r.result.host == rr.result.host);
        }
    for (const char* device : {"npu1", "npu2"})
        for (const auto& [in, out] : kCombos) {
            INFO(device << " whole_array " << in << " -> " << out);
            auto o = dtypes_run_opts(device);
            o.kernels = KernelSet::aie;
            const auto r =
                run_design(design_by_name("matmul_whole_array"), device,
                           dtypes(in, out, {{"M", 128}, {"K", 128}, {"N", 128}, {"m", 16}, {"k", 32}, {"n", 16}}), o);
            CHECK(r.all_match);
        }
}

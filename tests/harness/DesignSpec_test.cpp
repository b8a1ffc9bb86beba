// DesignSpec: supported devices and kernel builds, the "note instead of kernel sets" rule, and
// parameter resolution (defaults overridden, unknown names refused).
#include "npusim/harness/DesignSpec.hpp"
#include "npusim/model/Error.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

TEST_CASE("supports: listed devices and kernel sets only", "[harness][spec]") {
    DesignSpec s;
    s.devices = {"npu1", "npu2_1col"};
    CHECK(s.supports("npu1"));
    CHECK_FALSE(s.supports("npu2"));
    CHECK(s.supports(KernelSet::reference)); // the default kernel sets
    CHECK_FALSE(s.supports(KernelSet::aie));
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    CHECK(s.supports(KernelSet::aie));
    CHECK(every_device().size() == model::all_devices().size());
    CHECK(every_device().front() == model::all_devices().front().name);
}

TEST_CASE("kernels_note_only: only the reference build and a note", "[harness][spec]") {
    DesignSpec s;
    CHECK_FALSE(s.kernels_note_only()); // no note
    s.kernels_note = "no kernel: data moves by DMA only";
    CHECK(s.kernels_note_only());
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    CHECK_FALSE(s.kernels_note_only()); // a note beside the kernel sets
}

TEST_CASE("resolve_params: defaults overridden, unknown names refused", "[harness][spec]") {
    DesignSpec s;
    s.name = "d";
    s.params = {{"size", 4096, ""}, {"tile", 1024, ""}};
    CHECK(s.resolve_params({}) == Params{{"size", 4096}, {"tile", 1024}});
    CHECK(s.resolve_params({{"tile", 512}}) == Params{{"size", 4096}, {"tile", 512}});
    CHECK_THROWS_WITH(s.resolve_params({{"width", 3}}), "design 'd' has no parameter 'width' (parameters: size, tile)");
    s.params.clear();
    CHECK_THROWS_WITH(s.resolve_params({{"width", 3}}), "design 'd' has no parameter 'width' (parameters: none)");
}

TEST_CASE("resolve_params: a named parameter takes one of its names", "[harness][spec]") {
    DesignSpec s;
    s.name = "d";
    s.params = {{"size", 4096, ""}, {"dtype_in", 2, "", {"bf16", "i8", "i16"}}};
    CHECK(s.resolve_params({}) == Params{{"size", 4096}, {"dtype_in", 2}});
    // a name given on the command line (param_name_code) becomes its index
    CHECK(s.resolve_params({{"dtype_in", param_name_code("i8")}}) == Params{{"size", 4096}, {"dtype_in", 1}});
    CHECK(s.resolve_params({{"dtype_in", param_name_code("bf16")}}).at("dtype_in") == 0);
    // an index (a value resolved before) stays
    CHECK(s.resolve_params({{"dtype_in", 1}}).at("dtype_in") == 1);
    CHECK(param_name_code("i8") == param_name_code("i8"));
    CHECK(param_code_name(param_name_code("f64")) == "f64");
    CHECK_FALSE(param_code_name(7).has_value());
    CHECK_THROWS_AS(s.resolve_params({{"dtype_in", param_name_code("f64")}}), DesignError);
    CHECK_THROWS_WITH(s.resolve_params({{"dtype_in", param_name_code("f64")}}),
                      "design 'd': parameter dtype_in=f64 is not one of bf16, i8, i16");
    CHECK_THROWS_WITH(s.resolve_params({{"dtype_in", 3}}),
                      "design 'd': parameter dtype_in=3 is not one of bf16, i8, i16");
    CHECK_THROWS_WITH(s.resolve_params({{"size", param_name_code("big")}}),
                      "design 'd': parameter size takes an integer, got 'big'");
    CHECK(s.params[0].describe() == "size=4096");
    CHECK(s.params[1].describe() == "dtype_in=i16{bf16,i8,i16}");
    CHECK(s.params[1].value_str(0) == "bf16");
    CHECK(s.params[0].value_str(12) == "12");
}

TEST_CASE("param_takes_names: the registered matmul designs' dtype parameters", "[harness][spec]") {
    CHECK(param_takes_names("dtype_in"));
    CHECK(param_takes_names("dtype_out"));
    CHECK_FALSE(param_takes_names("M"));
    CHECK_FALSE(param_takes_names("size"));
}

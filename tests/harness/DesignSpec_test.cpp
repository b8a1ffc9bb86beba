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

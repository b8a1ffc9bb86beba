// The kernel-set names: parse_kernel_set (the one parser, behind --kernels) and its library form.
#include "npusim/harness/KernelSet.hpp"
#include "npusim/model/Error.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

TEST_CASE("parse_kernel_set: ref or reference, aie, nothing else", "[harness][kernels]") {
    CHECK(parse_kernel_set("ref") == KernelSet::reference);
    CHECK(parse_kernel_set("reference") == KernelSet::reference);
    CHECK(parse_kernel_set("aie") == KernelSet::aie);
    CHECK_FALSE(parse_kernel_set("chess").has_value());
    CHECK_FALSE(parse_kernel_set("").has_value());
    CHECK_FALSE(parse_kernel_set("AIE").has_value());
    CHECK_FALSE(parse_kernel_set("ref ").has_value());
    // Every name kernel_set_name gives reads back.
    for (auto k : {KernelSet::reference, KernelSet::aie}) CHECK(parse_kernel_set(kernel_set_name(k)) == k);
    CHECK(kernel_set_name(KernelSet::reference) == "ref");
    CHECK(kernel_set_name(KernelSet::aie) == "aie");
}

TEST_CASE("kernel_set_by_name: an unknown name is a DesignError listing the kernel sets", "[harness][kernels]") {
    CHECK(kernel_set_by_name("aie") == KernelSet::aie);
    CHECK(kernel_set_by_name("reference") == KernelSet::reference);
    CHECK(kernel_set_by_name("ref") == KernelSet::reference);
    CHECK_THROWS_WITH(kernel_set_by_name("chess"), "unknown kernel set 'chess' (kernel sets: ref, aie)");
    CHECK_THROWS_AS(kernel_set_by_name("chess"), DesignError);
}

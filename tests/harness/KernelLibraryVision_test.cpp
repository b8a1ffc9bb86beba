// The built-in library's vision kernels (harness/KernelLibraryVision.hpp, IRON vision.py): names and
// argument types as upstream declares them for the uint8 builds, threshold and bitwise_or run through
// algorithms.transform with both kernel sets against the reference kernels, and the checks.
#include "npusim/algorithms/Transform.hpp"
#include "npusim/harness/KernelLibraryVision.hpp"
#include "npusim/iron.hpp"
#include "npusim/kernels/vision.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>

namespace ikv = npusim::harness::iron_kernels;

TEST_CASE("vision factories: IRON's names and argument types (uint8 builds)", "[harness][kernel_library]") {
    using namespace npusim;
    const auto th = ikv::threshold(64);
    CHECK(th.name() == "thresholdLine");
    REQUIRE(th.arg_types().size() == 6);
    CHECK(th.arg_types()[3].str() == "i16 scalar");
    CHECK(th.arg_types()[5].str() == "i8 scalar");
    CHECK(ikv::rgba2hue(64).arg_types()[0].str() == "u8[256]");
    CHECK(ikv::gray2rgba(64).arg_types()[1].str() == "u8[256]");
    CHECK(ikv::rgba2gray().arg_types()[0].str() == "u8[7680]"); // line_width 1920 RGBA
    CHECK(ikv::filter2d(64).arg_types()[5].str() == "i16[3,3]");
    CHECK(ikv::bitwise_and(64).name() == "bitwiseANDLine");
    CHECK(ikv::add_weighted(64).arg_types()[6].str() == "i8 scalar");
    CHECK_THROWS_WITH(ikv::threshold(64, DType::i32),
                      "threshold(): dtype i32 (BIT_WIDTH=32) is not in npusim's kernel library (uint8 is)");
    CHECK_THROWS_WITH(ikv::bitwise_or(64, DType::f32),
                      "bitwiseOR: unsupported dtype f32. Use np.uint8, np.int16, or np.int32.");
    CHECK_THROWS_WITH(ikv::filter2d(0), "filter2d() line_width must be >= 1, got 0");
}

TEST_CASE("vision factories run: bitwise_or through transform_binary, both kernel sets", "[harness][kernel_library]") {
    using namespace npusim;
    std::vector<std::uint8_t> a(1024), b(1024), want(1024);
    for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = static_cast<std::uint8_t>(i * 7);
        b[i] = static_cast<std::uint8_t>(i * 13 + 5);
    }
    kernels::bitwise_or_line(a.data(), b.data(), want.data(), 1024);
    const auto ty = iron::tensor<std::uint8_t>({1024});
    for (auto ks : {harness::KernelSet::reference, harness::KernelSet::aie}) {
        INFO((ks == harness::KernelSet::aie ? "aie" : "ref"));
        const auto net = iron::algorithms::transform_binary(model::device_by_name("npu1_1col"),
                                                            ikv::bitwise_or(256, DType::u8, ks), ty,
                                                            {.tile_size = 256})
                             .resolve();
        const auto r = sim::simulate(net, {a, b, std::vector<std::uint8_t>(1024)}, {});
        CHECK(r.host[2] == want);
    }
}

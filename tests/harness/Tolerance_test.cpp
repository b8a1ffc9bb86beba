// The toolchain's rules (docs/notes/toolchain-rules.md I2): the two tolerance formulas at their
// boundaries, the ignore mask of never-written elements, and the in-out argument role.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/OutputCheck.hpp"
#include "npusim/iron.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>

using namespace npusim;
using namespace npusim::harness;

namespace {
Tensor f32(std::vector<float> v) { return Tensor::from<float>({static_cast<std::int64_t>(v.size())}, v); }
ArgSpec f32_out(std::int64_t n) { return ArgSpec::output("c", iron::tensor<float>({n})); }
} // namespace

TEST_CASE("allclose: |got - want| <= atol + rtol * |want| (numpy.isclose), inclusive, asymmetric",
          "[harness][tolerance]") {
    const auto a = f32_out(1);
    // want 100, rtol 0.01: 101 is on the boundary (passes), 101.01 is over it.
    CHECK(compare_output(a, 0, f32({101.0f}), f32({100.0f}), 0.01, 0).match);
    CHECK_FALSE(compare_output(a, 0, f32({101.01f}), f32({100.0f}), 0.01, 0).match);
    // Asymmetric: the bound scales with |want| only (want 0: atol alone).
    CHECK_FALSE(compare_output(a, 0, f32({1e-3f}), f32({0.0f}), 0.5, 0).match);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    CHECK(compare_output(a, 0, f32({nan}), f32({nan}), 0, 0).match); // NaN matches NaN here
}

TEST_CASE("nearly-equal: got == want or |got - want| < max(atol, rtol * (|got| + |want|)) in float32 (mlir-aie "
          "python/utils/verify.py nearly_equal)",
          "[harness][tolerance]") {
    const auto a = f32_out(1);
    const auto ne = ToleranceMode::nearly_equal;
    // rtol 0.01 on 100 and 102: bound 0.01 * 202 = 2.02 > 2 passes; allclose's bound is 1.
    CHECK(compare_output(a, 0, f32({102.0f}), f32({100.0f}), 0.01, 0, ne).match);
    CHECK_FALSE(compare_output(a, 0, f32({102.0f}), f32({100.0f}), 0.01, 0).match);
    // Strict: a difference equal to the bound fails (100 and 300: 0.5 * 400 = 200 = |diff|).
    CHECK_FALSE(compare_output(a, 0, f32({300.0f}), f32({100.0f}), 0.5, 0, ne).match);
    CHECK(compare_output(a, 0, f32({299.0f}), f32({100.0f}), 0.5, 0, ne).match);
    // Symmetric: the bound uses both values, so swapping got and want changes nothing; against 0
    // a relative tolerance below 1 never passes (|diff| = |got| > rtol * |got|).
    CHECK(compare_output(a, 0, f32({100.0f}), f32({102.0f}), 0.01, 0, ne).match);
    CHECK_FALSE(compare_output(a, 0, f32({1e-3f}), f32({0.0f}), 0.5, 0, ne).match);
    // The atol floor, and NaN never equal (IEEE), infinities equal to themselves.
    CHECK(compare_output(a, 0, f32({1e-9f}), f32({0.0f}), 0, 1e-8, ne).match);
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    CHECK_FALSE(compare_output(a, 0, f32({nan}), f32({nan}), 0.1, 0, ne).match);
    CHECK(compare_output(a, 0, f32({inf}), f32({inf}), 0.1, 0, ne).match);
    CHECK(parse_tolerance_mode("nearly-equal") == ne);
    CHECK(parse_tolerance_mode("allclose") == ToleranceMode::allclose);
    CHECK_FALSE(parse_tolerance_mode("close"));
}

TEST_CASE("an ignore mask leaves never-written elements out of the comparison", "[harness][tolerance]") {
    const auto base = ArgSpec::output("c", iron::tensor<std::int32_t>({6}));
    const auto masked = base.ignoring([](std::int64_t i) { return i % 2 == 1; });
    const auto got = Tensor::from<std::int32_t>({6}, {0, 99, 2, 99, 4, 99});
    const auto want = Tensor::from<std::int32_t>({6}, {0, 1, 2, 3, 4, 5});
    CHECK_FALSE(compare_output(base, 0, got, want, 0, 0).match);
    const auto c = compare_output(masked, 0, got, want, 0, 0);
    CHECK(c.match);
    CHECK(c.ignored == 3);
    const auto bad = Tensor::from<std::int32_t>({6}, {0, 99, 7, 99, 4, 99});
    const auto c2 = compare_output(masked, 0, bad, want, 0, 0);
    CHECK(c2.mismatches == 1);
    CHECK(c2.mismatch_indices == std::vector<std::uint64_t>{2});
}

TEST_CASE("an inout argument starts with given contents (a sentinel) and is compared in full", "[harness][inout]") {
    // The drain writes only the first half of `c`; the second half must keep the sentinel.
    DesignSpec spec;
    spec.name = "test_inout";
    spec.devices = {"npu1_1col"};
    spec.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions&) {
        using namespace iron;
        auto program =
            npusim::test::passthrough({.type = tensor<std::int32_t>({16}),
                                       .body =
                                           [](ObjectFifoHandle i, ObjectFifoHandle o) {
                                               auto e = i.acquire(1);
                                               auto f = o.acquire(1);
                                               std::memcpy(f.data(), e.data(), 64);
                                               i.release(1);
                                               o.release(1);
                                           },
                                       .seq =
                                           [](RuntimeData a, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle o) {
                                               i.fill(a);
                                               o.drain(c, {.wait = true, .transfer_len = 16});
                                           },
                                       .host_elements = 16,
                                       .out_host_elements = 32,
                                       .spec = &dev,
                                       .program = "test_inout"});
        std::vector<std::int32_t> a(16), sentinel(32, -7);
        for (std::size_t i = 0; i < 16; ++i) a[i] = static_cast<std::int32_t>(i * 3);
        return DesignInstance(
            std::move(program),
            {ArgSpec::input("a", tensor<std::int32_t>({16})), ArgSpec::inout("c", tensor<std::int32_t>({32}))},
            {{"a", Tensor::from<std::int32_t>({16}, a)}, {"c", Tensor::from<std::int32_t>({32}, sentinel)}},
            [](const Tensors& t) {
                auto c = t.at("c").values<std::int32_t>();
                const auto x = t.at("a").values<std::int32_t>();
                std::copy(x.begin(), x.end(), c.begin());
                return Tensors{{"c", Tensor::from<std::int32_t>({32}, c)}};
            },
            "test_inout");
    };
    const auto rep = run_design(spec, "npu1_1col", {}, RunOptions{});
    REQUIRE(rep.checks.size() == 1);
    CHECK(rep.checks[0].match);
    CHECK(rep.checks[0].elements == 32);
    std::int32_t last = 0;
    std::memcpy(&last, rep.result.host[1].data() + 31 * 4, 4);
    CHECK(last == -7); // the sentinel survived where nothing was written
    CHECK(rep.arg_sources[1] == "seed 1");
}

// OutputCheck: comparison of one output (exact integers, rtol/atol floats), the mismatch report,
// and check_outputs, the one comparison of a run's outputs.
#include "npusim/harness/OutputCheck.hpp"
#include "npusim/model/Error.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using namespace npusim;
using namespace npusim::harness;

namespace {

ArgSpec out_arg(DType t, std::vector<std::int64_t> shape, double rtol = 0, double atol = 0) {
    ArgSpec a;
    a.name = "y";
    a.dtype = t;
    a.shape = std::move(shape);
    a.role = ArgRole::output;
    a.rtol = rtol;
    a.atol = atol;
    return a;
}

} // namespace

TEST_CASE("integer outputs are compared exactly, with indices and values side by side", "[golden]") {
    const auto arg = out_arg(DType::i16, {8});
    const auto want = Tensor::from<std::int16_t>({8}, {1, 2, 3, 4, 5, 6, 7, -32768});
    auto got = want;
    CHECK(compare_output(arg, 2, got, want, 0.5, 100).match); // tolerances do not apply to integers
    auto g = want.values<std::int16_t>();
    g[1] = 3;
    g[5] = 7;
    g[6] = 8;
    g[7] = 32767;
    got = Tensor::from({8}, g);
    const auto c = compare_output(arg, 2, got, want, 0.5, 100);
    CHECK_FALSE(c.match);
    CHECK(c.name == "y (arg 2)");
    CHECK(c.elements == 8);
    CHECK(c.mismatches == 4);
    CHECK(c.mismatch_indices == std::vector<std::uint64_t>{1, 5, 6, 7});
    CHECK(c.index_summary() == "[1], [5]..[7]");
    REQUIRE(c.first.size() == 4);
    CHECK(c.first[3].got == "32767");
    CHECK(c.first[3].want == "-32768");
    CHECK(c.first_mismatches == "[1] got 3 want 2; [5] got 7 want 6; [6] got 8 want 7; [7] got 32767 want -32768");
    CHECK(describe_mismatches(c, "  ") == "  4 of 8 elements differ at [1], [5]..[7]\n"
                                          "  index    got    want\n"
                                          "    [1]      3       2\n"
                                          "    [5]      7       6\n"
                                          "    [6]      8       7\n"
                                          "    [7]  32767  -32768\n");
}

TEST_CASE("many mismatches: indices kept up to a limit, ranges summarised, the rest counted", "[golden]") {
    const auto arg = out_arg(DType::u8, {3000});
    const Tensor want(DType::u8, {3000});
    Tensor got = want;
    for (std::size_t i = 100; i < 3000; i += 2) got.data[i] = 1;
    const auto c = compare_output(arg, 0, got, want, 0, 0);
    CHECK(c.mismatches == 1450);
    CHECK(c.mismatch_indices.size() == OutputCheck::kMaxIndices);
    CHECK(c.first.size() == OutputCheck::kMaxShown);
    CHECK(c.index_summary(3) == "[100], [102], [104], ...");
    CHECK_THAT(describe_mismatches(c), Catch::EndsWith("    ... 1442 more\n"));
    // Multi-dimensional outputs show numpy indices.
    const auto arg2 = out_arg(DType::i32, {2, 3});
    auto g2 = Tensor::from<std::int32_t>({2, 3}, {0, 0, 0, 0, 9, 9});
    const auto c2 = compare_output(arg2, 0, g2, Tensor(DType::i32, {2, 3}), 0, 0);
    CHECK(c2.index_summary() == "[1, 1]..[1, 2]");
    CHECK(c2.first_mismatches == "[1, 1] got 9 want 0; [1, 2] got 9 want 0");
    CHECK(format_index(5, {}) == "[5]");
}

TEST_CASE("float outputs use |got - want| <= atol + rtol * |want|, NaN matches NaN", "[golden]") {
    const auto arg = out_arg(DType::f32, {6});
    const auto want = Tensor::from<float>({6}, {1.0f, 100.0f, 0.0f, NAN, INFINITY, -2.0f});
    auto got = Tensor::from<float>({6}, {1.0f + 2e-6f, 100.01f, 1e-9f, NAN, INFINITY, -2.0f});
    auto c = compare_output(arg, 1, got, want, 2e-4, 1e-8);
    INFO(describe_mismatches(c));
    CHECK(c.match);
    CHECK(c.is_float);
    CHECK(c.max_abs_err == Approx(0.01).epsilon(1e-3));
    CHECK(c.max_rel_err == Approx(1e-4).epsilon(1e-2));
    // Tighter: 100.01 vs 100 (rel 1e-4) and 1e-9 vs 0 fail; NaN vs number and inf vs -inf fail.
    got = Tensor::from<float>({6}, {1.0f, 100.01f, 1e-9f, 1.0f, -INFINITY, NAN});
    c = compare_output(arg, 1, got, want, 1e-5, 0);
    CHECK(c.mismatches == 5);
    CHECK(c.mismatch_indices == std::vector<std::uint64_t>{1, 2, 3, 4, 5});
    CHECK(std::isinf(c.max_abs_err));
    CHECK(c.first[0].got == "100.01");
    CHECK(c.first[0].want == "100");
    CHECK(c.first[1].rel_err == std::numeric_limits<double>::infinity());
    CHECK(c.first[2].got == "1");
    CHECK(c.first[2].want == "nan");
    CHECK(c.first[3].got == "-inf");
    const auto text = describe_mismatches(c, "");
    CHECK_THAT(
        text,
        Catch::StartsWith(
            "5 of 6 elements differ at [1]..[5]\nmax abs err inf, max rel err inf (tolerance: rtol 1e-05, atol 0)\n"
            "index     got  want  abs err  rel err\n"
            "  [1]  100.01   100     0.01   0.0001\n"
            "  [2]   1e-09     0    1e-09      inf\n"
            "  [3]       1   nan      inf      inf\n"));
}

TEST_CASE("bf16 outputs: tolerance in float, values shown as the shortest bf16 decimal", "[golden]") {
    const auto arg = out_arg(DType::bf16, {3});
    const auto want = Tensor::from<bfloat16>({3}, {bfloat16(0.1f), bfloat16(1.0f), bfloat16(-3.0f)});
    // One bf16 ulp above each: 1.0078125 for 1.0.
    std::vector<bfloat16> g = want.values<bfloat16>();
    for (auto& x : g) x = bfloat16::from_bits(static_cast<std::uint16_t>(x.bits + 1));
    const auto got = Tensor::from({3}, g);
    CHECK(compare_output(arg, 0, got, want, 1e-2, 0).match);
    const auto c = compare_output(arg, 0, got, want, 1e-3, 0);
    CHECK(c.mismatches == 3);
    CHECK(c.first[0].want == "0.1");
    CHECK(c.first[0].got == "0.1006");
    CHECK(c.first[1].got == "1.01"); // 1.0078125: the neighbours are 1 and 1.015625
    CHECK(c.first[2].got == "-3.02"); // -3.015625
    CHECK(format_value(DType::bf16, reinterpret_cast<const std::uint8_t*>(&g[1].bits)) == "1.01");
    const bfloat16 third(1.0f / 3);
    CHECK(format_value(DType::bf16, reinterpret_cast<const std::uint8_t*>(&third.bits)) == "0.334"); // 0.333984375
    const float f = 0.1f;
    CHECK(format_value(DType::f32, reinterpret_cast<const std::uint8_t*>(&f)) == "0.1");
}

TEST_CASE("a dtype or shape disagreement is reported, not compared", "[golden]") {
    const auto c = compare_output(out_arg(DType::i32, {4}), 1, Tensor(DType::i32, {3}), Tensor(DType::i32, {4}), 0, 0);
    CHECK_FALSE(c.match);
    CHECK(c.error == "cannot compare: got i32[3], expected i32[4], the argument is i32[4]");
    CHECK(describe_mismatches(c) == "    cannot compare: got i32[3], expected i32[4], the argument is i32[4]\n");
}

TEST_CASE("check_outputs compares every output argument in order, with its tolerance unless overridden", "[golden]") {
    auto in = out_arg(DType::i16, {2});
    in.name = "a";
    in.role = ArgRole::input;
    auto unused = out_arg(DType::i16, {2});
    unused.name = "u";
    unused.role = ArgRole::unused;
    auto y = out_arg(DType::f32, {2}, 1e-3, 0);
    auto z = out_arg(DType::i32, {2});
    z.name = "z";
    const std::vector<ArgSpec> args{in, y, unused, z};
    const Tensors want{{"y", Tensor::from<float>({2}, {1.0f, 2.0f})}, {"z", Tensor::from<std::int32_t>({2}, {5, 6})}};
    std::vector<std::vector<std::uint8_t>> host{
        std::vector<std::uint8_t>(4), to_bytes(std::vector<float>{1.0005f, 2.0f}), std::vector<std::uint8_t>(4),
        to_bytes(std::vector<std::int32_t>{5, 7})};
    auto checks = check_outputs("d", args, host, want);
    REQUIRE(checks.size() == 2); // inputs and unused arguments are not checked
    CHECK(checks[0].name == "y (arg 1)");
    CHECK(checks[0].match); // rel err 5e-4 <= rtol 1e-3
    CHECK(checks[0].rtol == 1e-3);
    CHECK(checks[1].name == "z (arg 3)");
    CHECK(checks[1].mismatch_indices == std::vector<std::uint64_t>{1});
    CHECK(checks[1].expected_from == "reference");
    // Overrides replace the float tolerances; integers stay exact.
    checks = check_outputs("d", args, host, want, {.rtol = 1e-4, .atol = std::nullopt});
    CHECK_FALSE(checks[0].match);
    CHECK(checks[0].rtol == 1e-4);
    checks = check_outputs("d", args, host, want, {.rtol = 0, .atol = 1.0});
    CHECK(checks[0].match);
    CHECK(checks[0].atol == 1.0);
    CHECK_FALSE(checks[1].match);
}

TEST_CASE("check_outputs: a wrong-sized output is reported, a wrong tensor count is an error", "[golden]") {
    const auto y = out_arg(DType::i32, {4});
    const Tensors want{{"y", Tensor(DType::i32, {4})}};
    const auto checks = check_outputs("d", {y}, {std::vector<std::uint8_t>(12)}, want);
    REQUIRE(checks.size() == 1);
    CHECK_FALSE(checks[0].match);
    CHECK(checks[0].mismatches == 4);
    CHECK(checks[0].error == "cannot compare: the output holds 12 bytes, the argument i32[4] has 16");
    CHECK(checks[0].first_mismatches == checks[0].error);
    CHECK_THROWS_WITH(check_outputs("d", {y}, {}, want),
                      "design 'd': 0 host tensors to check, the design has 1 arguments");
    CHECK_THROWS_AS(require_host_per_argument("d", {y, y}, 1), DesignError);
    CHECK_NOTHROW(require_host_per_argument("d", {y}, 1));
}

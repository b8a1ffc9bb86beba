// Tests for row_wise_bias_add_f32 and its cost estimate (kernels_ref/row_wise_bias_add.hpp).
#include <npusim/kernels/row_wise_bias_add.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

using namespace npusim::kernels;

namespace {

#define REQUIRE_INVALID(expr, text)                                                                                    \
    do {                                                                                                               \
        REQUIRE_THROWS_AS(expr, std::invalid_argument);                                                                \
        REQUIRE_THROWS_WITH(expr, Catch::Matchers::Contains(text));                                                    \
    } while (0)

// Golden: the sum of two floats computed in double and rounded once to float. Double has more
// than 2*24+2 bits of precision, so this equals the correctly rounded float sum (no double-rounding
// error) while being computed independently of the kernel's float addition.
std::vector<float> golden(const std::vector<float>& in, const std::vector<float>& bias, int m, int n) {
    std::vector<float> out(in.size());
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            const std::size_t idx =
                static_cast<std::size_t>(i) * static_cast<std::size_t>(n) + static_cast<std::size_t>(j);
            out[idx] = static_cast<float>(static_cast<double>(in[idx]) +
                                          static_cast<double>(bias[static_cast<std::size_t>(j)]));
        }
    return out;
}

bool same_float(float a, float b) {
    return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

} // namespace

TEST_CASE("row_wise_bias_add_f32 E9 golden: in = arange, bias = 3 * arange(n)", "[kernels][row_wise_bias_add]") {
    // One 96 x 32 tile of the E9 design (M = 768, N = 2304): the tile at row block 0, column strip 5.
    const int m = 96, n = 32, N = 2304, col0 = 5 * 32;
    std::vector<float> in(static_cast<std::size_t>(m * n)), bias(static_cast<std::size_t>(n)), out(in.size());
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) in[static_cast<std::size_t>(i * n + j)] = static_cast<float>(i * N + col0 + j);
    for (int j = 0; j < n; ++j) bias[static_cast<std::size_t>(j)] = 3.0f * static_cast<float>(col0 + j);
    row_wise_bias_add_f32(in.data(), bias.data(), out.data(), m, n);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            REQUIRE(out[static_cast<std::size_t>(i * n + j)] == static_cast<float>(i * N + col0 + j + 3 * (col0 + j)));
}

TEST_CASE("row_wise_bias_add_f32 matches a float golden on random data", "[kernels][row_wise_bias_add]") {
    std::uint32_t seed = 900;
    for (auto [m, n] : {std::pair{1, 32} /* minimum */, std::pair{96, 32}, std::pair{7, 64}, std::pair{16, 96}}) {
        std::mt19937 rng(seed++);
        std::uniform_real_distribution<float> dist(-1e6f, 1e6f);
        std::vector<float> in(static_cast<std::size_t>(m * n)), bias(static_cast<std::size_t>(n));
        for (auto& x : in) x = dist(rng);
        for (auto& x : bias) x = dist(rng) * 1e-3f;
        std::vector<float> out(in.size() + 16, 123.0f);
        row_wise_bias_add_f32(in.data(), bias.data(), out.data(), m, n);
        const auto expected = golden(in, bias, m, n);
        INFO("m=" << m << " n=" << n);
        for (std::size_t i = 0; i < expected.size(); ++i) REQUIRE(same_float(out[i], expected[i]));
        for (std::size_t i = expected.size(); i < out.size(); ++i) REQUIRE(out[i] == 123.0f);
    }
}

TEST_CASE("row_wise_bias_add_f32 edge values and in-place update", "[kernels][row_wise_bias_add]") {
    const float inf = std::numeric_limits<float>::infinity();
    const float fmax = std::numeric_limits<float>::max();
    std::vector<float> in(32, 1.0f), bias(32, 0.0f);
    in[0] = inf;
    bias[0] = -1e30f; // inf + finite = inf
    in[1] = -0.0f;
    bias[1] = 0.0f; // -0 + +0 = +0
    in[2] = fmax;
    bias[2] = fmax; // overflow -> inf
    in[3] = -fmax;
    bias[3] = -fmax; // overflow -> -inf
    in[4] = 1e-45f;
    bias[4] = -1e-45f; // denormals cancel
    in[5] = 16777216.f;
    bias[5] = 1.0f; // 2^24 + 1 rounds to even
    in[6] = -0.0f;
    bias[6] = -0.0f;
    const auto expected = golden(in, bias, 1, 32);
    std::vector<float> inplace = in;
    row_wise_bias_add_f32(inplace.data(), bias.data(), inplace.data(), 1, 32);
    for (std::size_t i = 0; i < 32; ++i) REQUIRE(same_float(inplace[i], expected[i]));
    REQUIRE(inplace[0] == inf);
    REQUIRE(!std::signbit(inplace[1]));
    REQUIRE(inplace[2] == inf);
    REQUIRE(inplace[3] == -inf);
    REQUIRE(inplace[5] == 16777216.f);
    REQUIRE(std::signbit(inplace[6]));
}

TEST_CASE("row_wise_bias_add_f32 preconditions throw std::invalid_argument", "[kernels][row_wise_bias_add]") {
    std::vector<float> in(96 * 64, 1.0f), bias(64, 2.0f), out(96 * 64, 5.0f);
    REQUIRE_INVALID(row_wise_bias_add_f32(in.data(), bias.data(), out.data(), 96, 48), "multiple of 32");
    REQUIRE_INVALID(row_wise_bias_add_f32(in.data(), bias.data(), out.data(), 96, 16), "multiple of 32");
    REQUIRE_INVALID(row_wise_bias_add_f32(in.data(), bias.data(), out.data(), 0, 32), "m must be > 0");
    REQUIRE_INVALID(row_wise_bias_add_f32(in.data(), bias.data(), out.data(), 4, -32), "n must be > 0");
    REQUIRE_INVALID(row_wise_bias_add_f32(in.data(), nullptr, out.data(), 4, 32), "'bias' is null");
    REQUIRE_INVALID(row_wise_bias_add_f32(nullptr, bias.data(), out.data(), 4, 32), "'in' is null");
    REQUIRE_INVALID(row_wise_bias_add_f32(in.data(), bias.data(), nullptr, 4, 32), "'out' is null");
    for (auto x : out) REQUIRE(x == 5.0f);
}

TEST_CASE("row_wise_bias_add_f32_cycles: store-bound, 8 floats per cycle", "[kernels][row_wise_bias_add][cost]") {
    REQUIRE(kBiasAddFloatsPerCycle == 8);
    REQUIRE(row_wise_bias_add_f32_cycles(96, 32) == 96 * 32 / 8 + kBiasAddStripCycles);
    REQUIRE(row_wise_bias_add_f32_cycles(96, 64) == 96 * 64 / 8 + 2 * kBiasAddStripCycles);
    REQUIRE(row_wise_bias_add_f32_cycles(0, 0) == 0);
    REQUIRE_INVALID(row_wise_bias_add_f32_cycles(-1, 32), ">= 0");
}

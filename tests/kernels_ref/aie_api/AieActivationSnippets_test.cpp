// Small kernels written here in the style of mlir-aie's silu / gelu / layer_norm sources, built from
// the pieces those sources need (accfloat -> bf16 conversion on assignment, getTanhBf16 / aie::tanh,
// aie::invsqrt). Each is checked twice: bit for bit against a scalar re-computation of the same steps
// (every bf16 rounding to nearest even, done by an independent search), and against the math
// function in double with a stated tolerance.
#include <aie_api/aie.hpp>
#include <lut_based_ops.h>

#include "AieTestData.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using npusim::bfloat16;

using npusim::test::aie_test_data::bf_bits;

namespace {


// Nearest bf16 (as a float) to a finite value, ties to the even significand.
float rn_bf16(long double x) {
    const bool neg = std::signbit(x);
    const long double v = std::fabs(x);
    std::uint16_t a = 0, b = 0x7F7F;
    while (a < b) {
        const auto mid = static_cast<std::uint16_t>((a + b + 1) / 2);
        if (static_cast<long double>(bf_bits(mid)) <= v)
            a = mid;
        else
            b = static_cast<std::uint16_t>(mid - 1);
    }
    std::uint16_t r = a;
    const long double lo = bf_bits(a);
    if (lo != v) {
        const long double hi = bf_bits(static_cast<std::uint16_t>(a + 1));
        if (hi - v < v - lo || (hi - v == v - lo && (a & 1u) != 0)) r = static_cast<std::uint16_t>(a + 1);
    }
    const float f = bf_bits(r);
    return neg ? -f : f;
}

// SiLU as an AIE2 kernel writes it: x * 0.5 * (1 + tanh(x / 2)), tanh from getTanhBf16.
void silu_kernel(const bfloat16* in, bfloat16* out, int n) {
    const auto half = aie::broadcast<bfloat16, 16>(0.5f);
    const auto one = aie::broadcast<bfloat16, 16>(1.0f);
    for (int i = 0; i < n; i += 16) {
        const auto x = aie::load_v<16>(in + i);
        const aie::vector<bfloat16, 16> hx = aie::mul(x, half);
        const aie::vector<bfloat16, 16> t = getTanhBf16(hx);
        const auto t1 = aie::add(t, one);
        const aie::vector<bfloat16, 16> sig = aie::mul(t1, half);
        const aie::vector<bfloat16, 16> y = aie::mul(x, sig);
        aie::store_v(out + i, y);
    }
}

// GELU (tanh form) as an AIE2P kernel writes it: the tanh argument stays in float.
void gelu_kernel(const bfloat16* in, bfloat16* out, int n) {
    const auto k = aie::broadcast<bfloat16, 16>(0.044715f);
    const auto s = aie::broadcast<bfloat16, 16>(0.7978845608f);
    const auto half = aie::broadcast<bfloat16, 16>(0.5f);
    const auto one = aie::broadcast<bfloat16, 16>(1.0f);
    for (int i = 0; i < n; i += 16) {
        const auto x = aie::load_v<16>(in + i);
        const aie::vector<bfloat16, 16> x2 = aie::mul(x, x);
        const aie::vector<bfloat16, 16> x3 = aie::mul(x2, x);
        const aie::vector<bfloat16, 16> kx3 = aie::mul(x3, k);
        const auto inner = aie::add(x, kx3);
        const aie::vector<float, 16> arg = aie::mul(inner, s);
        const aie::vector<bfloat16, 16> t = aie::tanh<bfloat16>(arg);
        const auto t1 = aie::add(t, one);
        const aie::vector<bfloat16, 16> hx = aie::mul(x, half);
        const aie::vector<bfloat16, 16> y = aie::mul(hx, t1);
        aie::store_v(out + i, y);
    }
}

std::vector<bfloat16> inputs(int n, unsigned seed, float lo, float hi) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<bfloat16> v(static_cast<std::size_t>(n));
    for (auto& e : v) e = bfloat16(d(rng));
    return v;
}

} // namespace

TEST_CASE("a SiLU kernel built on getTanhBf16 is exact to its own steps and within 2% + 0.02 of x*sigmoid(x)",
          "[aie_api][snippets]") {
    npusim::aie_api::ScopedCoreModes keep;
    aie::set_rounding(aie::rounding_mode::conv_even);
    constexpr int n = 1024;
    const auto x = inputs(n, 21, -8.0f, 8.0f);
    std::vector<bfloat16> y(n);
    silu_kernel(x.data(), y.data(), n);
    for (int i = 0; i < n; ++i) {
        const long double xv = static_cast<float>(x[i]);
        const float hx = rn_bf16(xv * 0.5L);
        const float t = rn_bf16(std::tanh(static_cast<long double>(hx)));
        const float t1 = rn_bf16(static_cast<long double>(t) + 1.0L);
        const float sig = rn_bf16(static_cast<long double>(t1) * 0.5L);
        const float expect = rn_bf16(xv * sig);
        INFO("x = " << static_cast<double>(xv));
        REQUIRE(static_cast<float>(y[i]) == expect);
        const double math = static_cast<double>(xv) / (1.0 + std::exp(-static_cast<double>(xv)));
        REQUIRE(std::fabs(static_cast<float>(y[i]) - math) <= 0.02 * std::fabs(math) + 0.02);
    }
}

TEST_CASE("a GELU kernel built on aie::tanh is exact to its own steps and within 3% + 0.02 of the tanh GELU",
          "[aie_api][snippets]") {
    npusim::aie_api::ScopedCoreModes keep;
    aie::set_rounding(aie::rounding_mode::conv_even);
    constexpr int n = 1024;
    const auto x = inputs(n, 22, -6.0f, 6.0f);
    std::vector<bfloat16> y(n);
    gelu_kernel(x.data(), y.data(), n);
    const float k = static_cast<float>(bfloat16(0.044715f)), s = static_cast<float>(bfloat16(0.7978845608f));
    for (int i = 0; i < n; ++i) {
        const long double xv = static_cast<float>(x[i]);
        const float x2 = rn_bf16(xv * xv);
        const float x3 = rn_bf16(static_cast<long double>(x2) * xv);
        const float kx3 = rn_bf16(static_cast<long double>(x3) * k);
        const float inner = rn_bf16(xv + kx3);
        const float arg = static_cast<float>(static_cast<long double>(inner) * s); // exact: 8-bit x 8-bit
        const float t = rn_bf16(std::tanh(static_cast<long double>(arg)));
        const float t1 = rn_bf16(static_cast<long double>(t) + 1.0L);
        const float hx = rn_bf16(xv * 0.5L);
        const float expect = rn_bf16(static_cast<long double>(hx) * t1);
        INFO("x = " << static_cast<double>(xv));
        REQUIRE(static_cast<float>(y[i]) == expect);
        const double xd = static_cast<double>(xv);
        const double math = 0.5 * xd * (1.0 + std::tanh(0.7978845608 * (xd + 0.044715 * xd * xd * xd)));
        REQUIRE(std::fabs(static_cast<float>(y[i]) - math) <= 0.03 * std::fabs(math) + 0.02);
    }
}

TEST_CASE("a layer-norm kernel with an accfloat row sum and aie::invsqrt is within 2% + 0.02 of the double norm",
          "[aie_api][snippets]") {
    npusim::aie_api::ScopedCoreModes keep;
    aie::set_rounding(aie::rounding_mode::conv_even);
    constexpr int N = 16, cols = 2048;
    const auto x = inputs(cols, 23, -3.0f, 5.0f);
    aie::accum<accfloat, N> sum = aie::zeros<accfloat, N>();
    aie::vector<float, N> sum_sq = aie::zeros<float, N>();
    for (int i = 0; i < cols; i += N) {
        const auto v = aie::load_v<N>(x.data() + i);
        sum = aie::add(sum, v);
        const aie::vector<float, N> sq = aie::mul(v, v);
        sum_sq = aie::add(sum_sq, sq);
    }
    const float mean = aie::reduce_add(sum.to_vector<float>()) / float(cols);
    const float var = aie::reduce_add(sum_sq) / float(cols) - mean * mean;
    const float inv_std = aie::invsqrt(var + 1e-5f);
    const auto mean_v = aie::broadcast<bfloat16, N>(bfloat16(mean));
    const auto inv_v = aie::broadcast<bfloat16, N>(bfloat16(inv_std));
    std::vector<bfloat16> y(cols);
    for (int i = 0; i < cols; i += N) {
        const auto d = aie::sub(aie::load_v<N>(x.data() + i), mean_v);
        const aie::vector<bfloat16, N> o = aie::mul(d, inv_v);
        aie::store_v(y.data() + i, o);
    }
    double m = 0, q = 0;
    for (auto e : x) m += static_cast<float>(e);
    m /= cols;
    for (auto e : x) q += (static_cast<float>(e) - m) * (static_cast<float>(e) - m);
    const double inv_ref = 1.0 / std::sqrt(q / cols + 1e-5);
    CHECK(std::fabs(inv_std - inv_ref) <= 1e-4 * inv_ref);
    for (int i = 0; i < cols; ++i) {
        const double ref = (static_cast<float>(x[i]) - m) * inv_ref;
        REQUIRE(std::fabs(static_cast<float>(y[i]) - ref) <= 0.02 * std::fabs(ref) + 0.02);
    }
}

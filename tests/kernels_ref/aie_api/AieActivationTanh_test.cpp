// AIE-API builds of silu / gelu / swiglu (kernels_ref/aie/activation_tanh.cc) against the plain C++
// references (kernels_ref/src/activation_tanh.cpp), bit for bit, both generations, in the core's reset
// modes (the upstream sources set none); the references against the float32 formulas of IRON's
// silu_ref / gelu_ref (python/iron/kernels/activation.py) and ml/swiglu's reference, within the
// rtol 0.128 those tests use; the cost estimates against the vector unit's rate.
#include <npusim/aie_kernels.hpp>
#include <npusim/kernels/activation_tanh.hpp>

#include <aie_api/aie.hpp> // the core modes

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace k = npusim::aie_kernels;
namespace ref = npusim::kernels;
using npusim::bfloat16;

namespace {

// every bf16 bit pattern, 64 tiles of 1024
std::vector<bfloat16> act_every_bf16() {
    std::vector<bfloat16> v(65536);
    for (std::uint32_t i = 0; i < 65536; ++i) v[i] = bfloat16::from_bits(static_cast<std::uint16_t>(i));
    return v;
}

bool act_same(bfloat16 a, bfloat16 b) {
    const bool na = std::isnan(float(a)), nb = std::isnan(float(b));
    return (na && nb) || a.bits == b.bits;
}

int act_differences(const std::vector<bfloat16>& a, const std::vector<bfloat16>& b) {
    int d = 0;
    for (std::size_t i = 0; i < a.size(); ++i) d += act_same(a[i], b[i]) ? 0 : 1;
    return d;
}

std::vector<bfloat16> act_uniform(std::size_t n, float lo, float hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(lo, hi);
    std::vector<bfloat16> v(n);
    for (auto& x : v) x = bfloat16(u(rng));
    return v;
}

// aie.utils.verify nearly_equal with rtol 0.128 (python/utils/verify.py)
bool act_close(float a, float e, float atol = 0.0f) {
    return a == e || std::fabs(a - e) <= std::max(atol, 0.128f * (std::fabs(a) + std::fabs(e)));
}

using Unary = void (*)(const bfloat16*, bfloat16*, std::int32_t);

void act_run_tiles(Unary f, const std::vector<bfloat16>& in, std::vector<bfloat16>& out) {
    for (std::size_t t = 0; t < in.size(); t += 1024) {
        npusim::aie_api::reset_core_modes();
        f(in.data() + t, out.data() + t, 1024);
    }
}

} // namespace

TEST_CASE("silu/gelu AIE-API builds equal the references on every bf16 value", "[aie_kernels][activation]") {
    const auto in = act_every_bf16();
    std::vector<bfloat16> a(in.size()), r(in.size());
    for (const bool aie2p : {false, true}) {
        INFO("aie2p " << aie2p);
        act_run_tiles(aie2p ? &k::silu_bf16_aie2p : &k::silu_bf16_aie2, in, a);
        for (std::size_t t = 0; t < in.size(); t += 1024) ref::silu_bf16(in.data() + t, r.data() + t, 1024, aie2p);
        CHECK(act_differences(a, r) == 0);
        act_run_tiles(aie2p ? &k::gelu_bf16_aie2p : &k::gelu_bf16_aie2, in, a);
        for (std::size_t t = 0; t < in.size(); t += 1024) ref::gelu_bf16(in.data() + t, r.data() + t, 1024, aie2p);
        CHECK(act_differences(a, r) == 0);
    }
}

TEST_CASE("swiglu AIE-API builds equal the reference", "[aie_kernels][activation]") {
    const npusim::aie_api::ScopedCoreModes keep_modes; // the modes set here end with the test
    const auto x = act_uniform(8192, -4.0f, 4.0f, 1), w1 = act_uniform(8192, -2.0f, 2.0f, 2),
               w2 = act_uniform(8192, -2.0f, 2.0f, 3);
    std::vector<bfloat16> a(x.size()), r(x.size());
    for (const bool aie2p : {false, true}) {
        INFO("aie2p " << aie2p);
        for (std::size_t t = 0; t < x.size(); t += 1024) {
            npusim::aie_api::reset_core_modes();
            (aie2p ? k::swiglu_bf16_aie2p : k::swiglu_bf16_aie2)(x.data() + t, w1.data() + t, w2.data() + t,
                                                                 a.data() + t, 1024);
            ref::swiglu_bf16(x.data() + t, w1.data() + t, w2.data() + t, r.data() + t, 1024, aie2p);
        }
        CHECK(act_differences(a, r) == 0);
    }
}

TEST_CASE("the activations store bf16 in the core's mode: a nearest-even core gives other bits", "[aie_kernels][activation]") {
    const npusim::aie_api::ScopedCoreModes keep_modes; // the modes set here end with the test
    // the reference models the reset mode (floor); under conv_even the AIE-API build differs, so the
    // equality above depends on the mode the kernels really run in
    const auto x = act_uniform(1024, -4.0f, 4.0f, 4);
    std::vector<bfloat16> a(x.size()), r(x.size());
    npusim::aie_api::set_core_modes({aie::rounding_mode::conv_even, aie::saturation_mode::none});
    k::silu_bf16_aie2(x.data(), a.data(), 1024);
    npusim::aie_api::reset_core_modes();
    ref::silu_bf16(x.data(), r.data(), 1024, false);
    CHECK(act_differences(a, r) > 0);
}

TEST_CASE("gelu: AIE2 truncates the tanh argument to bf16, AIE2P keeps the float product", "[kernels][activation]") {
    const auto x = act_every_bf16();
    std::vector<bfloat16> g2(x.size()), g2p(x.size());
    for (std::size_t t = 0; t < x.size(); t += 1024) {
        ref::gelu_bf16(x.data() + t, g2.data() + t, 1024, false);
        ref::gelu_bf16(x.data() + t, g2p.data() + t, 1024, true);
    }
    CHECK(act_differences(g2, g2p) > 0);
}

TEST_CASE("silu/gelu/swiglu references against IRON's float32 references", "[kernels][activation]") {
    // [-4, 4]: below about -4.5, tanh(x / 2) + 1 in bf16 (spacing 2^-8 near -1) keeps too few bits of
    // the sigmoid for rtol 0.128, a property of the sources' formulation (the reference shows it too)
    const auto x = act_uniform(4096, -4.0f, 4.0f, 5);
    std::vector<bfloat16> s(x.size()), g(x.size());
    for (const bool aie2p : {false, true}) {
        for (std::size_t t = 0; t < x.size(); t += 1024) {
            ref::silu_bf16(x.data() + t, s.data() + t, 1024, aie2p);
            ref::gelu_bf16(x.data() + t, g.data() + t, 1024, aie2p);
        }
        int silu_bad = 0, gelu_bad = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const float v = x[i];
            const float silu = float(bfloat16(v / (1.0f + std::exp(-v)))); // silu_ref
            const float gelu = float(bfloat16(
                0.5f * v * (1.0f + std::tanh(std::sqrt(2.0f / 3.14159265f) * (v + 0.044715f * v * v * v))))); // gelu_ref
            silu_bad += act_close(float(s[i]), silu) ? 0 : 1;
            gelu_bad += act_close(float(g[i]), gelu, 0.05f) ? 0 : 1; // gelu_ref's docstring: atol 0.05
        }
        CHECK(silu_bad == 0);
        CHECK(gelu_bad == 0);
    }
    // ml/swiglu: inputs and weights uniform in [-1, 1), expected (x*w1) * silu(x*w2) in float32
    const auto xi = act_uniform(4096, -1.0f, 1.0f, 6), w1 = act_uniform(4096, -1.0f, 1.0f, 7),
               w2 = act_uniform(4096, -1.0f, 1.0f, 8);
    std::vector<bfloat16> o(xi.size());
    for (std::size_t t = 0; t < xi.size(); t += 1024)
        ref::swiglu_bf16(xi.data() + t, w1.data() + t, w2.data() + t, o.data() + t, 1024, false);
    int bad = 0;
    for (std::size_t i = 0; i < xi.size(); ++i) {
        const float a = float(xi[i]) * float(w1[i]), b = float(xi[i]) * float(w2[i]);
        bad += act_close(float(o[i]), float(bfloat16(a * (b / (1.0f + std::exp(-b)))))) ? 0 : 1;
    }
    CHECK(bad == 0);
}

TEST_CASE("activation costs: one vector multiply a cycle, below the bf16 matrix peak", "[kernels][activation]") {
    // AIE2 (n = 1024): 64 steps x (muls + 2 for the table tanh); AIE2P: + 1
    CHECK(ref::silu_bf16_cycles(1024, false) == 64 * 5);
    CHECK(ref::silu_bf16_cycles(1024, true) == 64 * 4);
    CHECK(ref::gelu_bf16_cycles(1024, false) == 64 * 8);
    CHECK(ref::swiglu_bf16_cycles(1024, true) == 64 * 7);
    // never faster than one 16-lane multiply per cycle per multiply in the source
    CHECK(ref::swiglu_bf16_cycles(1024, false) >= 64 * ref::kSwigluMulsPerStep);
    CHECK_THROWS_WITH(ref::silu_bf16_cycles(-1, false), "silu_bf16_cycles: n must be >= 0 (got -1)");
    std::vector<bfloat16> v(16);
    CHECK_THROWS_WITH(ref::silu_bf16(v.data(), v.data(), 8, false),
                      "silu_bf16: n must be a positive multiple of 16 (got 8)");
}

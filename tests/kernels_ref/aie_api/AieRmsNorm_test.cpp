// rms_norm of one bf16 row: the AIE-API build (kernels_ref/aie/rms_norm.cc, after
// aie_kernels/aie2p/rms_norm.cc) against the plain C++ reference (kernels_ref/src/rms_norm.cpp) bit for
// bit, rows with and without a scalar tail, in the core's reset modes; the reference against
// ml/norm's float32 reference (_rms_norm_reference, assert_pass atol 0.05 / rtol 0.128); the cost.
#include <npusim/aie_kernels.hpp>
#include <npusim/kernels/rms_norm.hpp>

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

std::vector<bfloat16> rms_row(std::size_t n, float lo, float hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(lo, hi);
    std::vector<bfloat16> v(n);
    for (auto& x : v) x = bfloat16(u(rng));
    return v;
}

} // namespace

TEST_CASE("rms_norm AIE-API build equals the reference, with and without a scalar tail", "[aie_kernels][norm]") {
    const npusim::aie_api::ScopedCoreModes keep_modes; // the modes set here end with the test
    for (const std::int32_t cols : {4096, 16, 40, 7, 1000}) {
        for (const float range : {1.0f, 300.0f}) {
            INFO("cols " << cols << " range " << range);
            const auto x = rms_row(static_cast<std::size_t>(cols), -range, range, static_cast<unsigned>(cols));
            std::vector<bfloat16> a(x.size()), r(x.size());
            npusim::aie_api::reset_core_modes();
            k::rms_norm_bf16_aie2p(x.data(), a.data(), cols);
            ref::rms_norm_bf16(x.data(), r.data(), cols);
            int diff = 0;
            for (std::size_t i = 0; i < x.size(); ++i) diff += a[i].bits == r[i].bits ? 0 : 1;
            CHECK(diff == 0);
        }
    }
}

TEST_CASE("rms_norm stores the vector part at the core's mode, the tail to nearest", "[aie_kernels][norm]") {
    const npusim::aie_api::ScopedCoreModes keep_modes; // the modes set here end with the test
    // under conv_even the vector part of the AIE-API build changes; the reference models floor
    const auto x = rms_row(4096, -1.0f, 1.0f, 3);
    std::vector<bfloat16> a(x.size()), r(x.size());
    npusim::aie_api::set_core_modes({aie::rounding_mode::conv_even, aie::saturation_mode::none});
    k::rms_norm_bf16_aie2p(x.data(), a.data(), 4096);
    npusim::aie_api::reset_core_modes();
    ref::rms_norm_bf16(x.data(), r.data(), 4096);
    int diff = 0;
    for (std::size_t i = 0; i < x.size(); ++i) diff += a[i].bits == r[i].bits ? 0 : 1;
    CHECK(diff > 0);
    // a 17-value row: 16 truncated, the 17th rounded to nearest (the source's scalar casts)
    std::vector<bfloat16> y(17, bfloat16(1.0f)), o(17);
    y[16] = y[0] = bfloat16::from_bits(0x3F81); // 1.0078125
    ref::rms_norm_bf16(y.data(), o.data(), 17);
    const float inv = static_cast<float>(1.0L / std::sqrt(static_cast<long double>(
                                             (15.0f + 2.0f * 1.0078125f * 1.0078125f) / 17.0f + 1e-5f)));
    const float inv_b = bfloat16(inv);
    CHECK(o[0].bits == static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(1.0078125f * inv_b) >> 16));
    CHECK(o[16].bits == bfloat16(1.0078125f * inv).bits);
}

TEST_CASE("rms_norm reference against ml/norm's float32 reference", "[kernels][norm]") {
    for (const std::int32_t cols : {4096, 1024}) {
        const auto x = rms_row(static_cast<std::size_t>(cols), -1.0f, 1.0f, 11);
        std::vector<bfloat16> r(x.size());
        ref::rms_norm_bf16(x.data(), r.data(), cols);
        float ss = 0;
        for (const auto v : x) ss += float(v) * float(v);
        const float rms = std::sqrt(ss / static_cast<float>(cols) + 1e-5f);
        int bad = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const float want = bfloat16(float(x[i]) / rms), got = r[i];
            bad += std::fabs(got - want) <= std::max(0.05f, 0.128f * (std::fabs(got) + std::fabs(want))) ? 0 : 1;
        }
        CHECK(bad == 0);
    }
}

TEST_CASE("rms_norm cost", "[kernels][norm]") {
    CHECK(ref::rms_norm_bf16_cycles(4096) == 256 * 3 + 24);
    CHECK(ref::rms_norm_bf16_cycles(20) == 3 + 24 + 2 * 4 * 12);
    CHECK_THROWS_WITH(ref::rms_norm_bf16_cycles(-2), "rms_norm_bf16_cycles: cols must be >= 0 (got -2)");
    std::vector<bfloat16> v(1);
    CHECK_THROWS_WITH(ref::rms_norm_bf16(v.data(), v.data(), 0), "rms_norm_bf16: cols must be > 0 (got 0)");
}

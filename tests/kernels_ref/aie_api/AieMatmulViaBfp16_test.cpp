// npusim's AIE-API mm build with the bf16 mmul on the bfp16 datapath (aie_kernels MacDims::aie2p_bf16_via_bfp16,
// the host layer's AIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16) against the plain reference
// (kernels::matmul_bf16_*_via_bfp16), bit for bit, whatever rounding mode the caller left.
#include <npusim/aie_kernels.hpp>
#include <npusim/kernels/matmul.hpp>

#include <aie_api/aie.hpp>

#include <catch2/catch.hpp>

#include <random>
#include <vector>

TEST_CASE("aie mm via bfp16: 8x8x8 blocks match the reference bit for bit and restore the caller's mode",
          "[aie_kernels][mm][bfp16]") {
    std::mt19937 rng(17);
    std::uniform_int_distribution<int> bits(0, 0xFFFF);
    const auto value = [&](int lo, int span) { // either sign, any mantissa, exponent field lo .. lo + span - 1
        return npusim::bfloat16::from_bits(static_cast<std::uint16_t>((bits(rng) & 0x807F) | ((lo + bits(rng) % span) << 7)));
    };
    constexpr int m = 32, k = 64, n = 32;
    std::vector<npusim::bfloat16> A(m * k), B(k * n), cb(m * n);
    std::vector<float> cf(m * n);
    for (auto& x : A) x = value(112, 24);
    for (auto& x : B) x = value(116, 16);
    for (int i = 0; i < m * n; ++i) cb[i] = value(124, 6), cf[i] = float(cb[i]);
    auto want_b = cb;
    auto want_f = cf;
    npusim::kernels::matmul_bf16_bf16_via_bfp16(A.data(), B.data(), want_b.data(), m, k, n);
    npusim::kernels::matmul_bf16_f32_via_bfp16(A.data(), B.data(), want_f.data(), m, k, n);
    aie::set_rounding(aie::rounding_mode::floor);
    namespace ak = npusim::aie_kernels;
    ak::matmul_bf16_bf16(A.data(), B.data(), cb.data(), m, k, n, ak::MacDims::aie2p_bf16_via_bfp16);
    aie::set_rounding(aie::rounding_mode::symmetric_zero);
    ak::matmul_bf16_f32(A.data(), B.data(), cf.data(), m, k, n, ak::MacDims::aie2p_bf16_via_bfp16);
    CHECK(aie::get_rounding() == aie::rounding_mode::symmetric_zero);
    for (int i = 0; i < m * n; ++i) {
        INFO(i);
        CHECK(cb[i].bits == want_b[i].bits);
        CHECK(cf[i] == want_f[i]);
    }
    // The bfp16 path is not the bf16 datapath: the plain bf16 matmul in the same 8x8x8 blocks gives
    // other sums somewhere on these operands.
    std::vector<float> plain(m * n, 0.0f);
    npusim::kernels::matmul_bf16_f32(A.data(), B.data(), plain.data(), m, k, n, 8, 8, 8);
    std::vector<float> emulated(m * n, 0.0f);
    npusim::kernels::matmul_bf16_f32_via_bfp16(A.data(), B.data(), emulated.data(), m, k, n);
    int differ = 0;
    for (int i = 0; i < m * n; ++i) differ += plain[i] != emulated[i];
    CHECK(differ > 0);
}

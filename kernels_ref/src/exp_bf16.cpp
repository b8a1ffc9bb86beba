#include <npusim/kernels/exp_bf16.hpp>
#include <npusim/kernels/softmax_lut.hpp>

#include <bit>
#include <cmath>
#include <string>

namespace npusim::kernels {

namespace {

void check(const bfloat16* in, const bfloat16* out, std::int32_t n, const char* name) {
    detail::require_non_null(in, name, "in");
    detail::require_non_null(out, name, "out");
    if (n <= 0 || n % kExpLanes != 0)
        detail::fail(name, "n must be a positive multiple of 16 (got " + std::to_string(n) + ")");
}

// A double rounded once to bf16, to nearest even (no double rounding through float: exp2 results
// are not exact ties except for integer arguments, which float represents exactly).
std::uint16_t bf16_nearest_even(double d) {
    const float f = static_cast<float>(d);
    const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
    if ((u & 0x7F800000u) == 0x7F800000u) return static_cast<std::uint16_t>(u >> 16);
    const std::uint32_t q = u >> 16, rem = u & 0xFFFFu;
    bool up = rem > 0x8000u || (rem == 0x8000u && (q & 1u) != 0);
    if (rem == 0x8000u && static_cast<double>(f) != d) up = std::fabs(d) > std::fabs(static_cast<double>(f));
    return static_cast<std::uint16_t>(q + (up ? 1u : 0u));
}

} // namespace

bfloat16 exp_exp2_bf16(bfloat16 x) {
    constexpr float kLog2e = 1.4453125f; // (bfloat16)1.44269504089, nearest even
    const float s = static_cast<float>(x) * kLog2e; // exact: two 8-bit significands
    return exp2_bf16(s);
}

bfloat16 exp2_bf16(float s) {
    // the unit takes its float input with 11 fractional bits, the rest truncated (UG1639, VEXP2; the
    // input is biased positive, so this floors to a multiple of 2^-11)
    const double q = std::isfinite(s) ? std::floor(static_cast<double>(s) * 2048.0) / 2048.0 : static_cast<double>(s);
    return bfloat16::from_bits(bf16_nearest_even(std::exp2(q)));
}

void exp_bf16_lut(const bfloat16* in, bfloat16* out, std::int32_t n) {
    check(in, out, n, "exp_bf16_lut");
    for (std::int32_t i = 0; i < n; ++i) out[i] = exp_lut_bf16(in[i]);
}

void exp_bf16_exp2(const bfloat16* in, bfloat16* out, std::int32_t n) {
    check(in, out, n, "exp_bf16_exp2");
    for (std::int32_t i = 0; i < n; ++i) out[i] = exp_exp2_bf16(in[i]);
}

std::uint64_t exp_bf16_cycles(std::int32_t n) {
    detail::require_non_negative(n, "exp_bf16_cycles", "n");
    return ceil_div(static_cast<std::uint64_t>(n), kExpLanes) + 16;
}

} // namespace npusim::kernels

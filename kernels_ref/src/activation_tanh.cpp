#include <npusim/kernels/activation_tanh.hpp>

#include <bit>
#include <cmath>
#include <string>

namespace npusim::kernels {

namespace {

void check_tile(const void* in, const void* out, std::int32_t n, const char* name) {
    detail::require_non_null(in, name, "in");
    detail::require_non_null(out, name, "out");
    if (n <= 0 || n % kTanhActLanes != 0)
        detail::fail(name, "n must be a positive multiple of 16 (got " + std::to_string(n) + ")");
}

// A float stored into a bf16 vector at the core's reset rounding mode: the magnitude truncated.
float trunc_bf16(float f) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0) return f; // NaN stays NaN
    return std::bit_cast<float>(u & 0xFFFF0000u);
}

// tanh of a float, exact in double, rounded once to bf16 to nearest, ties to even. The double is
// first rounded to float; a float that lands exactly halfway between two bf16 values while the
// double was not is resolved by the double's side of it.
float tanh_bf16(float x) {
    const double d = std::tanh(static_cast<double>(x));
    const float f = static_cast<float>(d);
    const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
    if ((u & 0x7F800000u) == 0x7F800000u) return f;
    const std::uint32_t hi = u & 0xFFFF0000u, rem = u & 0xFFFFu;
    bool up = rem > 0x8000u || (rem == 0x8000u && (u & 0x10000u) != 0);
    if (rem == 0x8000u && static_cast<double>(f) != d) up = std::fabs(d) > std::fabs(static_cast<double>(f));
    return std::bit_cast<float>(hi + (up ? 0x10000u : 0u));
}

float sigmoid_by_tanh(float half) { // (tanh(half) + 1) * 0.5, each step stored as bf16
    const float t = tanh_bf16(half);
    return trunc_bf16(trunc_bf16(t + 1.0f) * 0.5f);
}

std::uint64_t steps(std::int32_t n, const char* name) {
    detail::require_non_negative(n, name, "n");
    return ceil_div(static_cast<std::uint64_t>(n), kTanhActLanes);
}

} // namespace

void silu_bf16(const bfloat16* in, bfloat16* out, std::int32_t n, bool aie2p) {
    check_tile(in, out, n, "silu_bf16");
    for (std::int32_t i = 0; i < n; ++i) {
        const float x = in[i];
        const float prod = x * 0.5f;                       // exact float product
        const float half = aie2p ? prod : trunc_bf16(prod); // AIE2 stores it as bf16 before tanh
        out[i] = bfloat16::from_bits(static_cast<std::uint16_t>(
            std::bit_cast<std::uint32_t>(trunc_bf16(x * sigmoid_by_tanh(half))) >> 16));
    }
}

void gelu_bf16(const bfloat16* in, bfloat16* out, std::int32_t n, bool aie2p) {
    check_tile(in, out, n, "gelu_bf16");
    const float c = bfloat16(0.79788456f), beta = bfloat16(0.044715f); // const bfloat16 = float: nearest even
    for (std::int32_t i = 0; i < n; ++i) {
        const float x = in[i];
        const float x2 = trunc_bf16(x * x);
        const float x3 = trunc_bf16(x * x2);
        const float inner = trunc_bf16(x + trunc_bf16(x3 * beta));
        const float arg = aie2p ? inner * c : trunc_bf16(inner * c);
        const float one_plus = trunc_bf16(tanh_bf16(arg) + 1.0f);
        const float m = trunc_bf16(0.5f * one_plus);
        out[i] = bfloat16::from_bits(static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(trunc_bf16(x * m)) >> 16));
    }
}

void swiglu_bf16(const bfloat16* in, const bfloat16* w1, const bfloat16* w2, bfloat16* out, std::int32_t n,
                 bool aie2p) {
    check_tile(in, out, n, "swiglu_bf16");
    detail::require_non_null(w1, "swiglu_bf16", "w1");
    detail::require_non_null(w2, "swiglu_bf16", "w2");
    for (std::int32_t i = 0; i < n; ++i) {
        const float x = in[i];
        const float m1 = trunc_bf16(x * float(w1[i]));
        const float m2 = trunc_bf16(x * float(w2[i]));
        const float prod = m2 * 0.5f;
        const float half = aie2p ? prod : trunc_bf16(prod);
        const float silu = trunc_bf16(m2 * sigmoid_by_tanh(half));
        out[i] =
            bfloat16::from_bits(static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(trunc_bf16(m1 * silu)) >> 16));
    }
}

std::uint64_t silu_bf16_cycles(std::int32_t n, bool aie2p) {
    return steps(n, "silu_bf16_cycles") * (kSiluMulsPerStep + (aie2p ? kTanhCyclesAie2p : kTanhCyclesAie2));
}

std::uint64_t gelu_bf16_cycles(std::int32_t n, bool aie2p) {
    return steps(n, "gelu_bf16_cycles") * (kGeluMulsPerStep + (aie2p ? kTanhCyclesAie2p : kTanhCyclesAie2));
}

std::uint64_t swiglu_bf16_cycles(std::int32_t n, bool aie2p) {
    return steps(n, "swiglu_bf16_cycles") * (kSwigluMulsPerStep + (aie2p ? kTanhCyclesAie2p : kTanhCyclesAie2));
}

} // namespace npusim::kernels

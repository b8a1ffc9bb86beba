#include <npusim/kernels/softmax_lut.hpp>

#include <npusim/kernels/exp_bf16.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace npusim::kernels {

namespace {

// float -> bf16 bits, nearest even (NaN never occurs here: the tables and sums are finite)
std::uint16_t bf16_nearest_even(float f) {
    std::uint32_t u = std::bit_cast<std::uint32_t>(f);
    u += 0x7FFFu + ((u >> 16) & 1u);
    return static_cast<std::uint16_t>(u >> 16);
}

// float -> bf16 bits, truncating the magnitude (the core's reset rounding, floor)
std::uint16_t bf16_truncate(float f) { return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(f) >> 16); }

float bf16_value(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

// 8.8 fixed point of a bf16 value as getExpBf16 forms it: bfloat16_to_int(x, 8) = round(x * 256) to
// nearest even as int32 (saturated), of which the kernel keeps the low 16 bits (v32int16 +
// filter_even): values beyond int16 wrap
std::int16_t to_fixed_8_8(float x) {
    double v = std::nearbyint(static_cast<double>(x) * 256.0);
    if (v != v) v = 0;
    v = std::clamp(v, -2147483648.0, 2147483647.0);
    return static_cast<std::int16_t>(
        static_cast<std::uint16_t>(static_cast<std::uint32_t>(static_cast<std::int64_t>(v))));
}

struct ExpTables {
    std::uint16_t integer[256];
    std::uint16_t fraction[256];
    ExpTables() {
        for (int idx = 0; idx < 256; ++idx) {
            const int i = idx < 128 ? idx : idx - 256;
            integer[idx] = bf16_nearest_even(static_cast<float>(std::exp(static_cast<double>(std::min(i, 88)))));
            fraction[idx] = bf16_nearest_even(static_cast<float>(std::exp(static_cast<double>(idx) / 256.0)));
        }
    }
};

const ExpTables& tables() {
    static const ExpTables t;
    return t;
}

std::uint16_t exp_bits(std::uint16_t x_bits) {
    const auto fixed = static_cast<std::uint16_t>(to_fixed_8_8(bf16_value(x_bits)));
    const auto& t = tables();
    const float prod = bf16_value(t.integer[fixed >> 8]) * bf16_value(t.fraction[fixed & 0xFF]);
    return bf16_truncate(prod);
}

} // namespace

std::uint16_t exp_lut_integer_entry(int i) {
    if (i < -128 || i > 127)
        detail::fail("exp_lut_integer_entry", "i must be in -128..127 (got " + std::to_string(i) + ")");
    return tables().integer[static_cast<std::uint8_t>(static_cast<std::int8_t>(i))];
}

std::uint16_t exp_lut_fraction_entry(int f) {
    if (f < 0 || f > 255) detail::fail("exp_lut_fraction_entry", "f must be in 0..255 (got " + std::to_string(f) + ")");
    return tables().fraction[f];
}

bfloat16 exp_lut_bf16(bfloat16 x) { return bfloat16::from_bits(exp_bits(x.bits)); }

void softmax_lut_bf16(const bfloat16* in, bfloat16* out, std::int32_t n) {
    constexpr const char* name = "softmax_lut_bf16";
    detail::require_non_null(in, name, "in");
    detail::require_non_null(out, name, "out");
    if (n <= 0 || n % kSoftmaxLanes != 0)
        detail::fail(name, "n must be a positive multiple of 16 (got " + std::to_string(n) + ")");
    float lanes[kSoftmaxLanes] = {};
    for (std::int32_t i = 0; i < n; ++i) {
        const std::uint16_t e = exp_bits(in[i].bits);
        lanes[i % kSoftmaxLanes] += bf16_value(e);
        out[i] = bfloat16::from_bits(e);
    }
    for (int w = kSoftmaxLanes / 2; w >= 1; w /= 2)
        for (int i = 0; i < w; ++i) lanes[i] = lanes[i] + lanes[i + w];
    const float inv = bf16_value(bf16_nearest_even(1.0f / lanes[0]));
    for (std::int32_t i = 0; i < n; ++i) out[i] = bfloat16::from_bits(bf16_truncate(bf16_value(out[i].bits) * inv));
}

void softmax_exp2_bf16(const bfloat16* in, bfloat16* out, std::int32_t n) {
    constexpr const char* name = "softmax_exp2_bf16";
    detail::require_non_null(in, name, "in");
    detail::require_non_null(out, name, "out");
    if (n <= 0 || n % kSoftmaxExp2Lanes != 0)
        detail::fail(name, "n must be a positive multiple of 32 (got " + std::to_string(n) + ")");
    constexpr float kLog2e = 1.4453125f; // (bfloat16)1.4453125, exact in bf16
    float mx = -32768.0f; // the source's initial maximum
    for (std::int32_t i = 0; i < n; ++i) mx = std::max(mx, bf16_value(bf16_truncate(bf16_value(in[i].bits) * kLog2e)));
    float lanes[kSoftmaxExp2Lanes] = {};
    for (std::int32_t i = 0; i < n; ++i) {
        const float arg = bf16_value(in[i].bits) * kLog2e - mx;
        const std::uint16_t e = exp2_bf16(arg).bits;
        lanes[i % kSoftmaxExp2Lanes] += bf16_value(e);
        out[i] = bfloat16::from_bits(e);
    }
    for (int w = kSoftmaxExp2Lanes / 2; w >= 1; w /= 2)
        for (int i = 0; i < w; ++i) lanes[i] = lanes[i] + lanes[i + w];
    const float inv = bf16_value(bf16_nearest_even(1.0f / lanes[0]));
    for (std::int32_t i = 0; i < n; ++i) out[i] = bfloat16::from_bits(bf16_truncate(bf16_value(out[i].bits) * inv));
}

std::uint64_t softmax_exp2_bf16_cycles(std::int32_t n) {
    detail::require_non_negative(n, "softmax_exp2_bf16_cycles", "n");
    return 8 * ceil_div(static_cast<std::uint64_t>(n), kSoftmaxExp2Lanes) + 32;
}

std::uint64_t softmax_lut_bf16_cycles(std::int32_t n) {
    detail::require_non_negative(n, "softmax_lut_bf16_cycles", "n");
    return 6 * ceil_div(static_cast<std::uint64_t>(n), kSoftmaxLanes) + 32;
}

} // namespace npusim::kernels

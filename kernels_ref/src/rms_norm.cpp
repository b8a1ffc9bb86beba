#include <npusim/kernels/rms_norm.hpp>

#include <bit>
#include <cmath>

namespace npusim::kernels {

namespace {

// the magnitude truncated to bf16: a float stored into a bf16 vector at the reset rounding mode
bfloat16 rms_trunc(float f) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0) return bfloat16(f);
    return bfloat16::from_bits(static_cast<std::uint16_t>(u >> 16));
}

} // namespace

void rms_norm_bf16(const bfloat16* in, bfloat16* out, std::int32_t cols) {
    constexpr const char* name = "rms_norm_bf16";
    detail::require_non_null(in, name, "in");
    detail::require_non_null(out, name, "out");
    detail::require_positive(cols, name, "cols");
    const std::int32_t vec_end = cols - cols % kRmsNormLanes;
    float lane[kRmsNormLanes] = {};
    for (std::int32_t i = 0; i < vec_end; ++i) {
        const float x = in[i];
        lane[i % kRmsNormLanes] += x * x;
    }
    for (int width = kRmsNormLanes / 2; width >= 1; width /= 2)
        for (int l = 0; l < width; ++l) lane[l] += lane[l + width];
    float sum = lane[0];
    for (std::int32_t i = vec_end; i < cols; ++i) sum += float(in[i]) * float(in[i]);
    const float r = sum / static_cast<float>(cols) + kRmsNormEpsilon;
    const float inv = static_cast<float>(1.0L / std::sqrt(static_cast<long double>(r)));
    const float inv_b = bfloat16(inv);
    for (std::int32_t i = 0; i < vec_end; ++i) out[i] = rms_trunc(float(rms_trunc(float(in[i]) * inv_b)) * 1.0f);
    for (std::int32_t i = vec_end; i < cols; ++i) out[i] = bfloat16(float(bfloat16(float(in[i]) * inv)) * 1.0f);
}

std::uint64_t rms_norm_bf16_cycles(std::int32_t cols) {
    detail::require_non_negative(cols, "rms_norm_bf16_cycles", "cols");
    const auto c = static_cast<std::uint64_t>(cols);
    const std::uint64_t vectors = c / kRmsNormLanes, tail = c % kRmsNormLanes;
    return vectors * 3 + kRmsNormMiddleCycles + 2 * tail * kScalarLoopCyclesPerElement;
}

} // namespace npusim::kernels

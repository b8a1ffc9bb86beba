#include <npusim/kernels/relu.hpp>

#include <string>

namespace npusim::kernels {

void relu_bf16(const bfloat16* in, bfloat16* out, std::int32_t n) {
    constexpr const char* name = "relu_bf16";
    detail::require_non_null(in, name, "in");
    detail::require_non_null(out, name, "out");
    if (n != kReluElements)
        detail::fail(name, "n must be " + std::to_string(kReluElements) + " (got " + std::to_string(n) +
                               "; the AIE kernel's loop runs exactly 32 iterations of 32 lanes)");
    for (std::int32_t i = 0; i < n; ++i) {
        const float x = in[i];
        out[i] = (x > 0.0f || x != x) ? in[i] : bfloat16(0.0f);
    }
}

std::uint64_t relu_bf16_cycles(std::int32_t n) {
    detail::require_non_negative(n, "relu_bf16_cycles", "n");
    return kReluCyclesPerVector * ceil_div(static_cast<std::uint64_t>(n), kReluLanes);
}

} // namespace npusim::kernels

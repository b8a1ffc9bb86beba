#include <npusim/kernels/scale_shift.hpp>

#include <string>

namespace npusim::kernels {

void eltwise_mul_add_bf16(const bfloat16* a, const bfloat16* b, bfloat16* c, std::int32_t is_mul, std::int32_t n) {
    constexpr const char* name = "eltwise_mul_add_bf16";
    detail::require_non_null(a, name, "a");
    detail::require_non_null(b, name, "b");
    detail::require_non_null(c, name, "c");
    if (n != kScaleShiftElements)
        detail::fail(name, "n must be " + std::to_string(kScaleShiftElements) + " (got " + std::to_string(n) +
                               "; the AIE kernel is instantiated for N = 1024)");
    for (std::int32_t i = 0; i < n; ++i) {
        const float x = a[i], y = b[i];
        c[i] = bfloat16(is_mul ? x * y : x + y);
    }
}

std::uint64_t eltwise_mul_add_bf16_cycles(std::int32_t n) {
    detail::require_non_negative(n, "eltwise_mul_add_bf16_cycles", "n");
    return kScaleShiftCyclesPerVector * ceil_div(static_cast<std::uint64_t>(n), kScaleShiftLanes);
}

} // namespace npusim::kernels

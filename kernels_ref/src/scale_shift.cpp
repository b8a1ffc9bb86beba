#include <npusim/kernels/scale_shift.hpp>

#include <bit>
#include <string>

namespace npusim::kernels {

namespace {

void eltwise_mul_add_checked(const bfloat16* a, const bfloat16* b, bfloat16* c, std::int32_t is_mul, std::int32_t n,
                             const char* name, bool truncate) {
    detail::require_non_null(a, name, "a");
    detail::require_non_null(b, name, "b");
    detail::require_non_null(c, name, "c");
    if (n != kScaleShiftElements)
        detail::fail(name, "n must be " + std::to_string(kScaleShiftElements) + " (got " + std::to_string(n) +
                               "; the AIE kernel is instantiated for N = 1024)");
    for (std::int32_t i = 0; i < n; ++i) {
        const float x = a[i], y = b[i];
        const float r = is_mul ? x * y : x + y;
        // truncation: the float's upper 16 bits (the magnitude rounded down, the sign kept)
        c[i] = truncate ? bfloat16::from_bits(static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(r) >> 16))
                        : bfloat16(r);
    }
}

} // namespace

void eltwise_mul_add_bf16(const bfloat16* a, const bfloat16* b, bfloat16* c, std::int32_t is_mul, std::int32_t n) {
    eltwise_mul_add_checked(a, b, c, is_mul, n, "eltwise_mul_add_bf16", true);
}

void eltwise_mul_add_bf16_nearest(const bfloat16* a, const bfloat16* b, bfloat16* c, std::int32_t is_mul,
                                  std::int32_t n) {
    eltwise_mul_add_checked(a, b, c, is_mul, n, "eltwise_mul_add_bf16_nearest", false);
}

std::uint64_t eltwise_mul_add_bf16_cycles(std::int32_t n) {
    detail::require_non_negative(n, "eltwise_mul_add_bf16_cycles", "n");
    return kScaleShiftCyclesPerVector * ceil_div(static_cast<std::uint64_t>(n), kScaleShiftLanes);
}

} // namespace npusim::kernels

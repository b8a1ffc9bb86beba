#include <npusim/kernels/zero.hpp>

#include <algorithm>
#include <string>

namespace npusim::kernels {
namespace {

template <typename T>
void zero(const char* name, T* c, std::int32_t m, std::int32_t n) {
    detail::require_non_null(c, name, "c");
    detail::require_positive(m, name, "m");
    detail::require_positive(n, name, "n");
    const std::int64_t count = static_cast<std::int64_t>(m) * n;
    constexpr std::int64_t granule = kZeroGranuleBytes / static_cast<std::int64_t>(sizeof(T));
    detail::require_multiple(count, granule, name, "m * n",
                             "the AIE kernel stores pairs of 256-bit zero vectors (64 bytes)");
    std::fill_n(c, count, T{0});
}

} // namespace

void zero_i32(std::int32_t* c, std::int32_t m, std::int32_t n) { zero("zero_i32", c, m, n); }

void zero_i16(std::int16_t* c, std::int32_t m, std::int32_t n) { zero("zero_i16", c, m, n); }

void zero_i8(std::int8_t* c, std::int32_t m, std::int32_t n) { zero("zero_i8", c, m, n); }

void zero_f32(float* c, std::int32_t m, std::int32_t n) { zero("zero_f32", c, m, n); }

void zero_bf16(bfloat16* c, std::int32_t m, std::int32_t n) { zero("zero_bf16", c, m, n); }

std::uint64_t zero_cycles(std::int32_t m, std::int32_t n, int elem_bytes) {
    constexpr const char* name = "zero_cycles";
    detail::require_non_negative(m, name, "m");
    detail::require_non_negative(n, name, "n");
    if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4)
        detail::fail(name, "elem_bytes must be 1, 2 or 4 (got " + std::to_string(elem_bytes) + ")");
    const std::uint64_t bytes =
        static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(elem_bytes);
    return ceil_div(bytes, kZeroBytesPerCycle);
}

} // namespace npusim::kernels

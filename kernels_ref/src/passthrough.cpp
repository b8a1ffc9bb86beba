#include <npusim/kernels/passthrough.hpp>

#include <cstring>
#include <string>

namespace npusim::kernels {
namespace {

template <typename T>
void pass_through(const char* name, const T* in, T* out, std::int32_t n) {
    detail::require_non_null(in, name, "in");
    detail::require_non_null(out, name, "out");
    detail::require_non_negative(n, name, "n");
    constexpr std::int64_t per_block = kPassThroughBlockBytes / static_cast<std::int64_t>(sizeof(T));
    detail::require_multiple(n, per_block, name, "n", "the AIE kernel copies whole 512-bit (64-byte) vectors");
    detail::require_at_least(n, per_block * kPassThroughMinBlocks, name, "n",
                             "the AIE kernel's copy loop is compiled for at least 6 iterations of 64 bytes");
    std::memmove(out, in, static_cast<std::size_t>(n) * sizeof(T));
}

} // namespace

void passThroughLine_u8(const std::uint8_t* in, std::uint8_t* out, std::int32_t n) {
    pass_through("passThroughLine_u8", in, out, n);
}

void passThroughLine_i16(const std::int16_t* in, std::int16_t* out, std::int32_t n) {
    pass_through("passThroughLine_i16", in, out, n);
}

void passThroughLine_i32(const std::int32_t* in, std::int32_t* out, std::int32_t n) {
    pass_through("passThroughLine_i32", in, out, n);
}

std::uint64_t passThroughLine_cycles(std::int32_t n, int elem_bytes) {
    constexpr const char* name = "passThroughLine_cycles";
    detail::require_non_negative(n, name, "n");
    if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4)
        detail::fail(name, "elem_bytes must be 1, 2 or 4 (got " + std::to_string(elem_bytes) + ")");
    const std::uint64_t bytes = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(elem_bytes);
    return ceil_div(bytes, kPassThroughBytesPerCycle);
}

} // namespace npusim::kernels

#pragma once
// bfloat16: the upper 16 bits of an IEEE-754 binary32. Conversion from float rounds to nearest,
// ties to even (what numpy/ml_dtypes and the AIE2 float-to-bf16 conversion do); NaN stays NaN.
#include <bit>
#include <cstdint>
#include <cstring>

namespace npusim {

struct bfloat16 {
    std::uint16_t bits = 0;

    constexpr bfloat16() = default;
    bfloat16(float f) : bits(from_float(f)) {} // NOLINT(google-explicit-constructor): mirrors ml_dtypes
    operator float() const { return to_float(bits); }

    static constexpr bfloat16 from_bits(std::uint16_t b) {
        bfloat16 r;
        r.bits = b;
        return r;
    }
    static std::uint16_t from_float(float f) {
        std::uint32_t u = std::bit_cast<std::uint32_t>(f);
        if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0)
            return static_cast<std::uint16_t>((u >> 16) | 0x0040u); // quiet NaN
        const std::uint32_t lsb = (u >> 16) & 1u;
        u += 0x7FFFu + lsb;
        return static_cast<std::uint16_t>(u >> 16);
    }
    static float to_float(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

    friend bool operator==(bfloat16 a, bfloat16 b) { return float(a) == float(b); }
};
static_assert(sizeof(bfloat16) == 2);

} // namespace npusim

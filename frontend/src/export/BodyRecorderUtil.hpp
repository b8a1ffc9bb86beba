#pragma once
// What the BodyRecorder's files share: bit helpers and the fill patterns' constants.
#include "npusim/model/DType.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace npusim::iron::detail::mlir::body {

using npusim::DType;
using npusim::dtype_bytes;

inline std::uint64_t truncate(std::uint64_t v, unsigned width) { return width >= 64 ? v : v & ((1ULL << width) - 1); }

inline unsigned bits_of(DType t) { return static_cast<unsigned>(dtype_bytes(t) * 8); }

// The value of a w-bit slot as an integer of its element type (signed types sign-extended).
inline std::int64_t as_integer(std::uint64_t bits, DType t) {
    switch (t) {
    case DType::i8: return static_cast<std::int8_t>(bits);
    case DType::i16: return static_cast<std::int16_t>(bits);
    case DType::i32: return static_cast<std::int32_t>(bits);
    default: return static_cast<std::int64_t>(truncate(bits, bits_of(t)));
    }
}

inline std::uint64_t read_bits(const std::byte* p, std::size_t n) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, std::min<std::size_t>(n, 8)); // little-endian host, as the AIE
    return v;
}

// The inverse of an odd number mod 2^64 (Newton's iteration; each step doubles the correct bits).
constexpr std::uint64_t inverse(std::uint64_t a) {
    std::uint64_t x = a;
    for (int i = 0; i < 6; ++i) x *= 2 - a * x;
    return x;
}

inline constexpr std::uint64_t kA[2] = {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL}; // odd, odd: A0-A1 even
inline constexpr std::uint64_t kB[2] = {0x165667B19E3779F9ULL, 0x27D4EB2F165667C4ULL}; // odd, even: B0-B1 odd
static_assert((kA[0] & 1) && (kA[1] & 1) && ((kB[0] ^ kB[1]) & 1));
static_assert(inverse(kA[0]) * kA[0] == 1 && inverse(kA[1]) * kA[1] == 1);

// B of a chunk: an even multiple per chunk keeps B's parity (the no-common-value property) while
// giving every chunk its own values, so a body that copies one element into another is seen.
constexpr std::uint64_t offset(int r, std::size_t chunk) { return kB[r] + 2 * chunk * 0x632BE59BD9B4E019ULL; }

} // namespace npusim::iron::detail::mlir::body

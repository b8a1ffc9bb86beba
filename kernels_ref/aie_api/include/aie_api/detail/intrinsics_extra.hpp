#pragma once
// More raw AIE-ML / AIE2P intrinsics that kernel sources mix with the AIE API: extract_elem, the
// two-register shuffle(a, b, mode) with its T<bits>_<R>x<C>_lo/hi modes, and the 64-bit accumulator
// moves lsrs / lups with undef_v16acc64.
#include "accum.hpp"
#include "intrinsics.hpp"
#include "numeric.hpp"
#include "vector.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

// extract_elem(v, idx): element idx of v (idx modulo the lane count), as ext_elem.
// extract_elem(v, idx, sign) (8- and 16-bit integer vectors): the element widened to int, sign-extended
// when sign != 0 and zero-extended when it is 0, whatever the vector's own signedness.
template <typename T, unsigned N>
inline T extract_elem(const aie::vector<T, N>& v, int idx) {
    return ext_elem(v, idx);
}
template <typename T, unsigned N>
requires(std::is_integral_v<T> && sizeof(T) <= 2) inline int extract_elem(const aie::vector<T, N>& v, int idx, int sign) {
    const T x = ext_elem(v, idx);
    return sign != 0 ? static_cast<int>(static_cast<std::make_signed_t<T>>(x))
                     : static_cast<int>(static_cast<std::make_unsigned_t<T>>(x));
}

// shuffle(a, b, mode) (UG1583 Vector Operations > Shuffle, the mode table: "Matrix Transpose
// Dimensions", forward = deinterleaving, backward = interleaving; each mode also spelled shuffle_T...):
// the 1024-bit concatenation a:b (a first) read as a row-major R x C matrix of
// `bits`-wide elements, transposed, and the low (_lo) or high (_hi) 512 bits of the result. So
// T8_2x64_lo interleaves the first 32 bytes of a and b (a0 b0 a1 b1 ... a31 b31) and T8_64x2_lo
// gathers the even bytes of a:b. [est] the mode numbers are npusim's; kernels only use the names,
// and the meaning of each name follows the transposition its spelling describes (mlir-aie's
// gray2rgba.cc, l.19-23 at 3ca0193, relies on T8_2x64_lo interleaving).
namespace npusim::aie_api::detail {
constexpr unsigned shuffle_mode(unsigned bits, unsigned rows, bool hi) { return (bits << 16) | (rows << 1) | (hi ? 1u : 0u); }
} // namespace npusim::aie_api::detail
#define NPUSIM_AIE_SHUFFLE_MODES(BITS, R, C)                                                                           \
    inline constexpr unsigned T##BITS##_##R##x##C##_lo = npusim::aie_api::detail::shuffle_mode(BITS, R, false);        \
    inline constexpr unsigned T##BITS##_##R##x##C##_hi = npusim::aie_api::detail::shuffle_mode(BITS, R, true);         \
    inline constexpr unsigned shuffle_T##BITS##_##R##x##C##_lo = T##BITS##_##R##x##C##_lo;                             \
    inline constexpr unsigned shuffle_T##BITS##_##R##x##C##_hi = T##BITS##_##R##x##C##_hi;
NPUSIM_AIE_SHUFFLE_MODES(8, 2, 64)
NPUSIM_AIE_SHUFFLE_MODES(8, 64, 2)
NPUSIM_AIE_SHUFFLE_MODES(16, 2, 32)
NPUSIM_AIE_SHUFFLE_MODES(16, 32, 2)
NPUSIM_AIE_SHUFFLE_MODES(32, 2, 16)
NPUSIM_AIE_SHUFFLE_MODES(32, 16, 2)
NPUSIM_AIE_SHUFFLE_MODES(64, 2, 8)
NPUSIM_AIE_SHUFFLE_MODES(64, 8, 2)
NPUSIM_AIE_SHUFFLE_MODES(128, 2, 4)
NPUSIM_AIE_SHUFFLE_MODES(128, 4, 2)
NPUSIM_AIE_SHUFFLE_MODES(256, 2, 2)
// The four-row/column modes of UG1583's table (Vector Operations > Shuffle): 16-bit 16x4 <-> 4x16 and
// 32-bit 8x4 <-> 4x8 over the 1024-bit a:b. T16_16x4_lo gathers 16-bit elements 0, 4, 8, ... then 1, 5,
// 9, ...: the low 16 bits of each 64-bit lane of a LUT load (intrinsics_lut.hpp).
NPUSIM_AIE_SHUFFLE_MODES(16, 16, 4)
NPUSIM_AIE_SHUFFLE_MODES(16, 4, 16)
NPUSIM_AIE_SHUFFLE_MODES(32, 8, 4)
NPUSIM_AIE_SHUFFLE_MODES(32, 4, 8)
#undef NPUSIM_AIE_SHUFFLE_MODES

template <typename T, unsigned N>
inline aie::vector<T, N> shuffle(const aie::vector<T, N>& a, const aie::vector<T, N>& b, unsigned mode) {
    static_assert(sizeof(T) * N == 64, "npusim aie_api: shuffle(a, b, mode) operates on 512-bit vectors");
    const unsigned bytes = (mode >> 16) / 8, rows = (mode & 0xFFFEu) >> 1;
    const bool hi = (mode & 1u) != 0;
    if (bytes == 0 || rows == 0 || bytes * rows > 128 || 128 % (bytes * rows) != 0)
        throw std::invalid_argument("shuffle: unknown mode " + std::to_string(mode));
    const unsigned cols = 128 / (bytes * rows);
    unsigned char in[128], out[128];
    std::memcpy(in, a.data(), 64);
    std::memcpy(in + 64, b.data(), 64);
    // Element (r, c) of the input moves to element (c, r) of the transposed cols x rows matrix.
    for (unsigned r = 0; r < rows; ++r)
        for (unsigned c = 0; c < cols; ++c) std::memcpy(out + (c * rows + r) * bytes, in + (r * cols + c) * bytes, bytes);
    aie::vector<T, N> res;
    std::memcpy(res.data(), out + (hi ? 64 : 0), 64);
    return res;
}

// 64-bit accumulator moves (AIE-ML): lsrs(acc, shift, sign) shift-rounds-saturates each 64-bit lane
// to 32 bits with the core's rounding and saturation modes (as accum::to_vector<int32>(shift));
// sign == 0 fits the lanes to the unsigned range [est: the meaning of the sign operand is taken from
// the intrinsic's name; with saturation off both keep the low 32 bits]. lups(v, shift) sign-extends
// each int32 lane into 64 bits and shifts it up. undef_v16acc64() is zero.
inline v16acc64 undef_v16acc64() { return v16acc64{}; }
inline v8acc64 undef_v8acc64() { return v8acc64{}; }
inline v16int32 lsrs(const v16acc64& acc, int shift, int sign) {
    if (sign != 0) return acc.template to_vector<int32>(shift);
    return acc.template to_vector<uint32>(shift).template cast_to<int32>();
}
inline v16acc64 lups(const v16int32& v, int shift) { return v16acc64(v, shift); }

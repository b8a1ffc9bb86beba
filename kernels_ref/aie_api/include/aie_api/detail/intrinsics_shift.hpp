#pragma once
// AIE-ML register shifts, 32-bit-accumulator upshift (UPS) and shift-round-saturate (SRS) intrinsics,
// and the typed scalar broadcasts, as kernel sources written for the chess compiler call them.
//
// shift(a, b, n) (vectors and accumulators of 512 bits): the 512 bits that start at element n of the
// 1024-bit concatenation a:b (a in the low half). UG1583 (Vector Operations > Shift) documents
// shiftx(a, b, step, shift) with step 0 as the plain byte shift; Peano's intrinsics header defines
// shift(a, b, n) on a typed register as shiftx(a, b, 0, n * sizeof(element)) (Xilinx/llvm-aie
// clang/lib/Headers/aiev2_scl2vec.h: `shift(v32bfloat16 a, v32bfloat16 b, ...)` -> `shiftx(a, b, 0,
// shift * 2)`, v16accfloat -> `shift * 4`), so n counts elements. The byte count is taken modulo 64, as
// shift_bytes does [est: counts past one register are not documented; no source uses them].
//
// sups(v, shift[, sign]) / ups_to_v16acc32 / ups_to_v32acc32 (UG1583 Vector Conversions > Upshift): each
// 8- or 16-bit lane widened into a 32-bit accumulator lane and shifted up by shift (0..63); sign says
// whether the lane is sign- or zero-extended (default: the vector's own signedness). A result outside
// 32 bits is fitted with the core's saturation mode [est: UG1583 gives sups_conf a crsat_t operand, so
// the upshift saturates; none keeps the low 32 bits, as the host layer's SRS does].
//
// ssrs(acc, shift[, sign]) (v32acc32 -> v32int8) and lsrs(acc, shift[, sign]) (v16acc32 -> v16int16,
// v32acc32 -> v32int16; UG1583 Vector Conversions > Shift-Round-Saturate: "ssrs ... 32-bit accumulator
// data into a corresponding 8-bit vector", "lsrs ... 32-bit accumulator data into a corresponding
// 16-bit vector", rounding and saturation "based on global mode registers"): the host layer's SRS
// (accum::to_vector<T>(shift), README "SRS"), signed, or unsigned when sign is 0.
//
// broadcast_s8/u8/s16/u16/s32/u32(x): x in every lane of a 512-bit register (UG1583 Broadcast).
#include "accum.hpp"
#include "intrinsics.hpp"
#include "intrinsics_extra.hpp"
#include "numeric.hpp"
#include "vector.hpp"

#include <cstring>
#include <type_traits>

template <typename T, unsigned N>
requires(sizeof(T) * N == 64) inline aie::vector<T, N> shift(const aie::vector<T, N>& a, const aie::vector<T, N>& b,
                                                             unsigned n) {
    return shift_bytes(a, b, (n * static_cast<unsigned>(sizeof(T))) % 64u);
}

template <typename Tag, unsigned N>
requires(aie::detail::accum_tag_bits<Tag>* N ==
         512) inline aie::accum<Tag, N> shift(const aie::accum<Tag, N>& a, const aie::accum<Tag, N>& b, unsigned n) {
    using S = typename aie::accum<Tag, N>::storage_type;
    static_assert(sizeof(S) * 8 == aie::detail::accum_tag_bits<Tag>,
                  "npusim aie_api: accumulator lanes are stored packed");
    unsigned char cat[128];
    std::memcpy(cat, &a.lane(0), 64);
    std::memcpy(cat + 64, &b.lane(0), 64);
    aie::accum<Tag, N> r;
    std::memcpy(&r.lane(0), cat + (n * sizeof(S)) % 64u, 64);
    return r;
}

namespace npusim::aie_api::detail {
template <typename T, unsigned N>
inline aie::accum<aie::acc32, N> sups_lanes(const aie::vector<T, N>& v, int shift, bool sign) {
    static_assert(std::is_integral_v<T> && sizeof(T) <= 2, "npusim aie_api: sups widens 8- and 16-bit lanes");
    aie::accum<aie::acc32, N> r;
    const aie::saturation_mode sat = aie::get_saturation();
    const int s = shift < 0 ? 0 : (shift > 63 ? 63 : shift);
    for (unsigned i = 0; i < N; ++i) {
        const std::int64_t x = sign ? static_cast<std::int64_t>(static_cast<std::make_signed_t<T>>(v[i]))
                                    : static_cast<std::int64_t>(static_cast<std::make_unsigned_t<T>>(v[i]));
        const aie::detail::int128_t wide = static_cast<aie::detail::int128_t>(x) * (aie::detail::int128_t{1} << s);
        r.lane(i) = aie::detail::saturate_to_wide<std::int32_t>(wide, sat);
    }
    return r;
}
} // namespace npusim::aie_api::detail

#define NPUSIM_AIE_SUPS(T, N)                                                                                          \
    inline aie::accum<aie::acc32, N> sups(const v##N##T& v, int shift, int sign) {                                     \
        return npusim::aie_api::detail::sups_lanes(v, shift, sign != 0);                                               \
    }                                                                                                                  \
    inline aie::accum<aie::acc32, N> sups(const v##N##T& v, int shift) {                                               \
        return npusim::aie_api::detail::sups_lanes(v, shift, std::is_signed_v<T>);                                     \
    }                                                                                                                  \
    inline aie::accum<aie::acc32, N> ups_to_v##N##acc32(const v##N##T& v, int shift, int sign) {                       \
        return sups(v, shift, sign);                                                                                   \
    }                                                                                                                  \
    inline aie::accum<aie::acc32, N> ups_to_v##N##acc32(const v##N##T& v, int shift) { return sups(v, shift); }
NPUSIM_AIE_SUPS(int16, 16)
NPUSIM_AIE_SUPS(uint16, 16)
NPUSIM_AIE_SUPS(int16, 32)
NPUSIM_AIE_SUPS(uint16, 32)
NPUSIM_AIE_SUPS(int8, 32)
NPUSIM_AIE_SUPS(uint8, 32)
#undef NPUSIM_AIE_SUPS

// SRS of a 32-bit accumulator to 8 (ssrs) or 16 (lsrs) bits with the core's modes; sign 0 fits the
// unsigned range and returns its bits in the signed type, as the intrinsics' return types say.
namespace npusim::aie_api::detail {
template <typename S, typename U, unsigned N>
inline aie::vector<S, N> srs_signed_or_not(const aie::accum<aie::acc32, N>& acc, int shift, int sign) {
    if (sign != 0) return acc.template to_vector<S>(shift);
    return aie::vector<S, N>(acc.template to_vector<U>(shift));
}
} // namespace npusim::aie_api::detail

inline v32int8 ssrs(const v32acc32& acc, int shift, int sign = 1) {
    return npusim::aie_api::detail::srs_signed_or_not<int8, uint8>(acc, shift, sign);
}
inline v32uint8 ussrs(const v32acc32& acc, int shift, int sign = 0) { return v32uint8(ssrs(acc, shift, sign)); }
inline v16int16 lsrs(const v16acc32& acc, int shift, int sign = 1) {
    return npusim::aie_api::detail::srs_signed_or_not<int16, uint16>(acc, shift, sign);
}
inline v32int16 lsrs(const v32acc32& acc, int shift, int sign = 1) {
    return npusim::aie_api::detail::srs_signed_or_not<int16, uint16>(acc, shift, sign);
}
inline v16uint16 ulsrs(const v16acc32& acc, int shift, int sign = 0) { return v16uint16(lsrs(acc, shift, sign)); }
inline v32uint16 ulsrs(const v32acc32& acc, int shift, int sign = 0) { return v32uint16(lsrs(acc, shift, sign)); }
// lsrs(v16acc64, shift): the signed form of intrinsics_extra.hpp's three-argument lsrs.
inline v16int32 lsrs(const v16acc64& acc, int shift) { return lsrs(acc, shift, 1); }

inline v64int8 broadcast_s8(int8 x) { return aie::broadcast<int8, 64>(x); }
inline v64uint8 broadcast_u8(uint8 x) { return aie::broadcast<uint8, 64>(x); }
inline v32int16 broadcast_s16(int16 x) { return aie::broadcast<int16, 32>(x); }
inline v32uint16 broadcast_u16(uint16 x) { return aie::broadcast<uint16, 32>(x); }
inline v16int32 broadcast_s32(int32 x) { return aie::broadcast<int32, 16>(x); }
inline v16uint32 broadcast_u32(uint32 x) { return aie::broadcast<uint32, 16>(x); }

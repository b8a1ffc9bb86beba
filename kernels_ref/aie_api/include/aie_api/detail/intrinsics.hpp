#pragma once
// The few raw AIE-ML intrinsics and native vector type names that AIE-API kernel sources mix in.
// Native vector types are aliases of aie::vector, so "aie::vector converts implicitly to native
// types" holds trivially. Intrinsics not listed here are not available on the host.
#include "reshape.hpp"

#define NPUSIM_AIE_NATIVE_VECTORS(T)                                                                                   \
    using v16##T = aie::vector<T, 16>;                                                                                 \
    using v32##T = aie::vector<T, 32>;                                                                                 \
    using v64##T = aie::vector<T, 64>;                                                                                 \
    using v128##T = aie::vector<T, 128>;
// (Only the legal widths of each type may be instantiated; the aliases themselves are harmless.)
NPUSIM_AIE_NATIVE_VECTORS(int8)
NPUSIM_AIE_NATIVE_VECTORS(uint8)
NPUSIM_AIE_NATIVE_VECTORS(int16)
NPUSIM_AIE_NATIVE_VECTORS(uint16)
NPUSIM_AIE_NATIVE_VECTORS(int32)
NPUSIM_AIE_NATIVE_VECTORS(uint32)
NPUSIM_AIE_NATIVE_VECTORS(bfloat16)
NPUSIM_AIE_NATIVE_VECTORS(float)
// The 128- and 256-bit registers of 16- and 32-bit elements; the 64-bit ones (v4bfloat16, v4int16,
// v2int32, v8int8, ...) are not aie::vector sizes and live in intrinsics_v64.hpp.
using v8int16 = aie::vector<int16, 8>;
using v8uint16 = aie::vector<uint16, 8>;
using v8bfloat16 = aie::vector<bfloat16, 8>;
using v4int32 = aie::vector<int32, 4>;
using v4uint32 = aie::vector<uint32, 4>;
using v4float = aie::vector<float, 4>;
using v8int32 = aie::vector<int32, 8>;
using v8uint32 = aie::vector<uint32, 8>;
using v8float = aie::vector<float, 8>;
#undef NPUSIM_AIE_NATIVE_VECTORS

// Native accumulator registers.
using v8acc32 = aie::accum<aie::acc32, 8>;
using v16acc32 = aie::accum<aie::acc32, 16>;
using v32acc32 = aie::accum<aie::acc32, 32>;
using v64acc32 = aie::accum<aie::acc32, 64>;
using v4acc64 = aie::accum<aie::acc64, 4>;
using v8acc64 = aie::accum<aie::acc64, 8>;
using v16acc64 = aie::accum<aie::acc64, 16>;
using v32acc64 = aie::accum<aie::acc64, 32>;
using v8accfloat = aie::accum<aie::accfloat, 8>;
using v16accfloat = aie::accum<aie::accfloat, 16>;
using v32accfloat = aie::accum<aie::accfloat, 32>;
using v64accfloat = aie::accum<aie::accfloat, 64>;

// Bring the accumulator tag names into the global namespace (the AIE compilers predefine them).
using aie::acc32;
using aie::acc40;
using aie::acc48;
using aie::acc56;
using aie::acc64;
using aie::accauto;
using aie::accfloat;

// undef_vN<T>(): an undefined register (zero on the host).
#define NPUSIM_AIE_UNDEF(T, N)                                                                                         \
    inline v##N##T undef_v##N##T() { return v##N##T{}; }
NPUSIM_AIE_UNDEF(int8, 64)
NPUSIM_AIE_UNDEF(uint8, 64)
NPUSIM_AIE_UNDEF(int16, 32)
NPUSIM_AIE_UNDEF(uint16, 32)
NPUSIM_AIE_UNDEF(int32, 16)
NPUSIM_AIE_UNDEF(uint32, 16)
NPUSIM_AIE_UNDEF(bfloat16, 32)
NPUSIM_AIE_UNDEF(float, 16)
NPUSIM_AIE_UNDEF(int32, 8)
NPUSIM_AIE_UNDEF(int16, 16)
NPUSIM_AIE_UNDEF(int8, 32)
NPUSIM_AIE_UNDEF(uint8, 32)
NPUSIM_AIE_UNDEF(bfloat16, 16)
#undef NPUSIM_AIE_UNDEF

inline v32bfloat16 broadcast_zero_bfloat16() { return v32bfloat16{}; }
inline v32bfloat16 broadcast_zero_to_v32bfloat16() { return v32bfloat16{}; }
inline v16float broadcast_zero_float() { return v16float{}; }
inline v16int32 broadcast_zero_to_v16int32() { return v16int32{}; }
inline v32bfloat16 broadcast_to_v32bfloat16(bfloat16 b) { return aie::broadcast<bfloat16, 32>(b); }
inline v16int32 broadcast_to_v16int32(int32 v) { return aie::broadcast<int32, 16>(v); }
inline v32int16 broadcast_to_v32int16(int16 v) { return aie::broadcast<int16, 32>(v); }
inline v64int8 broadcast_to_v64int8(int8 v) { return aie::broadcast<int8, 64>(v); }
inline v64uint8 broadcast_to_v64uint8(uint8 v) { return aie::broadcast<uint8, 64>(v); }

// ext_elem(v, i) / upd_elem(v, i, x): read / replace one element.
template <typename T, unsigned N>
inline T ext_elem(const aie::vector<T, N>& v, int idx) {
    return v[static_cast<unsigned>(idx) % N];
}
template <typename T, unsigned N>
inline aie::vector<T, N> upd_elem(aie::vector<T, N> v, int idx, std::type_identity_t<T> x) {
    v[static_cast<unsigned>(idx) % N] = x;
    return v;
}

// shift_bytes(a, b, s): the 512-bit window starting at byte s of the 1024-bit concatenation a:b
// (a in the low half). With a == b it rotates down by s bytes. s is taken modulo 64.
template <typename T, unsigned N>
inline aie::vector<T, N> shift_bytes(const aie::vector<T, N>& a, const aie::vector<T, N>& b, unsigned s) {
    static_assert(sizeof(T) * N == 64, "npusim aie_api: shift_bytes operates on 512-bit vectors");
    unsigned char cat[128];
    std::memcpy(cat, a.data(), 64);
    std::memcpy(cat + 64, b.data(), 64);
    aie::vector<T, N> r;
    std::memcpy(r.data(), cat + (s % 64), 64);
    return r;
}

// Bitwise OR / AND of registers (bor, band intrinsics).
template <typename T, unsigned N>
inline aie::vector<T, N> bor(const aie::vector<T, N>& a, const aie::vector<T, N>& b) {
    return aie::bit_or(a, b);
}
template <typename T, unsigned N>
inline aie::vector<T, N> band(const aie::vector<T, N>& a, const aie::vector<T, N>& b) {
    return aie::bit_and(a, b);
}

// Control-register intrinsics.
inline void set_sat() { aie::set_saturation(aie::saturation_mode::saturate); }
inline void clr_sat() { aie::set_saturation(aie::saturation_mode::none); }
inline void set_satmode(unsigned m) { aie::set_saturation(static_cast<aie::saturation_mode>(m)); }
inline void set_rnd(unsigned m) { aie::set_rounding(static_cast<aie::rounding_mode>(m)); }
inline unsigned get_rnd() { return static_cast<unsigned>(aie::get_rounding()); }

// bfloat16_to_int(v, shift): v * 2^shift as int32, rounded to nearest even and saturated [est: the
// rounding of the AIE-ML float-to-fixed conversion is not documented; npusim uses to_fixed's].
inline v16int32 bfloat16_to_int(const v16bfloat16& v, int shift) { return aie::to_fixed<int32>(v, shift); }
// to_v16bfloat16(acc): the float accumulator converted to bf16 with the core's rounding mode
// (accum::to_vector<bfloat16>()).
inline v16bfloat16 to_v16bfloat16(const v16accfloat& acc) { return acc.to_vector<bfloat16>(); }

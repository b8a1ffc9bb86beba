#pragma once
// Scalar arithmetic of the AIE data path: shift-round-saturate (SRS), float -> bfloat16 rounding,
// wrapping integer products.
#include <bit>

#include "config.hpp"

namespace aie::detail {

// ---- SRS --------------------------------------------------------------------------------------
__extension__ typedef __int128 int128_t;
__extension__ typedef unsigned __int128 uint128_t;

// Arithmetic right shift of x by s (1 .. bits(W)-2) with the given rounding mode, computed exactly.
template <rounding_mode R, typename W>
inline W round_shift_right(W x, int s) {
    using UW = std::conditional_t<std::is_same_v<W, int128_t>, uint128_t, std::uint64_t>;
    const W q = x >> s; // floor (arithmetic shift)
    const UW rem = static_cast<UW>(x) & ((UW{1} << s) - 1);
    const UW half = UW{1} << (s - 1);
    const bool neg = x < 0;
    bool up = false; // true: result is q + 1
    if constexpr (R == rounding_mode::floor) {
        up = false;
    } else if constexpr (R == rounding_mode::ceil) {
        up = rem != 0;
    } else if constexpr (R == rounding_mode::symmetric_floor) { // towards zero
        up = neg && rem != 0;
    } else if constexpr (R == rounding_mode::symmetric_ceil) { // away from zero
        up = !neg && rem != 0;
    } else if constexpr (R == rounding_mode::positive_inf) {
        up = rem >= half;
    } else if constexpr (R == rounding_mode::negative_inf) {
        up = rem > half;
    } else if constexpr (R == rounding_mode::symmetric_inf) {
        up = rem > half || (rem == half && !neg);
    } else if constexpr (R == rounding_mode::symmetric_zero) {
        up = rem > half || (rem == half && neg);
    } else if constexpr (R == rounding_mode::conv_even) {
        up = rem > half || (rem == half && (q & 1) != 0);
    } else if constexpr (R == rounding_mode::conv_odd) {
        up = rem > half || (rem == half && (q & 1) == 0);
    } else {
        static_assert(always_false<decltype(R)>, "unknown rounding mode");
    }
    return q + (up ? 1 : 0);
}

// Fit an exact integer value into T under a saturation mode.
template <typename T, saturation_mode S>
inline T saturate_to(std::int64_t v) {
    constexpr std::int64_t hi = static_cast<std::int64_t>(std::numeric_limits<T>::max());
    constexpr std::int64_t lo = static_cast<std::int64_t>(std::numeric_limits<T>::min());
    if constexpr (S == saturation_mode::none) {
        return static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<std::uint64_t>(v)));
    } else {
        constexpr std::int64_t lo_eff = (S == saturation_mode::symmetric && std::is_signed_v<T>) ? -hi : lo;
        return static_cast<T>(v > hi ? hi : (v < lo_eff ? lo_eff : v));
    }
}

// Same, for a value that may exceed 64 bits (left shifts).
template <typename T>
inline T saturate_to_wide(int128_t v, saturation_mode s) {
    constexpr std::int64_t hi = static_cast<std::int64_t>(std::numeric_limits<T>::max());
    constexpr std::int64_t lo = static_cast<std::int64_t>(std::numeric_limits<T>::min());
    if (s == saturation_mode::none)
        return static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<std::uint64_t>(v)));
    const std::int64_t lo_eff = (s == saturation_mode::symmetric && std::is_signed_v<T>) ? -hi : lo;
    return static_cast<T>(v > hi ? hi : (v < lo_eff ? lo_eff : static_cast<std::int64_t>(v)));
}

// SRS of one lane. shift > 0: round-shift right; shift == 0: saturate only; shift < 0: exact left
// shift by -shift, then saturate (npusim's definition; AIE hardware takes 0..63).
template <typename T, rounding_mode R, saturation_mode S>
inline T srs_lane(std::int64_t x, int shift) {
    if (shift == 0) return saturate_to<T, S>(x);
    if (shift > 0) {
        if (shift <= 62) return saturate_to<T, S>(round_shift_right<R>(x, shift));
        const int s = shift > 126 ? 126 : shift; // |x| < 2^63: beyond 2^126 nothing changes
        return saturate_to<T, S>(static_cast<std::int64_t>(round_shift_right<R>(static_cast<int128_t>(x), s)));
    }
    const int k = -shift > 64 ? 64 : -shift; // 2^64 * |x| already exceeds every destination
    return saturate_to_wide<T>(static_cast<int128_t>(x) * (int128_t{1} << k), S);
}

// Calls f.template operator()<R, S>() with the runtime modes turned into template arguments, so each
// lane loop is specialised (and vectorisable) for one mode pair.
template <typename F>
inline decltype(auto) dispatch_modes(rounding_mode r, saturation_mode s, F&& f) {
    auto with_sat = [&]<rounding_mode R>() -> decltype(auto) {
        switch (s) {
        case saturation_mode::saturate: return f.template operator()<R, saturation_mode::saturate>();
        case saturation_mode::symmetric: return f.template operator()<R, saturation_mode::symmetric>();
        default: return f.template operator()<R, saturation_mode::none>();
        }
    };
    switch (r) {
    case rounding_mode::ceil: return with_sat.template operator()<rounding_mode::ceil>();
    case rounding_mode::symmetric_floor: return with_sat.template operator()<rounding_mode::symmetric_floor>();
    case rounding_mode::symmetric_ceil: return with_sat.template operator()<rounding_mode::symmetric_ceil>();
    case rounding_mode::negative_inf: return with_sat.template operator()<rounding_mode::negative_inf>();
    case rounding_mode::positive_inf: return with_sat.template operator()<rounding_mode::positive_inf>();
    case rounding_mode::symmetric_zero: return with_sat.template operator()<rounding_mode::symmetric_zero>();
    case rounding_mode::symmetric_inf: return with_sat.template operator()<rounding_mode::symmetric_inf>();
    case rounding_mode::conv_even: return with_sat.template operator()<rounding_mode::conv_even>();
    case rounding_mode::conv_odd: return with_sat.template operator()<rounding_mode::conv_odd>();
    default: return with_sat.template operator()<rounding_mode::floor>();
    }
}

// ---- float -> bfloat16 under a rounding mode ------------------------------------------------------
// The AIE float -> bf16 conversion (accfloat -> vector<bfloat16>, bf16 add/sub results) rounds the
// 24-bit significand to 8 bits with the core's rounding mode. npusim applies the mode to the magnitude
// (sign-magnitude datapath): floor and symmetric_floor truncate, ceil and symmetric_ceil round away
// from zero on any dropped bit, the nearest modes differ only on exact ties (positive_inf and
// symmetric_inf: away from zero; negative_inf and symmetric_zero: towards zero; conv_even/conv_odd:
// to the even/odd significand). The default mode (floor) therefore truncates, as the hardware does;
// kernels that want numpy-style results set conv_even. Denormals are kept (not flushed). [est]
template <rounding_mode R>
inline std::uint16_t float_to_bf16_bits(float f) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
    if ((u & 0x7F800000u) == 0x7F800000u) { // inf / NaN
        if ((u & 0x007FFFFFu) != 0) return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
        return static_cast<std::uint16_t>(u >> 16);
    }
    const std::uint32_t sign = u & 0x80000000u;
    const std::uint32_t mag = u & 0x7FFFFFFFu;
    const std::uint32_t q = mag >> 16;
    const std::uint32_t rem = mag & 0xFFFFu;
    constexpr std::uint32_t half = 0x8000u;
    bool up = false;
    if constexpr (R == rounding_mode::floor || R == rounding_mode::symmetric_floor) {
        up = false;
    } else if constexpr (R == rounding_mode::ceil || R == rounding_mode::symmetric_ceil) {
        up = rem != 0;
    } else if constexpr (R == rounding_mode::positive_inf || R == rounding_mode::symmetric_inf) {
        up = rem >= half;
    } else if constexpr (R == rounding_mode::negative_inf || R == rounding_mode::symmetric_zero) {
        up = rem > half;
    } else if constexpr (R == rounding_mode::conv_even) {
        up = rem > half || (rem == half && (q & 1u) != 0);
    } else {
        up = rem > half || (rem == half && (q & 1u) == 0);
    }
    return static_cast<std::uint16_t>((sign >> 16) | (q + (up ? 1u : 0u)));
}

inline std::uint16_t float_to_bf16_bits(float f, rounding_mode r) {
    switch (r) {
    case rounding_mode::ceil: return float_to_bf16_bits<rounding_mode::ceil>(f);
    case rounding_mode::symmetric_floor: return float_to_bf16_bits<rounding_mode::symmetric_floor>(f);
    case rounding_mode::symmetric_ceil: return float_to_bf16_bits<rounding_mode::symmetric_ceil>(f);
    case rounding_mode::negative_inf: return float_to_bf16_bits<rounding_mode::negative_inf>(f);
    case rounding_mode::positive_inf: return float_to_bf16_bits<rounding_mode::positive_inf>(f);
    case rounding_mode::symmetric_zero: return float_to_bf16_bits<rounding_mode::symmetric_zero>(f);
    case rounding_mode::symmetric_inf: return float_to_bf16_bits<rounding_mode::symmetric_inf>(f);
    case rounding_mode::conv_even: return float_to_bf16_bits<rounding_mode::conv_even>(f);
    case rounding_mode::conv_odd: return float_to_bf16_bits<rounding_mode::conv_odd>(f);
    default: return float_to_bf16_bits<rounding_mode::floor>(f);
    }
}

inline float to_f(bfloat16 b) { return bfloat16::to_float(b.bits); }
inline float to_f(float f) { return f; }

// ---- wrapping integer products ---------------------------------------------------------------------
// The product of two integer elements, reduced modulo 2^bits of the accumulator storage S (the
// hardware keeps the low bits; computing in the unsigned type of S gives the same bits without UB).
template <typename S, typename A, typename B>
inline S wrap_mul(A a, B b) {
    using U = std::make_unsigned_t<S>;
    return static_cast<S>(static_cast<U>(static_cast<S>(a)) * static_cast<U>(static_cast<S>(b)));
}
template <typename S>
inline S wrap_add(S a, S b) {
    using U = std::make_unsigned_t<S>;
    return static_cast<S>(static_cast<U>(a) + static_cast<U>(b));
}
template <typename S>
inline S wrap_sub(S a, S b) {
    using U = std::make_unsigned_t<S>;
    return static_cast<S>(static_cast<U>(a) - static_cast<U>(b));
}
template <typename S>
inline S wrap_neg(S a) {
    using U = std::make_unsigned_t<S>;
    return static_cast<S>(U{0} - static_cast<U>(a));
}

} // namespace aie::detail

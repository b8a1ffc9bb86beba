#pragma once
// Elementary functions: aie::exp2, aie::inv, aie::invsqrt and aie::tanh.
//
// AMD does not publish the arithmetic of the AIE2P exp2 and tanh units or of the inverse and inverse
// square root beyond exp2's input step (below), so
// npusim computes the mathematically exact result and rounds it once to the output type: to nearest
// even for bfloat16 and float. **[est]** — no claim of hardware bit-exactness is made.
#include "numeric.hpp"
#include "vector.hpp"

#include <bit>
#include <cmath>
#include <type_traits>

namespace aie {

namespace detail {
// A double rounded once to bfloat16 bits, to nearest even. Rounding through float first could round
// twice; when the float rounding lands exactly on a bf16 tie, the sign of the float rounding error
// decides the direction instead.
inline std::uint16_t double_to_bf16_nearest_even(double d) {
    const float f = static_cast<float>(d);
    const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
    if ((u & 0x7F800000u) == 0x7F800000u) // inf / NaN
        return static_cast<std::uint16_t>((u >> 16) | ((u & 0x007FFFFFu) != 0 ? 0x0040u : 0u));
    const std::uint32_t q = u >> 16, rem = u & 0xFFFFu;
    bool up = rem > 0x8000u || (rem == 0x8000u && (q & 1u) != 0);
    if (rem == 0x8000u && static_cast<double>(f) != d) up = std::fabs(d) > std::fabs(static_cast<double>(f));
    return static_cast<std::uint16_t>(q + (up ? 1u : 0u));
}
template <typename TR>
inline TR from_double_nearest(double d) {
    if constexpr (std::is_same_v<TR, bfloat16>)
        return bfloat16::from_bits(double_to_bf16_nearest_even(d));
    else
        return static_cast<float>(d);
}
template <typename T>
inline constexpr bool is_elementary_elem = std::is_same_v<T, bfloat16> || std::is_same_v<T, float>;
} // namespace detail

namespace detail {
// The AIE2P exp2 unit's input step (AI Engine-ML v2 Intrinsics User Guide UG1639, "Vector nonlinear
// functions", exp2 / VEXP2): the float input is taken with 11 fractional bits, the bits below
// truncated. The input is biased positive there (by 895), so the truncation is a floor to a
// multiple of 2^-11.
inline double exp2_unit_input(float x) {
    if (!std::isfinite(x)) return static_cast<double>(x);
    return std::floor(static_cast<double>(x) * 2048.0) / 2048.0;
}
} // namespace detail

// exp2<TR>(v): 2^v[i] for a float or bfloat16 vector, as TR (bfloat16 or float; default the input's
// type). Each input is first floored to a multiple of 2^-11 (the unit's documented input step,
// detail::exp2_unit_input); UG1639 calls the rest "an approximation" that "does not meet the IEEE
// precision requirements" and does not define it, so npusim then takes the [est] exact 2^x rounded
// to TR to nearest even (overflow gives +inf, underflow 0 or a denormal, NaN stays NaN).
template <typename TR = void, typename T, unsigned N>
inline auto exp2(const vector<T, N>& v) {
    using R = std::conditional_t<std::is_void_v<TR>, T, TR>;
    static_assert(detail::is_elementary_elem<T> && detail::is_elementary_elem<R>,
                  "npusim aie_api: aie::exp2 takes and returns bfloat16 or float vectors");
    vector<R, N> r;
    for (unsigned i = 0; i < N; ++i)
        r[i] = detail::from_double_nearest<R>(std::exp2(detail::exp2_unit_input(detail::to_f(v[i]))));
    return r;
}

// inv(x): 1 / x. The scalar form takes and returns float (the AIE API's scalar inverse); the vector
// form keeps the element type. [est] the exact reciprocal rounded to nearest even (1/0 = +-inf).
template <typename T>
requires(std::is_same_v<T, float>) inline float inv(T x) { return 1.0f / x; }
template <typename T, unsigned N>
inline vector<T, N> inv(const vector<T, N>& v) {
    static_assert(detail::is_elementary_elem<T>, "npusim aie_api: aie::inv takes a bfloat16 or float vector");
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i)
        r[i] = detail::from_double_nearest<T>(1.0 / static_cast<double>(detail::to_f(v[i])));
    return r;
}

// invsqrt(x): 1 / sqrt(x). The scalar form takes and returns float; the vector form keeps the element
// type (bfloat16 or float). [est] the exact value rounded once to nearest even: invsqrt(+-0) = +-inf,
// invsqrt(+inf) = +0, a negative input or NaN gives NaN.
template <typename T>
requires(std::is_same_v<T, float>) inline float invsqrt(T x) {
    return detail::from_double_nearest<float>(1.0 / std::sqrt(static_cast<double>(x)));
}
template <typename T, unsigned N>
inline vector<T, N> invsqrt(const vector<T, N>& v) {
    static_assert(detail::is_elementary_elem<T>, "npusim aie_api: aie::invsqrt takes a bfloat16 or float vector");
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i)
        r[i] = detail::from_double_nearest<T>(1.0 / std::sqrt(static_cast<double>(detail::to_f(v[i]))));
    return r;
}

// tanh<TR>(v): the hyperbolic tangent of a float or bfloat16 vector, as TR (bfloat16 or float; default
// the input's type). AIE2P computes it on its non-linear unit (mlir-aie's aie2p gelu.cc, silu.cc,
// swiglu.cc and mm_activation_epilogue.cc call aie::tanh<bfloat16>). [est] the exact tanh rounded
// once to TR to nearest even: tanh(+-inf) = +-1, tanh(-0) = -0, NaN stays NaN.
template <typename TR = void, typename T, unsigned N>
inline auto tanh(const vector<T, N>& v) {
    using R = std::conditional_t<std::is_void_v<TR>, T, TR>;
    static_assert(detail::is_elementary_elem<T> && detail::is_elementary_elem<R>,
                  "npusim aie_api: aie::tanh takes and returns bfloat16 or float vectors");
    vector<R, N> r;
    for (unsigned i = 0; i < N; ++i)
        r[i] = detail::from_double_nearest<R>(std::tanh(static_cast<double>(detail::to_f(v[i]))));
    return r;
}

} // namespace aie

#pragma once
// Element-wise operations, part 2: negation, absolute value, shifts, bitwise operations, max/min,
// comparisons, selection, reductions, float <-> fixed conversion (part 1: ops.hpp).
#include "ops.hpp"

namespace aie {

// ---- negation, absolute value, shifts ------------------------------------------------------------
template <typename T, unsigned N>
inline vector<T, N> neg(const vector<T, N>& v) {
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i) {
        if constexpr (std::is_same_v<T, bfloat16>)
            r[i] = bfloat16::from_bits(static_cast<std::uint16_t>(v[i].bits ^ 0x8000u));
        else if constexpr (std::is_same_v<T, float>)
            r[i] = -v[i];
        else
            r[i] = static_cast<T>(0u - static_cast<std::uint32_t>(v[i]));
    }
    return r;
}
template <typename Tag, unsigned N>
inline accum<Tag, N> neg(const accum<Tag, N>& a) {
    accum<Tag, N> r;
    for (unsigned i = 0; i < N; ++i) {
        if constexpr (accum<Tag, N>::is_floating_point())
            r.lane(i) = -a.lane(i);
        else
            r.lane(i) = detail::wrap_neg(a.lane(i));
    }
    return r;
}
// |x|; the most negative integer stays as it is (wraps), as on the hardware.
template <typename T, unsigned N>
inline vector<T, N> abs(const vector<T, N>& v) {
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i) {
        if constexpr (std::is_same_v<T, bfloat16>)
            r[i] = bfloat16::from_bits(static_cast<std::uint16_t>(v[i].bits & 0x7FFFu));
        else if constexpr (std::is_same_v<T, float>)
            r[i] = std::fabs(v[i]);
        else if constexpr (std::is_signed_v<T>)
            r[i] = v[i] < 0 ? static_cast<T>(0u - static_cast<std::uint32_t>(v[i])) : v[i];
        else
            r[i] = v[i];
    }
    return r;
}
// Arithmetic (signed) or logical (unsigned) shifts of integer vectors.
template <typename T, unsigned N>
inline vector<T, N> upshift(const vector<T, N>& v, unsigned s) {
    static_assert(detail::is_int_elem<T>, "npusim aie_api: aie::upshift needs an integer vector");
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i)
        r[i] = s >= detail::type_bits<T> ? T{0} : static_cast<T>(static_cast<std::uint32_t>(v[i]) << s);
    return r;
}
template <typename T, unsigned N>
inline vector<T, N> downshift(const vector<T, N>& v, unsigned s) {
    static_assert(detail::is_int_elem<T>, "npusim aie_api: aie::downshift needs an integer vector");
    vector<T, N> r;
    const unsigned k = s >= detail::type_bits<T> ? detail::type_bits<T> - 1 : s;
    for (unsigned i = 0; i < N; ++i)
        r[i] = (s >= detail::type_bits<T> && std::is_unsigned_v<T>) ? T{0} : static_cast<T>(v[i] >> k);
    return r;
}

// ---- bitwise -------------------------------------------------------------------------------------------
#define NPUSIM_AIE_BITWISE(NAME, OP)                                                                                   \
    template <typename T, unsigned N>                                                                                  \
    inline vector<T, N> NAME(const vector<T, N>& a, const vector<T, N>& b) {                                           \
        static_assert(detail::is_int_elem<T>, "npusim aie_api: aie::" #NAME " needs integer vectors");                 \
        vector<T, N> r;                                                                                                \
        for (unsigned i = 0; i < N; ++i) r[i] = static_cast<T>(a[i] OP b[i]);                                          \
        return r;                                                                                                      \
    }                                                                                                                  \
    template <typename T, unsigned N>                                                                                  \
    inline vector<T, N> NAME(const vector<T, N>& a, detail::nd<T> s) {                                                 \
        return NAME(a, broadcast<T, N>(s));                                                                            \
    }                                                                                                                  \
    template <typename T, unsigned N>                                                                                  \
    inline vector<T, N> NAME(detail::nd<T> s, const vector<T, N>& a) {                                                 \
        return NAME(broadcast<T, N>(s), a);                                                                            \
    }
NPUSIM_AIE_BITWISE(bit_and, &)
NPUSIM_AIE_BITWISE(bit_or, |)
NPUSIM_AIE_BITWISE(bit_xor, ^)
#undef NPUSIM_AIE_BITWISE
template <typename T, unsigned N>
inline vector<T, N> bit_not(const vector<T, N>& a) {
    static_assert(detail::is_int_elem<T>, "npusim aie_api: aie::bit_not needs an integer vector");
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i) r[i] = static_cast<T>(~a[i]);
    return r;
}

// ---- max / min -----------------------------------------------------------------------------------------
template <typename T, unsigned N>
inline vector<T, N> max(const vector<T, N>& a, const vector<T, N>& b) {
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i) r[i] = detail::lt_elem(a[i], b[i]) ? b[i] : a[i];
    return r;
}
template <typename T, unsigned N>
inline vector<T, N> max(const vector<T, N>& a, detail::nd<T> s) {
    return max(a, broadcast<T, N>(s));
}
template <typename T, unsigned N>
inline vector<T, N> max(detail::nd<T> s, const vector<T, N>& a) {
    return max(broadcast<T, N>(s), a);
}
template <typename T, unsigned N>
inline vector<T, N> min(const vector<T, N>& a, const vector<T, N>& b) {
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i) r[i] = detail::lt_elem(b[i], a[i]) ? b[i] : a[i];
    return r;
}
template <typename T, unsigned N>
inline vector<T, N> min(const vector<T, N>& a, detail::nd<T> s) {
    return min(a, broadcast<T, N>(s));
}
template <typename T, unsigned N>
inline vector<T, N> min(detail::nd<T> s, const vector<T, N>& a) {
    return min(broadcast<T, N>(s), a);
}

// ---- comparisons (-> mask) --------------------------------------------------------------------------
#define NPUSIM_AIE_COMPARE(NAME, EXPR)                                                                                 \
    template <typename T, unsigned N>                                                                                  \
    inline mask<N> NAME(const vector<T, N>& a, const vector<T, N>& b) {                                                \
        mask<N> m;                                                                                                     \
        for (unsigned i = 0; i < N; ++i) {                                                                             \
            const auto x = detail::to_cmp(a[i]);                                                                       \
            const auto y = detail::to_cmp(b[i]);                                                                       \
            m.set(i, EXPR);                                                                                            \
        }                                                                                                              \
        return m;                                                                                                      \
    }                                                                                                                  \
    template <typename T, unsigned N>                                                                                  \
    inline mask<N> NAME(const vector<T, N>& a, detail::nd<T> s) {                                                      \
        return NAME(a, broadcast<T, N>(s));                                                                            \
    }                                                                                                                  \
    template <typename T, unsigned N>                                                                                  \
    inline mask<N> NAME(detail::nd<T> s, const vector<T, N>& a) {                                                      \
        return NAME(broadcast<T, N>(s), a);                                                                            \
    }
namespace detail {
template <typename T>
inline auto to_cmp(T v) {
    if constexpr (std::is_same_v<T, bfloat16>)
        return to_f(v);
    else
        return v;
}
} // namespace detail
NPUSIM_AIE_COMPARE(lt, x < y)
NPUSIM_AIE_COMPARE(le, x <= y)
NPUSIM_AIE_COMPARE(gt, x > y)
NPUSIM_AIE_COMPARE(ge, x >= y)
NPUSIM_AIE_COMPARE(eq, x == y)
NPUSIM_AIE_COMPARE(neq, x != y)
#undef NPUSIM_AIE_COMPARE

// True when every element is equal.
template <typename T, unsigned N>
inline bool equal(const vector<T, N>& a, const vector<T, N>& b) {
    return eq(a, b).full();
}
template <typename T, unsigned N>
inline bool not_equal(const vector<T, N>& a, const vector<T, N>& b) {
    return !equal(a, b);
}

// ---- select --------------------------------------------------------------------------------------------
// out[i] = m[i] ? b[i] : a[i]
template <typename T, unsigned N>
inline vector<T, N> select(const vector<T, N>& a, const vector<T, N>& b, const mask<N>& m) {
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i) r[i] = m.test(i) ? b[i] : a[i];
    return r;
}
template <typename T, unsigned N>
inline vector<T, N> select(detail::nd<T> a, const vector<T, N>& b, const mask<N>& m) {
    return select(broadcast<T, N>(a), b, m);
}
template <typename T, unsigned N>
inline vector<T, N> select(const vector<T, N>& a, detail::nd<T> b, const mask<N>& m) {
    return select(a, broadcast<T, N>(b), m);
}
template <typename T, unsigned N>
requires(detail::is_elem<T>) inline vector<T, N> select(T a, T b, const mask<N>& m) {
    return select(broadcast<T, N>(a), broadcast<T, N>(b), m);
}

// ---- reductions ---------------------------------------------------------------------------------------
// Integer sums wrap in the element type. Float and bfloat16 sums add pairwise (halving the vector),
// like the hardware's reduction tree, in float; bfloat16 results are rounded with the core's mode.
template <typename T, unsigned N>
inline T reduce_add(const vector<T, N>& v) {
    if constexpr (detail::is_float_elem<T>) {
        float buf[N];
        for (unsigned i = 0; i < N; ++i) buf[i] = detail::to_f(v[i]);
        for (unsigned w = N / 2; w >= 1; w /= 2)
            for (unsigned i = 0; i < w; ++i) buf[i] = buf[i] + buf[i + w];
        if constexpr (std::is_same_v<T, bfloat16>)
            return bfloat16::from_bits(detail::float_to_bf16_bits(buf[0], get_rounding()));
        else
            return buf[0];
    } else {
        std::uint32_t s = 0;
        for (unsigned i = 0; i < N; ++i) s += static_cast<std::uint32_t>(v[i]);
        return static_cast<T>(s);
    }
}
template <typename T, unsigned N>
inline T reduce_max(const vector<T, N>& v) {
    T m = v[0];
    for (unsigned i = 1; i < N; ++i) m = detail::lt_elem(m, v[i]) ? v[i] : m;
    return m;
}
template <typename T, unsigned N>
inline T reduce_min(const vector<T, N>& v) {
    T m = v[0];
    for (unsigned i = 1; i < N; ++i) m = detail::lt_elem(v[i], m) ? v[i] : m;
    return m;
}
// Sum of the lanes of a float accumulator (AIE API reduce_add(accum<accfloat>)).
template <unsigned N>
inline float reduce_add(const accum<accfloat, N>& a) {
    float buf[N];
    for (unsigned i = 0; i < N; ++i) buf[i] = a.lane(i);
    for (unsigned w = N / 2; w >= 1; w /= 2)
        for (unsigned i = 0; i < w; ++i) buf[i] = buf[i] + buf[i + w];
    return buf[0];
}

// ---- float <-> fixed conversion ---------------------------------------------------------------------
// to_fixed<T>(v, shift): round(v * 2^shift) to nearest even, saturated to T (AIE-ML conversions use
// conv_even). to_float<F>(v, shift): v * 2^-shift.
template <typename T = int32, typename F, unsigned N>
inline vector<T, N> to_fixed(const vector<F, N>& v, int shift = 0) {
    static_assert(detail::is_float_elem<F> && detail::is_int_elem<T>,
                  "npusim aie_api: aie::to_fixed converts a bfloat16/float vector to an integer vector");
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i) {
        const double x = static_cast<double>(detail::to_f(v[i])) * static_cast<double>(std::ldexp(1.0, shift));
        double rounded = std::nearbyint(x); // default FP environment: ties to even
        if (x != x) rounded = 0;
        const double hi = static_cast<double>(std::numeric_limits<T>::max());
        const double lo = static_cast<double>(std::numeric_limits<T>::min());
        r[i] = static_cast<T>(rounded > hi ? hi : (rounded < lo ? lo : rounded));
    }
    return r;
}
template <typename F = float, typename T, unsigned N>
inline vector<F, N> to_float(const vector<T, N>& v, int shift = 0) {
    static_assert(detail::is_float_elem<F> && detail::is_int_elem<T>,
                  "npusim aie_api: aie::to_float converts an integer vector to a bfloat16/float vector");
    vector<F, N> r;
    for (unsigned i = 0; i < N; ++i) r[i] = static_cast<float>(std::ldexp(static_cast<double>(v[i]), -shift));
    return r;
}

} // namespace aie

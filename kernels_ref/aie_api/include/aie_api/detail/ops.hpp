#pragma once
// Element-wise operations, part 1: load/store, initialisation, add/sub, multiply-accumulate
// (part 2, the rest: ops_logic.hpp).
#include "accum.hpp"

namespace aie {

namespace detail {
template <typename T>
using nd = std::type_identity_t<T>; // non-deduced scalar parameter

// Element-wise result of a + b / a - b for vectors: integers wrap; bfloat16 goes through the float
// accumulator adders and is rounded back with the core's rounding mode; float is IEEE.
template <typename T, unsigned N, typename F>
inline vector<T, N> float_like_binary(const vector<T, N>& a, const vector<T, N>& b, F f) {
    vector<T, N> r;
    if constexpr (std::is_same_v<T, bfloat16>) {
        dispatch_modes(get_rounding(), saturation_mode::none, [&]<rounding_mode R, saturation_mode>() {
            for (unsigned i = 0; i < N; ++i)
                r[i] = bfloat16::from_bits(float_to_bf16_bits<R>(f(to_f(a[i]), to_f(b[i]))));
        });
    } else if constexpr (std::is_same_v<T, float>) {
        for (unsigned i = 0; i < N; ++i) r[i] = f(a[i], b[i]);
    } else {
        using S = std::conditional_t<std::is_signed_v<T>, std::int32_t, std::uint32_t>;
        for (unsigned i = 0; i < N; ++i)
            r[i] = static_cast<T>(static_cast<std::uint32_t>(
                f(static_cast<std::uint32_t>(static_cast<S>(a[i])), static_cast<std::uint32_t>(static_cast<S>(b[i])))));
    }
    return r;
}

template <typename T>
inline bool lt_elem(T a, T b) {
    if constexpr (std::is_same_v<T, bfloat16>)
        return to_f(a) < to_f(b);
    else
        return a < b;
}
} // namespace detail

// ---- load / store ---------------------------------------------------------------------------------
// Hardware loads/stores need the address aligned to the vector size (or 32 bytes); the host layer
// accepts any address.
template <unsigned N, typename T>
inline vector<std::remove_const_t<T>, N> load_v(const T* p) {
    vector<std::remove_const_t<T>, N> r;
    std::memcpy(r.data(), p, sizeof(T) * N);
    return r;
}
template <typename T>
inline vector<std::remove_const_t<T>> load_v(const T* p) {
    return load_v<detail::native_elems<std::remove_const_t<T>>>(p);
}
template <unsigned N, typename T>
inline vector<std::remove_const_t<T>, N> load_unaligned_v(const T* p, unsigned /*aligned_elems*/ = 1) {
    return load_v<N>(p);
}
template <typename T>
inline vector<std::remove_const_t<T>> load_unaligned_v(const T* p, unsigned /*aligned_elems*/ = 1) {
    return load_v(p);
}
template <typename T, unsigned N>
inline T* store_v(T* p, const vector<T, N>& v) {
    std::memcpy(p, v.data(), sizeof(T) * N);
    return p;
}
template <typename T, unsigned N>
inline T* store_unaligned_v(T* p, const vector<T, N>& v, unsigned /*aligned_elems*/ = 1) {
    return store_v(p, v);
}

// ---- initialisation -----------------------------------------------------------------------------
// zeros<T, N>() is a vector; zeros<AccTag, N>() an accumulator.
template <typename T, unsigned N = (detail::is_accum_tag<T> ? detail::native_accum_lanes<T> : detail::native_elems<T>)>
inline auto zeros() {
    if constexpr (detail::is_accum_tag<T>)
        return accum<T, N>{};
    else
        return vector<T, N>{};
}

template <typename T, unsigned N = detail::native_elems<T>>
inline vector<T, N> broadcast(detail::nd<T> value) {
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i) r[i] = value;
    return r;
}

// ---- add / sub ----------------------------------------------------------------------------------
template <typename T, unsigned N>
inline vector<T, N> add(const vector<T, N>& a, const vector<T, N>& b) {
    return detail::float_like_binary(a, b, [](auto x, auto y) { return x + y; });
}
template <typename T, unsigned N>
inline vector<T, N> add(const vector<T, N>& a, detail::nd<T> s) {
    return add(a, broadcast<T, N>(s));
}
template <typename T, unsigned N>
inline vector<T, N> add(detail::nd<T> s, const vector<T, N>& a) {
    return add(broadcast<T, N>(s), a);
}
template <typename T, unsigned N>
inline vector<T, N> sub(const vector<T, N>& a, const vector<T, N>& b) {
    return detail::float_like_binary(a, b, [](auto x, auto y) { return x - y; });
}
template <typename T, unsigned N>
inline vector<T, N> sub(const vector<T, N>& a, detail::nd<T> s) {
    return sub(a, broadcast<T, N>(s));
}
template <typename T, unsigned N>
inline vector<T, N> sub(detail::nd<T> s, const vector<T, N>& a) {
    return sub(broadcast<T, N>(s), a);
}

// Accumulator + accumulator, accumulator + vector (the vector is loaded into the accumulator first).
template <typename Tag, unsigned N>
inline accum<Tag, N> add(const accum<Tag, N>& a, const accum<Tag, N>& b) {
    accum<Tag, N> r;
    for (unsigned i = 0; i < N; ++i) {
        if constexpr (accum<Tag, N>::is_floating_point())
            r.lane(i) = a.lane(i) + b.lane(i);
        else
            r.lane(i) = detail::wrap_add(a.lane(i), b.lane(i));
    }
    return r;
}
template <typename Tag, unsigned N>
inline accum<Tag, N> sub(const accum<Tag, N>& a, const accum<Tag, N>& b) {
    accum<Tag, N> r;
    for (unsigned i = 0; i < N; ++i) {
        if constexpr (accum<Tag, N>::is_floating_point())
            r.lane(i) = a.lane(i) - b.lane(i);
        else
            r.lane(i) = detail::wrap_sub(a.lane(i), b.lane(i));
    }
    return r;
}
template <typename Tag, unsigned N, typename T>
inline accum<Tag, N> add(const accum<Tag, N>& a, const vector<T, N>& v) {
    return add(a, accum<Tag, N>(v));
}
template <typename Tag, unsigned N, typename T>
inline accum<Tag, N> sub(const accum<Tag, N>& a, const vector<T, N>& v) {
    return sub(a, accum<Tag, N>(v));
}

// ---- mul / mac / msc -------------------------------------------------------------------------------
// Products are exact (bfloat16 x bfloat16 fits a float significand) and accumulate in the accumulator:
// integer lanes wrap modulo 2^32 / 2^64, float lanes are IEEE single precision.
namespace detail {
template <typename Tag, unsigned N, typename A, typename B, int Sign>
inline void mac_into(accum<Tag, N>& acc, const vector<A, N>& a, const vector<B, N>& b) {
    using S = accum_storage_t<Tag>;
    for (unsigned i = 0; i < N; ++i) {
        if constexpr (is_float_accum_tag<Tag>) {
            const float p = to_f(a[i]) * to_f(b[i]);
            acc.lane(i) = Sign > 0 ? acc.lane(i) + p : (Sign < 0 ? acc.lane(i) - p : p);
        } else {
            const S p = wrap_mul<S>(a[i], b[i]);
            acc.lane(i) = Sign > 0 ? wrap_add(acc.lane(i), p) : (Sign < 0 ? wrap_sub(acc.lane(i), p) : p);
        }
    }
}
template <typename Tag, unsigned N, typename A, typename B>
inline void check_mul_operands() {
    static_assert(is_float_elem<A> == is_float_elem<B>,
                  "npusim aie_api: a multiplication mixes floating-point and integer operands");
    static_assert(is_float_accum_tag<Tag> == is_float_elem<A>,
                  "npusim aie_api: the accumulator class does not match the operand types (integer products "
                  "need acc32/acc64, floating-point products accfloat)");
}
} // namespace detail

template <typename AccTag = accauto, typename A, unsigned N, typename B>
inline auto mul(const vector<A, N>& a, const vector<B, N>& b) {
    using Tag = detail::mul_result_tag_t<AccTag, A, B>;
    accum<Tag, N> r;
    detail::mac_into<Tag, N, A, B, 0>(r, a, b);
    return r;
}
template <typename AccTag = accauto, typename A, unsigned N>
inline auto mul(const vector<A, N>& a, detail::nd<A> s) {
    return mul<AccTag>(a, broadcast<A, N>(s));
}
template <typename AccTag = accauto, typename A, unsigned N>
inline auto mul(detail::nd<A> s, const vector<A, N>& a) {
    return mul<AccTag>(broadcast<A, N>(s), a);
}
// Vector times a scalar of another integer type (e.g. uint8 pixels x int16 weight).
template <typename AccTag = accauto, typename A, unsigned N, typename S>
requires(detail::is_elem<S> && !std::is_same_v<S, A>) inline auto mul(const vector<A, N>& a, S s) {
    return mul<AccTag>(a, broadcast<S, N>(s));
}
template <typename AccTag = accauto, typename S, typename A, unsigned N>
requires(detail::is_elem<S> && !std::is_same_v<S, A>) inline auto mul(S s, const vector<A, N>& a) {
    return mul<AccTag>(broadcast<S, N>(s), a);
}

template <typename Tag, unsigned N, typename A, typename B>
inline accum<Tag, N> mac(const accum<Tag, N>& acc, const vector<A, N>& a, const vector<B, N>& b) {
    detail::check_mul_operands<Tag, N, A, B>();
    accum<Tag, N> r = acc;
    detail::mac_into<Tag, N, A, B, 1>(r, a, b);
    return r;
}
template <typename Tag, unsigned N, typename A, typename S>
requires(detail::is_elem<S>) inline accum<Tag, N> mac(const accum<Tag, N>& acc, const vector<A, N>& a, S s) {
    return mac(acc, a, broadcast<S, N>(s));
}
template <typename Tag, unsigned N, typename A, typename S>
requires(detail::is_elem<S>) inline accum<Tag, N> mac(const accum<Tag, N>& acc, S s, const vector<A, N>& a) {
    return mac(acc, broadcast<S, N>(s), a);
}
template <typename Tag, unsigned N, typename A, typename B>
inline accum<Tag, N> msc(const accum<Tag, N>& acc, const vector<A, N>& a, const vector<B, N>& b) {
    detail::check_mul_operands<Tag, N, A, B>();
    accum<Tag, N> r = acc;
    detail::mac_into<Tag, N, A, B, -1>(r, a, b);
    return r;
}
template <typename Tag, unsigned N, typename A, typename S>
requires(detail::is_elem<S>) inline accum<Tag, N> msc(const accum<Tag, N>& acc, const vector<A, N>& a, S s) {
    return msc(acc, a, broadcast<S, N>(s));
}
template <typename Tag, unsigned N, typename A, typename S>
requires(detail::is_elem<S>) inline accum<Tag, N> msc(const accum<Tag, N>& acc, S s, const vector<A, N>& a) {
    return msc(acc, broadcast<S, N>(s), a);
}
// Negated product.
template <typename AccTag = accauto, typename A, unsigned N, typename B>
inline auto negmul(const vector<A, N>& a, const vector<B, N>& b) {
    using Tag = detail::mul_result_tag_t<AccTag, A, B>;
    accum<Tag, N> r;
    detail::mac_into<Tag, N, A, B, -1>(r, a, b);
    return r;
}

// accumulate<Lanes>(coeff, start, d0, d1, ...): out[i] = sum_j coeff[start + j] * d_j[i].
template <unsigned Lanes, typename AccTag = accauto, typename C, unsigned NC, typename D, typename... Rest>
requires((std::is_same_v<Rest, vector<D, Lanes>> &&
          ...)) inline auto accumulate(const vector<C, NC>& coeff, unsigned coeff_start, const vector<D, Lanes>& d0,
                                       const Rest&... rest) {
    using Tag = detail::mul_result_tag_t<AccTag, C, D>;
    accum<Tag, Lanes> r;
    unsigned j = coeff_start;
    detail::mac_into<Tag, Lanes, C, D, 0>(r, broadcast<C, Lanes>(coeff[j++]), d0);
    ((detail::mac_into<Tag, Lanes, C, D, 1>(r, broadcast<C, Lanes>(coeff[j++]), rest)), ...);
    return r;
}
// The same, adding to an existing accumulator.
template <unsigned Lanes, typename Tag, typename C, unsigned NC, typename D, typename... Rest>
requires((std::is_same_v<Rest, vector<D, Lanes>> &&
          ...)) inline accum<Tag, Lanes> accumulate(const accum<Tag, Lanes>& acc, const vector<C, NC>& coeff,
                                                    unsigned coeff_start, const vector<D, Lanes>& d0,
                                                    const Rest&... rest) {
    accum<Tag, Lanes> r = acc;
    unsigned j = coeff_start;
    detail::mac_into<Tag, Lanes, C, D, 1>(r, broadcast<C, Lanes>(coeff[j++]), d0);
    ((detail::mac_into<Tag, Lanes, C, D, 1>(r, broadcast<C, Lanes>(coeff[j++]), rest)), ...);
    return r;
}

} // namespace aie

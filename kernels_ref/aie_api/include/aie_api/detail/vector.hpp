#pragma once
// aie::vector<T, N> and aie::mask<N>.
#include <array>
#include <cstring>
#include <type_traits>
#include <utility>

#include "numeric.hpp"

namespace aie {

template <typename T, unsigned N = detail::native_elems<T>>
class vector;

namespace detail {
template <typename T>
inline constexpr bool is_vector_v = false;
template <typename T, unsigned N>
inline constexpr bool is_vector_v<vector<T, N>> = true;
} // namespace detail

// A fixed-size register of N elements of T. Elements are stored in order; the class is standard
// layout with the alignment of T, so aie iterators can view memory as vectors. A default-constructed
// vector is all zeros (the hardware leaves it undefined; npusim makes it deterministic).
template <typename T, unsigned N>
class vector {
    static_assert(detail::is_elem<T>,
                  "npusim aie_api: aie::vector element type must be int8, uint8, int16, uint16, int32, uint32, "
                  "bfloat16 or float (int4, float16 and complex types are not supported by the host layer)");
    static_assert(detail::valid_vector_size<T, N>,
                  "npusim aie_api: illegal aie::vector size; the element count must be a power of two and the "
                  "vector 128 to 4096 bits wide (native widths: 128/256/512/1024 bits)");

public:
    using value_type = T;
    static constexpr unsigned size() { return N; }
    static constexpr unsigned bits() { return N * detail::type_bits<T>; }

    constexpr vector() = default;

    // vector(a, b, c, ...): the first elements, the rest zero (AIE API element-list constructor).
    template <typename... Args>
    requires(sizeof...(Args) >= 1 && sizeof...(Args) <= N && (std::is_convertible_v<Args, T> && ...) &&
             !(sizeof...(Args) == 1 && (detail::is_vector_v<std::remove_cvref_t<Args>> ||
                                        ...))) explicit(sizeof...(Args) == 1) vector(Args... args) {
        unsigned i = 0;
        ((data_[i++] = static_cast<T>(args)), ...);
    }

    // Concatenating constructor: vector<T, 2N>(lo, hi) etc.
    template <unsigned M, typename... Rest>
    requires(M < N && (std::is_same_v<Rest, vector<T, M>> && ...) && (1 + sizeof...(Rest)) * M == N)
        vector(const vector<T, M>& first, const Rest&... rest) {
        unsigned at = 0;
        auto put = [&](const vector<T, M>& v) {
            for (unsigned i = 0; i < M; ++i) data_[at + i] = v[i];
            at += M;
        };
        put(first);
        (put(rest), ...);
    }

    // Native register cast: the same bits read as another element type of the same register width,
    // as a C cast between AIE native vector types (`(v32bfloat16)v32int16`, `v16int16(v16bfloat16)`):
    // AI Engine-ML Intrinsics User Guide (UG1583), Vector Conversions > Casting, "bit-reinterpretation
    // between vector types of the same size". Explicit, as between the native types.
    template <typename U, unsigned M>
    requires(!std::is_same_v<U, T> &&
             detail::type_bits<U> * M == detail::type_bits<T> * N) explicit vector(const vector<U, M>& o) {
        std::memcpy(static_cast<void*>(data_), static_cast<const void*>(o.data()), sizeof(data_));
    }

    T& operator[](unsigned i) { return data_[i]; }
    const T& operator[](unsigned i) const { return data_[i]; }
    T get(unsigned i) const { return data_[i]; }
    vector& set(T v, unsigned i) {
        data_[i] = v;
        return *this;
    }

    T* data() { return data_; }
    const T* data() const { return data_; }

    // Sub-vector idx of M elements.
    template <unsigned M>
    vector<T, M> extract(unsigned idx) const {
        static_assert(M <= N && N % M == 0, "npusim aie_api: vector::extract<M> needs M to divide the vector size");
        vector<T, M> r;
        for (unsigned i = 0; i < M; ++i) r[i] = data_[idx * M + i];
        return r;
    }

    // Replace sub-vector idx (of v's size) with v.
    template <unsigned M>
    vector& insert(unsigned idx, const vector<T, M>& v) {
        static_assert(M <= N && N % M == 0, "npusim aie_api: vector::insert needs the sub-vector size to divide N");
        for (unsigned i = 0; i < M; ++i) data_[idx * M + i] = v[i];
        return *this;
    }
    template <unsigned M>
    vector& insert(unsigned idx, const T (&arr)[M]) {
        for (unsigned i = 0; i < M; ++i) data_[idx * M + i] = arr[i];
        return *this;
    }

    // A larger vector with this one at sub-vector position idx, the rest zero.
    template <unsigned M>
    vector<T, M> grow(unsigned idx = 0) const {
        static_assert(M >= N && M % N == 0, "npusim aie_api: vector::grow<M> needs M to be a multiple of N");
        vector<T, M> r;
        r.insert(idx, *this);
        return r;
    }
    // A larger vector holding copies of this one.
    template <unsigned M>
    vector<T, M> grow_replicate() const {
        static_assert(M >= N && M % N == 0, "npusim aie_api: vector::grow_replicate<M> needs M to be a multiple of N");
        vector<T, M> r;
        for (unsigned k = 0; k < M / N; ++k) r.insert(k, *this);
        return r;
    }

    // Reinterpret the same bits as another element type.
    template <typename U>
    vector<U, bits() / detail::type_bits<U>> cast_to() const {
        vector<U, bits() / detail::type_bits<U>> r;
        std::memcpy(r.data(), data_, sizeof(data_));
        return r;
    }

    // Load/store helpers (AIE API member spellings).
    template <typename P>
    void load(const P* p) {
        std::memcpy(data_, p, sizeof(data_));
    }
    template <typename P>
    void store(P* p) const {
        std::memcpy(p, data_, sizeof(data_));
    }

    T* begin() { return data_; }
    T* end() { return data_ + N; }
    const T* begin() const { return data_; }
    const T* end() const { return data_ + N; }

    // Bitwise equality (test helper; the AIE API compares with aie::equal).
    friend bool operator==(const vector& a, const vector& b) {
        return std::memcmp(a.data_, b.data_, sizeof(a.data_)) == 0;
    }

private:
    T data_[N]{};
};

// A per-lane boolean, result of comparisons and input of select.
template <unsigned N>
class mask {
    static_assert(detail::is_pow2(N) && N <= 512, "npusim aie_api: aie::mask size must be a power of two up to 512");
    static constexpr unsigned words = (N + 63) / 64;

public:
    static constexpr unsigned size() { return N; }

    constexpr mask() = default;
    constexpr explicit mask(bool all) {
        if (all)
            for (unsigned i = 0; i < N; ++i) set(i);
    }

    static mask from_uint32(std::uint32_t w) {
        mask m;
        for (unsigned i = 0; i < N && i < 32; ++i)
            if ((w >> i) & 1u) m.set(i);
        return m;
    }
    static mask from_uint64(std::uint64_t w) {
        mask m;
        for (unsigned i = 0; i < N && i < 64; ++i)
            if ((w >> i) & 1u) m.set(i);
        return m;
    }
    std::uint32_t to_uint32(unsigned idx = 0) const {
        std::uint32_t r = 0;
        for (unsigned i = 0; i < 32 && idx * 32 + i < N; ++i)
            if (test(idx * 32 + i)) r |= 1u << i;
        return r;
    }
    std::uint64_t to_uint64(unsigned idx = 0) const {
        std::uint64_t r = 0;
        for (unsigned i = 0; i < 64 && idx * 64 + i < N; ++i)
            if (test(idx * 64 + i)) r |= std::uint64_t{1} << i;
        return r;
    }

    constexpr bool test(unsigned i) const { return (w_[i / 64] >> (i % 64)) & 1u; }
    constexpr bool operator[](unsigned i) const { return test(i); }
    constexpr void set(unsigned i) { w_[i / 64] |= std::uint64_t{1} << (i % 64); }
    constexpr void clear(unsigned i) { w_[i / 64] &= ~(std::uint64_t{1} << (i % 64)); }
    constexpr void set(unsigned i, bool v) { v ? set(i) : clear(i); }

    unsigned count() const {
        unsigned c = 0;
        for (unsigned i = 0; i < N; ++i) c += test(i) ? 1u : 0u;
        return c;
    }
    unsigned clz() const {
        unsigned c = 0;
        for (unsigned i = N; i-- > 0 && !test(i);) ++c;
        return c;
    }
    bool empty() const { return count() == 0; }
    bool full() const { return count() == N; }

    friend mask operator&(const mask& a, const mask& b) {
        return a.combine(b, [](auto x, auto y) { return x & y; });
    }
    friend mask operator|(const mask& a, const mask& b) {
        return a.combine(b, [](auto x, auto y) { return x | y; });
    }
    friend mask operator^(const mask& a, const mask& b) {
        return a.combine(b, [](auto x, auto y) { return x ^ y; });
    }
    mask operator~() const {
        mask r;
        for (unsigned i = 0; i < N; ++i) r.set(i, !test(i));
        return r;
    }
    mask& operator&=(const mask& o) { return *this = *this & o; }
    mask& operator|=(const mask& o) { return *this = *this | o; }
    mask& operator^=(const mask& o) { return *this = *this ^ o; }
    friend bool operator==(const mask& a, const mask& b) {
        for (unsigned i = 0; i < N; ++i)
            if (a.test(i) != b.test(i)) return false;
        return true;
    }

private:
    template <typename F>
    mask combine(const mask& o, F f) const {
        mask r;
        for (unsigned i = 0; i < words; ++i) r.w_[i] = f(w_[i], o.w_[i]);
        return r;
    }
    std::uint64_t w_[words]{};
};

namespace detail {
template <typename T>
inline constexpr bool is_mask_v = false;
template <unsigned N>
inline constexpr bool is_mask_v<mask<N>> = true;
} // namespace detail

} // namespace aie

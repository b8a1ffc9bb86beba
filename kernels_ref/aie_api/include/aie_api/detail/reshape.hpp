#pragma once
// Reshaping: concat, filter_even/odd, interleave_zip/unzip, shuffle_up/down (+ _fill, _replicate,
// _rotate), reverse, transpose.
#include <cassert>

#include "ops_logic.hpp" // and ops.hpp

namespace aie {

// ---- concat ---------------------------------------------------------------------------------------
template <typename T, unsigned N, typename... Rest>
requires((std::is_same_v<Rest, vector<T, N>> &&
          ...)) inline vector<T, N*(1 + sizeof...(Rest))> concat(const vector<T, N>& first, const Rest&... rest) {
    vector<T, N*(1 + sizeof...(Rest))> r;
    unsigned idx = 0;
    r.insert(idx++, first);
    ((r.insert(idx++, rest)), ...);
    return r;
}
template <typename Tag, unsigned N, typename... Rest>
requires((std::is_same_v<Rest, accum<Tag, N>> &&
          ...)) inline accum<Tag, N*(1 + sizeof...(Rest))> concat(const accum<Tag, N>& first, const Rest&... rest) {
    accum<Tag, N*(1 + sizeof...(Rest))> r;
    unsigned idx = 0;
    r.insert(idx++, first);
    ((r.insert(idx++, rest)), ...);
    return r;
}

namespace detail {
inline void check_chunk(unsigned chunk, unsigned elems, unsigned bits) {
    // Hardware shuffles need a power-of-two chunk of at least 8 bits; a violation is a kernel bug.
    assert(chunk > 0 && chunk <= elems && is_pow2(chunk) && chunk * bits >= 8 &&
           "npusim aie_api: chunk_size must be a power of two, at most the vector length, at least 8 bits");
    (void)chunk;
    (void)elems;
    (void)bits;
}
} // namespace detail

// ---- filter ----------------------------------------------------------------------------------------
// filter_even(v, c) = { v[0:c), v[2c:3c), ... };  filter_odd(v, c) = { v[c:2c), v[3c:4c), ... }
template <typename T, unsigned N>
inline vector<T, N / 2> filter_even(const vector<T, N>& v, unsigned chunk_size = 1) {
    detail::check_chunk(chunk_size, N, detail::type_bits<T>);
    vector<T, N / 2> r;
    unsigned o = 0;
    for (unsigned base = 0; base < N; base += 2 * chunk_size)
        for (unsigned j = 0; j < chunk_size; ++j) r[o++] = v[base + j];
    return r;
}
template <typename T, unsigned N>
inline vector<T, N / 2> filter_odd(const vector<T, N>& v, unsigned chunk_size = 1) {
    detail::check_chunk(chunk_size, N, detail::type_bits<T>);
    vector<T, N / 2> r;
    unsigned o = 0;
    for (unsigned base = chunk_size; base < N; base += 2 * chunk_size)
        for (unsigned j = 0; j < chunk_size; ++j) r[o++] = v[base + j];
    return r;
}

// ---- interleave ----------------------------------------------------------------------------------------
// zip: the sequence v[0:c), w[0:c), v[c:2c), w[c:2c), ... split into a low and a high vector.
template <typename T, unsigned N>
inline std::pair<vector<T, N>, vector<T, N>> interleave_zip(const vector<T, N>& v, const vector<T, N>& w,
                                                            unsigned chunk_size) {
    detail::check_chunk(chunk_size, N, detail::type_bits<T>);
    T seq[2 * N];
    unsigned o = 0;
    for (unsigned base = 0; base < N; base += chunk_size) {
        for (unsigned j = 0; j < chunk_size; ++j) seq[o++] = v[base + j];
        for (unsigned j = 0; j < chunk_size; ++j) seq[o++] = w[base + j];
    }
    std::pair<vector<T, N>, vector<T, N>> r;
    for (unsigned i = 0; i < N; ++i) {
        r.first[i] = seq[i];
        r.second[i] = seq[N + i];
    }
    return r;
}
// unzip: the inverse; of the sequence v then w, the even chunks go to first, the odd ones to second.
template <typename T, unsigned N>
inline std::pair<vector<T, N>, vector<T, N>> interleave_unzip(const vector<T, N>& v, const vector<T, N>& w,
                                                              unsigned chunk_size) {
    detail::check_chunk(chunk_size, N, detail::type_bits<T>);
    const vector<T, 2 * N> seq = concat(v, w);
    return {filter_even(seq, chunk_size), filter_odd(seq, chunk_size)};
}

// ---- shuffles ---------------------------------------------------------------------------------------------
// shuffle_up(v, n): out[i + n] = v[i]; the n new low elements are zero (undefined on hardware).
template <typename T, unsigned N>
inline vector<T, N> shuffle_up(const vector<T, N>& v, unsigned n) {
    assert(n <= N && "npusim aie_api: shuffle distance larger than the vector");
    vector<T, N> r;
    for (unsigned i = n; i < N; ++i) r[i] = v[i - n];
    return r;
}
// shuffle_up_fill(v, fill, n): as shuffle_up, the low n elements are the top n of fill.
template <typename T, unsigned N>
inline vector<T, N> shuffle_up_fill(const vector<T, N>& v, const vector<T, N>& fill, unsigned n) {
    assert(n <= N && "npusim aie_api: shuffle distance larger than the vector");
    vector<T, N> r;
    for (unsigned i = 0; i < n; ++i) r[i] = fill[N - n + i];
    for (unsigned i = n; i < N; ++i) r[i] = v[i - n];
    return r;
}
// shuffle_up_replicate(v, n): as shuffle_up, the low n elements copy v[0].
template <typename T, unsigned N>
inline vector<T, N> shuffle_up_replicate(const vector<T, N>& v, unsigned n) {
    assert(n <= N && "npusim aie_api: shuffle distance larger than the vector");
    vector<T, N> r;
    for (unsigned i = 0; i < n && i < N; ++i) r[i] = v[0];
    for (unsigned i = n; i < N; ++i) r[i] = v[i - n];
    return r;
}
// shuffle_up_rotate(v, n): out[i] = v[(i - n) mod N].
template <typename T, unsigned N>
inline vector<T, N> shuffle_up_rotate(const vector<T, N>& v, unsigned n) {
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i) r[i] = v[(i + N - (n % N)) % N];
    return r;
}
// shuffle_down(v, n): out[i] = v[i + n]; the n new high elements are zero (undefined on hardware).
template <typename T, unsigned N>
inline vector<T, N> shuffle_down(const vector<T, N>& v, unsigned n) {
    assert(n <= N && "npusim aie_api: shuffle distance larger than the vector");
    vector<T, N> r;
    for (unsigned i = 0; i + n < N; ++i) r[i] = v[i + n];
    return r;
}
// shuffle_down_fill(v, fill, n): as shuffle_down, the high n elements are the low n of fill.
template <typename T, unsigned N>
inline vector<T, N> shuffle_down_fill(const vector<T, N>& v, const vector<T, N>& fill, unsigned n) {
    assert(n <= N && "npusim aie_api: shuffle distance larger than the vector");
    vector<T, N> r;
    for (unsigned i = 0; i + n < N; ++i) r[i] = v[i + n];
    for (unsigned i = 0; i < n; ++i) r[N - n + i] = fill[i];
    return r;
}
// shuffle_down_replicate(v, n): as shuffle_down, the high n elements copy v[N - 1].
template <typename T, unsigned N>
inline vector<T, N> shuffle_down_replicate(const vector<T, N>& v, unsigned n) {
    assert(n <= N && "npusim aie_api: shuffle distance larger than the vector");
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i) r[i] = i + n < N ? v[i + n] : v[N - 1];
    return r;
}
// shuffle_down_rotate(v, n): out[i] = v[(i + n) mod N].
template <typename T, unsigned N>
inline vector<T, N> shuffle_down_rotate(const vector<T, N>& v, unsigned n) {
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i) r[i] = v[(i + n) % N];
    return r;
}

template <typename T, unsigned N>
inline vector<T, N> reverse(const vector<T, N>& v) {
    vector<T, N> r;
    for (unsigned i = 0; i < N; ++i) r[i] = v[N - 1 - i];
    return r;
}

// transpose(v, rows, cols): v is a row-major rows x cols matrix; the result is its transpose
// (row-major cols x rows).
template <typename T, unsigned N>
inline vector<T, N> transpose(const vector<T, N>& v, unsigned rows, unsigned cols) {
    assert(rows > 0 && cols > 0 && rows * cols == N && "npusim aie_api: transpose needs rows * cols == vector size");
    vector<T, N> r;
    for (unsigned i = 0; i < rows; ++i)
        for (unsigned j = 0; j < cols; ++j) r[j * rows + i] = v[i * cols + j];
    return r;
}

namespace detail {
// detail::transpose<T, N>::run(v, rows, cols): the implementation struct behind aie::transpose that
// kernels call directly (mlir-aie 3ca0193: programming_examples/ml/block_datatypes/bfp_conversion/
// kernel.cc l.56 transposes an 8x8 bf16 block before its bfp16 conversion); the same permutation as
// aie::transpose (AIE-API's scalar implementation walks the output in order: out[c * rows + r] =
// v[r * cols + c]).
template <typename T, unsigned N>
struct transpose {
    static vector<T, N> run(const vector<T, N>& v, unsigned rows, unsigned cols) {
        return aie::transpose(v, rows, cols);
    }
};
} // namespace detail

} // namespace aie

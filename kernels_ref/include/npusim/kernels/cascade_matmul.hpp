#pragma once
// cascade_matmul: the three scalar kernels of the cascade matrix multiply (E8,
// basic/matrix_multiplication/cascade; mlir-aie aie_kernels/aie2/cascade_mm.cc): each core
// computes, for every element (row, col) of its m x n block in row-major order, the partial sum of
// A (m x k, row-major) times B (k x n, row-major) over its own k, and
//   put_only: puts it on its cascade output (one 512-bit word, the sum in lane 0, int32);
//   put_get:  gets a word from its cascade input, adds lane 0 and puts the sum;
//   get_only: gets a word, adds lane 0 and adds the total to c[row, col].
// Sums are accumulated in the output type; the word carries (int32) of the sum, as the kernel's
// upd_elem(v16int32, 0, (int)running_sum) does. Words move through the callbacks: the simulator
// passes npusim's cascade_put / cascade_get.
//
// Cost: [est] a scalar loop, one multiply-accumulate per cycle on the scalar unit (the kernel is not
// vectorized), m * k * n cycles per call; its m * n cascade words overlap the loop.
#include <cstdint>
#include <cstring>
#include <npusim/kernels/kernel_common.hpp>

namespace npusim::kernels {

using CascadePut = void (*)(const void* word64);
using CascadeGet = void (*)(void* word64);

namespace detail {
// Sums wrap in the output type as the core's registers do: computed in 64 bits, then truncated
// (a modular conversion in C++20), so no signed overflow on the host.
template <typename TIn, typename TOut>
TOut cascade_partial(const TIn* a, const TIn* b, int k, int n, int row, int col) {
    std::int64_t s = 0;
    for (int i = 0; i < k; ++i)
        s += static_cast<std::int64_t>(a[row * k + i]) * static_cast<std::int64_t>(b[i * n + col]);
    return static_cast<TOut>(s);
}
template <typename TOut>
TOut wrap_add(TOut x, std::int64_t y) {
    return static_cast<TOut>(static_cast<std::int64_t>(x) + y);
}
inline void put_lane0(std::int32_t v, CascadePut put) {
    std::int32_t w[16] = {};
    w[0] = v;
    put(w);
}
inline std::int32_t get_lane0(CascadeGet get) {
    std::int32_t w[16];
    get(w);
    return w[0];
}
} // namespace detail

template <typename TIn, typename TOut>
void cascade_matmul_put_only(const TIn* a, const TIn* b, int m, int k, int n, CascadePut put) {
    for (int row = 0; row < m; ++row)
        for (int col = 0; col < n; ++col)
            detail::put_lane0(static_cast<std::int32_t>(detail::cascade_partial<TIn, TOut>(a, b, k, n, row, col)), put);
}

template <typename TIn, typename TOut>
void cascade_matmul_put_get(const TIn* a, const TIn* b, int m, int k, int n, CascadeGet get, CascadePut put) {
    for (int row = 0; row < m; ++row)
        for (int col = 0; col < n; ++col) {
            const TOut s =
                detail::wrap_add(detail::cascade_partial<TIn, TOut>(a, b, k, n, row, col), detail::get_lane0(get));
            detail::put_lane0(static_cast<std::int32_t>(s), put);
        }
}

template <typename TIn, typename TOut>
void cascade_matmul_get_only(const TIn* a, const TIn* b, TOut* c, int m, int k, int n, CascadeGet get) {
    for (int row = 0; row < m; ++row)
        for (int col = 0; col < n; ++col) {
            const TOut s =
                detail::wrap_add(detail::cascade_partial<TIn, TOut>(a, b, k, n, row, col), detail::get_lane0(get));
            c[row * n + col] = detail::wrap_add(c[row * n + col], s);
        }
}

/// [est] m * k * n: one scalar multiply-accumulate per cycle.
inline std::uint64_t cascade_matmul_cycles(int m, int k, int n) {
    return static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(k) * static_cast<std::uint64_t>(n);
}

} // namespace npusim::kernels

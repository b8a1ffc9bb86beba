// cascade_mm (basic/matrix_multiplication/cascade, E8): the three cascade kernels of the cascade
// matrix multiply, written against the AIE API and its cascade intrinsics. As mlir-aie's
// aie_kernels/aie2/cascade_mm.cc they are scalar loops over the m x n block (row-major A and B),
// one 512-bit cascade word per output element with the partial sum in lane 0 (int32): put_only
// puts its own partial sums, put_get adds the word it gets before putting, get_only adds the word
// and its own partial sum into C.
#include <aie_api/aie.hpp>

#include "npusim/aie_kernels.hpp"

namespace npusim::aie_kernels {

namespace {

// Sums wrap in the output type as the core's registers do: 64-bit host arithmetic, then truncated
// (a modular conversion in C++20).
template <typename TIn, typename TOut>
TOut partial_sum(const TIn* a, const TIn* b, int k, int n, int row, int col) {
    std::int64_t s = 0;
    for (int i = 0; i < k; ++i)
        s += static_cast<std::int64_t>(a[row * k + i]) * static_cast<std::int64_t>(b[i * n + col]);
    return static_cast<TOut>(s);
}

template <typename TOut>
TOut wrap_add(TOut x, std::int64_t y) {
    return static_cast<TOut>(static_cast<std::int64_t>(x) + y);
}

template <typename TIn, typename TOut>
void put_only(const TIn* a, const TIn* b, int m, int k, int n) {
    event0();
    for (int row = 0; row < m; ++row)
        for (int col = 0; col < n; ++col) {
            v16int32 w = broadcast_zero_to_v16int32();
            w = upd_elem(w, 0, static_cast<int32>(partial_sum<TIn, TOut>(a, b, k, n, row, col)));
            put_mcd(w);
        }
    event1();
}

template <typename TIn, typename TOut>
void put_get(const TIn* a, const TIn* b, int m, int k, int n) {
    event0();
    for (int row = 0; row < m; ++row)
        for (int col = 0; col < n; ++col) {
            v16int32 w = get_scd_v16int32();
            const TOut s = wrap_add(partial_sum<TIn, TOut>(a, b, k, n, row, col), ext_elem(w, 0));
            w = upd_elem(w, 0, static_cast<int32>(s));
            put_mcd(w);
        }
    event1();
}

template <typename TIn, typename TOut>
void get_only(const TIn* a, const TIn* b, TOut* c, int m, int k, int n) {
    event0();
    for (int row = 0; row < m; ++row)
        for (int col = 0; col < n; ++col) {
            const v16int32 w = get_scd_v16int32();
            const TOut s = wrap_add(partial_sum<TIn, TOut>(a, b, k, n, row, col), ext_elem(w, 0));
            c[row * n + col] = wrap_add(c[row * n + col], s);
        }
    event1();
}

} // namespace

void cascade_mm_put_only_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t m, std::int32_t k,
                                 std::int32_t n) {
    put_only<std::int16_t, std::int32_t>(a, b, m, k, n);
}
void cascade_mm_put_get_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t m, std::int32_t k,
                                std::int32_t n) {
    put_get<std::int16_t, std::int32_t>(a, b, m, k, n);
}
void cascade_mm_get_only_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t* c, std::int32_t m,
                                 std::int32_t k, std::int32_t n) {
    get_only<std::int16_t, std::int32_t>(a, b, c, m, k, n);
}
void cascade_mm_put_only_i16_i16(const std::int16_t* a, const std::int16_t* b, std::int32_t m, std::int32_t k,
                                 std::int32_t n) {
    put_only<std::int16_t, std::int16_t>(a, b, m, k, n);
}
void cascade_mm_put_get_i16_i16(const std::int16_t* a, const std::int16_t* b, std::int32_t m, std::int32_t k,
                                std::int32_t n) {
    put_get<std::int16_t, std::int16_t>(a, b, m, k, n);
}
void cascade_mm_get_only_i16_i16(const std::int16_t* a, const std::int16_t* b, std::int16_t* c, std::int32_t m,
                                 std::int32_t k, std::int32_t n) {
    get_only<std::int16_t, std::int16_t>(a, b, c, m, k, n);
}

} // namespace npusim::aie_kernels

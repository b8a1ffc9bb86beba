#pragma once
// matmul: C += A * B on one tile, in the blocked layout the IRON matrix-multiplication designs
// (E6 single_core, E7 whole_array) produce with their mem-tile dims_to_stream transforms, after the
// aie::mmul kernels in aie_kernels/aie2/mm.cc (matmul_vectorized_2x2_mmul).
//
// Layout ("blocked", (r, s, t) = the mmul shape, aie2 i16 (4,4,4), aie2p (4,4,8)):
//   A (m x k): (m/r) x (k/s) blocks of r x s, each block row-major, blocks row-major;
//              element (i, j) at ((i/r)*(k/s) + j/s)*(r*s) + (i%r)*s + (j%s).
//   B (k x n): (k/s) x (n/t) blocks of s x t, same scheme.
//   C (m x n): (m/r) x (n/t) blocks of r x t, same scheme.
// That is exactly the stream order of a_dims = [(m/r, r*k), (k/s, s), (r, k), (s, 1)] applied to a
// row-major A (and likewise b_dims for B); c_dims = [(m/r, r*n), (r, t), (n/t, r*t), (t, 1)] applied
// to a blocked C reads it back row-major. to_blocked / from_blocked below do these conversions.
//
// Arithmetic:
//   matmul_i16_i32: each C element is loaded into a 32-bit accumulator, the int16 x int16 products
//     are added, and the accumulator is stored back: C = (C + sum_k a*b) mod 2^32 (wraparound).
//   matmul_i16_i16: the int16 C element is sign-extended into the 32-bit accumulator, products are
//     added mod 2^32, and the accumulator is converted back to int16 with to_vector<int16>() at
//     shift 0. Choice: as for vector_scalar_mul, mm.cc does not enable saturation, so the default
//     (no saturation) SRS keeps the low 16 bits: C = (C + sum_k a*b) mod 2^16, which equals numpy's
//     (C + A@B).astype(int16). A design that enables saturation would differ on overflow only.
//
// Preconditions (violations throw std::invalid_argument):
//   - A, B, C non-null; m, k, n, r, s, t > 0,
//   - m % r == 0, k % s == 0, n % t == 0,
//   - (m / r) and (n / t) even: the AIE kernel computes 2 x 2 mmul blocks of C per inner loop
//     (rows z, z+1 and columns j, j+1), so an odd block count would read/write past the tiles.
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::kernels {

// ---- cost constants (NPU1) --------------------------------------------------------------------
// [HW] row 8: one single_core matmul call, int16 -> int32, m = k = n = 64 (262,144 MACs), traced
// event0 -> event1: ~2,535 cycles. The estimate scales that measurement linearly in m*k*n
// (after the fixed call overhead) and uses it for the int16 -> int16 kernel as well [est].
//
// CAUTION, inconsistency in the source: the guide calls 2,048 cycles "ideal" for 262,144 MACs at
// 64 MAC/cycle, but 262,144 / 64 = 4,096. 2,535 cycles means ~103 MAC/cycle, above the documented
// int16 x int16 peak of 64 MAC/cycle ([doc] AM020, hardware-figures.md section 3). The 2,048 / 2,535
// = 81% ratio would fit a 128 MAC/cycle data type (bf16 4x8x4). We calibrate to the measured 2,535
// as the row states; kMatmulI16PeakMacsPerCycle is kept so the model can be switched to
// "peak x efficiency" (64 MAC/cycle x 0.81 -> ~5,060 cycles at 64^3) if the row is re-attributed.
inline constexpr std::uint64_t kMatmulI16CalibMacs = 64ull * 64ull * 64ull; // 262,144
inline constexpr std::uint64_t kMatmulI16CalibCycles = 2535; // [HW] row 8
inline constexpr std::uint64_t kMatmulOverheadCycles = kKernelCallOverheadCycles; // 8, [HW] row 4 - [TH] row 7
inline constexpr std::uint64_t kMatmulI16PeakMacsPerCycle = 64; // [doc] AM020 (not used by the estimate)

void matmul_i16_i32(const std::int16_t* A, const std::int16_t* B, std::int32_t* C, int m, int k, int n, int r, int s,
                    int t);
void matmul_i16_i16(const std::int16_t* A, const std::int16_t* B, std::int16_t* C, int m, int k, int n, int r, int s,
                    int t);

/// kMatmulOverheadCycles + ceil(m*k*n * (2535 - 8) / 262144); 2,535 at m = k = n = 64.
std::uint64_t matmul_i16_i32_cycles(int m, int k, int n);
/// Same model as matmul_i16_i32_cycles [est].
std::uint64_t matmul_i16_i16_cycles(int m, int k, int n);

namespace detail {
inline void check_block_shape(const char* name, int rows, int cols, int block_rows, int block_cols) {
    require_positive(rows, name, "rows");
    require_positive(cols, name, "cols");
    require_positive(block_rows, name, "block_rows");
    require_positive(block_cols, name, "block_cols");
    require_multiple(rows, block_rows, name, "rows", "the matrix must be a whole number of blocks");
    require_multiple(cols, block_cols, name, "cols", "the matrix must be a whole number of blocks");
}
} // namespace detail

/// Row-major rows x cols -> blocked layout with block_rows x block_cols blocks (see top of file).
/// src and dst must not overlap.
template <typename T>
void to_blocked(const T* src, T* dst, int rows, int cols, int block_rows, int block_cols) {
    constexpr const char* name = "to_blocked";
    detail::check_block_shape(name, rows, cols, block_rows, block_cols);
    detail::require_non_null(src, name, "src");
    detail::require_non_null(dst, name, "dst");
    const std::int64_t blocks_per_row = cols / block_cols;
    const std::int64_t block_size = static_cast<std::int64_t>(block_rows) * block_cols;
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j)
            dst[((i / block_rows) * blocks_per_row + j / block_cols) * block_size + (i % block_rows) * block_cols +
                j % block_cols] = src[i * cols + j];
}

/// Blocked layout -> row-major rows x cols (inverse of to_blocked). src and dst must not overlap.
template <typename T>
void from_blocked(const T* src, T* dst, int rows, int cols, int block_rows, int block_cols) {
    constexpr const char* name = "from_blocked";
    detail::check_block_shape(name, rows, cols, block_rows, block_cols);
    detail::require_non_null(src, name, "src");
    detail::require_non_null(dst, name, "dst");
    const std::int64_t blocks_per_row = cols / block_cols;
    const std::int64_t block_size = static_cast<std::int64_t>(block_rows) * block_cols;
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j)
            dst[i * cols + j] = src[((i / block_rows) * blocks_per_row + j / block_cols) * block_size +
                                    (i % block_rows) * block_cols + j % block_cols];
}

/// Convenience overloads on std::vector; src.size() must be rows * cols.
template <typename T>
std::vector<T> to_blocked(const std::vector<T>& src, int rows, int cols, int block_rows, int block_cols) {
    detail::check_block_shape("to_blocked", rows, cols, block_rows, block_cols);
    if (src.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols))
        detail::fail("to_blocked", "src has " + std::to_string(src.size()) + " elements, expected rows * cols = " +
                                       std::to_string(static_cast<std::int64_t>(rows) * cols));
    std::vector<T> dst(src.size());
    to_blocked(src.data(), dst.data(), rows, cols, block_rows, block_cols);
    return dst;
}

template <typename T>
std::vector<T> from_blocked(const std::vector<T>& src, int rows, int cols, int block_rows, int block_cols) {
    detail::check_block_shape("from_blocked", rows, cols, block_rows, block_cols);
    if (src.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols))
        detail::fail("from_blocked", "src has " + std::to_string(src.size()) + " elements, expected rows * cols = " +
                                         std::to_string(static_cast<std::int64_t>(rows) * cols));
    std::vector<T> dst(src.size());
    from_blocked(src.data(), dst.data(), rows, cols, block_rows, block_cols);
    return dst;
}

} // namespace npusim::kernels

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
//   matmul_i8_{i8,i16,i32}: the same with int8 inputs (IRON's mm.cc combos i8->i8/i16/i32, mmul
//     4x8x8 on AIE2, 8x8x8 on AIE2P): int8 x int8 products added into a 32-bit accumulator loaded
//     from C (sign-extended), stored back keeping the low 8 / 16 / 32 bits (to_vector<T_out>() at
//     shift 0, no saturation: mm.cc sets no saturation mode), = numpy (C + A@B).astype(T_out).
//   matmul_bf16_f32: C (float) is loaded into the fp32 accumulator, the bf16 x bf16 products (exact
//     in fp32) are added in fp32, and the accumulator is stored: C = fl32(C + sum_k a*b) summed in
//     k order (the hardware's order within an mmul differs; results agree within rounding).
//   matmul_bf16_bf16: C (bf16) is widened to fp32, the products are added in fp32 as above, and the
//     accumulator is rounded back to bf16 to nearest, ties to even (npusim::bfloat16, the AIE
//     float-to-bf16 conversion; aie2p/mm.cc selects conv_even explicitly under bfp16 emulation) at
//     the end of every call, so a design's K/k calls round K/k times.
//
// Preconditions (violations throw std::invalid_argument):
//   - A, B, C non-null; m, k, n, r, s, t > 0,
//   - m % r == 0, k % s == 0, n % t == 0,
//   - (m / r) and (n / t) even: the AIE kernel computes 2 x 2 mmul blocks of C per inner loop
//     (rows z, z+1 and columns j, j+1), so an odd block count would read/write past the tiles.
#include <npusim/kernels/bfloat16.hpp>
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::kernels {

// ---- cost model --------------------------------------------------------------------------------
// body cycles = ceil(m*k*n / (peak x kMatmulEfficiency)), peak = the generation's MACs per cycle for
// the input type (model::matmul_mac_peak: 64 for i16 on AIE2, 128 on AIE2P), so no call is ever
// faster than the matrix unit; the simulator adds the call overhead (8 cycles on AIE2).
//
// kMatmulEfficiency: [HW] row 8, re-attributed from mlir-aie's history. The programming guide
// (section-4c) reports ~2,535 cycles event0 -> event1 for one 64 x 64 x 64 single_core matmul call
// (262,144 MACs), calls it int16 at 64 MAC/cycle and its ideal "2048 cycles = 262,144 / 64". That
// arithmetic is wrong (262,144 / 64 = 4,096) and 2,535 cycles would be 103 MAC/cycle, above the
// int16 peak. The design the guide measured is the one at the time of that text (commits
// dba94a48f / 940f746e9, April 2024): single_core/aie2.py at 488413e4b calls matmul_bf16_bf16 with
// m = k = n = 64 — bf16, whose 4x8x4 mmul does 128 MAC/cycle, for which 262,144 / 128 = 2,048 is
// the ideal. So the kernel body reaches 2,048 / (2,535 - 8) = 81.0% of peak; the same efficiency
// is assumed [est] for the other types and for AIE2P (no per-type measurement is published).
inline constexpr double kMatmulIdealCycles = 2048.0; // 262,144 MACs / 128 MAC/cycle (bf16, AIE2)
inline constexpr double kMatmulMeasuredCycles = 2535.0; // [HW] row 8, event0 -> event1
inline constexpr double kMatmulEfficiency =
    kMatmulIdealCycles / (kMatmulMeasuredCycles - static_cast<double>(kKernelCallOverheadCycles)); // 0.810

void matmul_i16_i32(const std::int16_t* A, const std::int16_t* B, std::int32_t* C, int m, int k, int n, int r, int s,
                    int t);
void matmul_i16_i16(const std::int16_t* A, const std::int16_t* B, std::int16_t* C, int m, int k, int n, int r, int s,
                    int t);

void matmul_i8_i8(const std::int8_t* A, const std::int8_t* B, std::int8_t* C, int m, int k, int n, int r, int s, int t);
void matmul_i8_i16(const std::int8_t* A, const std::int8_t* B, std::int16_t* C, int m, int k, int n, int r, int s,
                   int t);
void matmul_i8_i32(const std::int8_t* A, const std::int8_t* B, std::int32_t* C, int m, int k, int n, int r, int s,
                   int t);
void matmul_bf16_bf16(const bfloat16* A, const bfloat16* B, bfloat16* C, int m, int k, int n, int r, int s, int t);
void matmul_bf16_f32(const bfloat16* A, const bfloat16* B, float* C, int m, int k, int n, int r, int s, int t);

/// Body cycles of one m x k x n call on a matrix unit of `peak_macs_per_cycle`:
/// ceil(m*k*n / (peak x kMatmulEfficiency)); 2,527 for 64^3 at 128 (bf16 on AIE2), 2,535 with the
/// call overhead ([HW] row 8); 5,054 for i16 on AIE2 (64 MAC/cycle).
std::uint64_t matmul_cycles(int m, int k, int n, double peak_macs_per_cycle);

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

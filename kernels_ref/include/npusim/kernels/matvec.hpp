#pragma once
// matvec: c += A * b for an m x k int16 matrix A, an int16 vector b of k and an int32 vector c of m
// (IRON aie.iron.kernels.mv; mlir-aie aie_kernels/aie2/mv.cc at 3ca0193, the only combination it
// builds is i16 -> i32, mv.cc:139-141). Each row's sum is 32-bit and wraps (the scalar variant adds
// int16 products into an int32 running sum, mv.cc:24-34; the vector variant accumulates in acc32
// lanes and stores them unshifted, mv.cc:80-116).
//
// The two variants read A in different layouts:
//   row_major         A[row][col] at row * k + col (matvec_scalar);
//   word_transposed   A transposed at a granularity of 32-bit words, as mv.cc:44-53 describes:
//                     element (row, col) at (col / 2) * 2m + 2 * row + col % 2 (matvec_vectorized).
//
// Preconditions (std::invalid_argument): non-null pointers, m > 0, k > 0; word_transposed also
// m % 16 == 0 and k % 8 == 0 (mv.cc's static_asserts with r = 16, s = 8, mv.cc:39-42, 161).
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

enum class MatvecLayout { row_major, word_transposed };

void matvec_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t* c, std::int32_t m, std::int32_t k,
                    MatvecLayout layout);

/// Index of A's element (row, col) in `layout`.
std::int64_t matvec_index(std::int32_t row, std::int32_t col, std::int32_t m, std::int32_t k, MatvecLayout layout);

// [est] matvec_scalar: one scalar multiply-accumulate per cycle (as the scalar cascade matmul,
// cascade_matmul.hpp), m * k cycles.
std::uint64_t matvec_scalar_cycles(std::int32_t m, std::int32_t k);

// [est] matvec_vectorized: each step of its inner loop (16 rows x 8 columns, mv.cc:65-117) issues
// five 512-bit loads (four A vectors and the C vector) and one store on the core's two load units
// and one store unit, so 3 cycles; its 128 MACs take 2 cycles at AIE2's int16 rate of 64 MAC/cycle
// (model::matmul_mac_peak), hidden under the loads. (m / 16) * (k / 8) * 3 cycles, plus one cycle
// per outer step for the b load.
std::uint64_t matvec_vectorized_cycles(std::int32_t m, std::int32_t k);

} // namespace npusim::kernels

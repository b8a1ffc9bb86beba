#pragma once
// The integer matmul goldens' product (E6, E7, matmul_cascade; matmul::reference): C = A @ B with
// 16-bit (or narrower, widened) integer inputs, accumulated mod 2^32. Integer outputs are at most
// 32 bits and numpy's astype keeps the low bits, so these are exactly the bits the int64 sum gives.
//
// Three paths compute the same bits: a portable one (a row of C updated by each A element times a
// row of B) and, where the CPU has AVX2 (checked at run time), a register-blocked kernel: A's and
// B's values paired along K so that one vpmaddwd does 16 multiply-accumulates (a0*b0 + a1*b1 per
// 32-bit lane; its one overflow, 2 x (-32768)^2, wraps to the same low 32 bits), 4 rows x 16
// columns of C in registers across the whole K. With AVX512-VNNI the same kernel multiplies and
// accumulates in one vpdpwssd (non-saturating: it wraps alike).
#include <cstdint>

namespace npusim::examples {

enum class GemmPath {
    best, ///< VNNI, else AVX2, where the CPU has it; else portable
    portable,
    avx2, ///< only where gemm_mod32_has_avx2()
    vnni, ///< only where gemm_mod32_has_vnni()
};

/// Whether this CPU runs the AVX2 path (x86-64 with AVX2).
bool gemm_mod32_has_avx2();
/// Whether this CPU runs the VNNI path (AVX2, AVX512-VL and AVX512-VNNI).
bool gemm_mod32_has_vnni();

/// C (M x N, row-major) = A (M x K) @ B (K x N) mod 2^32, every element written.
void gemm_mod32(const std::int16_t* A, const std::int16_t* B, std::uint32_t* C, std::int64_t M, std::int64_t K,
                std::int64_t N, GemmPath path = GemmPath::best);
/// The same product's low 16 or 8 bits (numpy's astype to int16 or int8), written straight into
/// C: no M x N array of 32-bit sums in between.
void gemm_mod32(const std::int16_t* A, const std::int16_t* B, std::int16_t* C, std::int64_t M, std::int64_t K,
                std::int64_t N, GemmPath path = GemmPath::best);
void gemm_mod32(const std::int16_t* A, const std::int16_t* B, std::int8_t* C, std::int64_t M, std::int64_t K,
                std::int64_t N, GemmPath path = GemmPath::best);

} // namespace npusim::examples

#pragma once
// zero: set an m x n tile to 0 (the C tile of the matrix-multiplication designs E6/E7 is zeroed
// before the K reduction). After aie_kernels/aie2/zero.cc (zero_vectorized), which stores one
// 256-bit vector of zeros per iteration and statically requires m*n to be a multiple of two
// such vectors, i.e. m * n * sizeof(T) % 64 == 0.
//
// Preconditions (violations throw std::invalid_argument):
//   - m > 0, n > 0, c non-null,
//   - m * n a multiple of 64 (int8) / 32 (int16, bf16) / 16 (int32, float) elements, i.e. whole 64-byte pairs of stores.
#include <npusim/kernels/bfloat16.hpp>
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

// ---- cost constants (NPU1) --------------------------------------------------------------------
// One 256-bit store per cycle: [doc] AM020 (1 x 256-bit store unit).
inline constexpr std::uint64_t kZeroBytesPerCycle = kStoreBytesPerCycle; // 32 B/cycle
inline constexpr std::int32_t kZeroGranuleBytes = 64; // zero.cc static_assert: 2 x 256-bit stores

void zero_i32(std::int32_t* c, std::int32_t m, std::int32_t n);
void zero_i16(std::int16_t* c, std::int32_t m, std::int32_t n);
void zero_i8(std::int8_t* c, std::int32_t m, std::int32_t n);
void zero_f32(float* c, std::int32_t m, std::int32_t n);
/// bf16 zero: all bits 0 (+0.0), stored like zero_i16.
void zero_bf16(bfloat16* c, std::int32_t m, std::int32_t n);

/// ceil(m * n * elem_bytes / 32) (body only). elem_bytes in {1, 2, 4}.
std::uint64_t zero_cycles(std::int32_t m, std::int32_t n, int elem_bytes);

} // namespace npusim::kernels

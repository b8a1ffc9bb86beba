#pragma once
// passThroughLine: copy a line of n elements (IRON designs E1 passthrough_kernel and E11 memcpy).
//
// The AIE kernel (aie_kernels/generic/passThrough.cc, BIT_WIDTH 8/16/32) copies through 512-bit
// vector registers, one 64-byte block per loop iteration, in a loop the compiler is told runs at
// least 6 times. The reference copies exactly n elements but enforces the same preconditions, so a
// design that would overrun or misbehave on the NPU fails here with a clear message:
//   - n * sizeof(element) is a multiple of 64 bytes  (u8: n % 64, i16: n % 32, i32: n % 16),
//   - n * sizeof(element) >= 6 * 64 = 384 bytes       (minimum pipelined trip count),
//   - in and out are non-null.
// Violations throw std::invalid_argument. Overlapping in/out is copied as if by memmove (the AIE
// kernel declares them restrict; overlapping buffers are a design error there).
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

// ---- cost constants (NPU1) --------------------------------------------------------------------
// One 256-bit store per cycle is the bound of a copy loop: [doc] AM020 (1 x 256-bit store unit).
inline constexpr std::uint64_t kPassThroughBytesPerCycle = kStoreBytesPerCycle; // 32 B/cycle
// Kernel preconditions (passThrough.cc): 64-byte blocks, at least 6 loop iterations.
inline constexpr std::int32_t kPassThroughBlockBytes = 64;
inline constexpr std::int32_t kPassThroughMinBlocks = 6;

void passThroughLine_u8(const std::uint8_t* in, std::uint8_t* out, std::int32_t n);
void passThroughLine_i16(const std::int16_t* in, std::int16_t* out, std::int32_t n);
void passThroughLine_i32(const std::int32_t* in, std::int32_t* out, std::int32_t n);

/// Estimated NPU1 cycles of one passThroughLine call on n elements of elem_bytes (1, 2 or 4):
/// ceil(n * elem_bytes / 32) (the body; the simulator adds the call overhead).
/// Throws std::invalid_argument for n < 0 or an unsupported element size.
std::uint64_t passThroughLine_cycles(std::int32_t n, int elem_bytes);

} // namespace npusim::kernels

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
//   matmul_bf16_f32: C (float) is loaded into the fp32 accumulator; per K block of s (one aie::mmul
//     mac) the s bf16 x bf16 products (exact in fp32) are summed from zero in k order in fp32 and
//     that block sum is added to the accumulator, which is stored as it is. This is the host layer's
//     mmul order (kernels_ref/aie_api/README.md "Float"), so npusim's AIE-API build of mm.cc gives
//     the same bits. AMD does not document the order inside one mac (the AIE-API mmul and the
//     AIE-ML intrinsics mac_4x8_8x4 define only C + A x B in accfloat), so the hardware may round
//     differently in the last bit [est]. With s = 1 (the scalar kernels' blocks) this is k order.
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
// One call is the software-pipelined loop nest of mlir-aie's aie_kernels/<gen>/mm.cc (3ca0193):
// an outer loop over blocks of C (matmul_vectorized_2x2_mmul / _4x2_mmul / _4x4: `row_blocks` x
// `col_blocks` mmul blocks of r x t per outer iteration, the z and j loops, aie2/mm.cc l.95-230)
// and, inside it, the inner loop over k / s (l.154-179) whose body issues row_blocks x col_blocks
// mmul MACs. So
//   body = outer x (k/s x mmuls per inner iteration x cycles per mmul + fill + C stores + control)
//   outer = (m / (r x row_blocks)) x (n / (t x col_blocks)), cycles per mmul = r*s*t / peak (>= 1:
//   one mmul per cycle when the shape is the unit's native one),
//   fill  = the load-to-MAC latency the inner loop's prologue waits before its first MAC issues and
//           the last MAC's latency before its accumulator can be stored: VLD 7 + VMAC 6 cycles
//           ([HW] Hello-XDNA isa.rst, microbenchmarked on AIE2 and AIE2P alike),
//   C stores = row_blocks x col_blocks x r*t*out_bytes / 32 B per cycle: one 256-bit store unit
//           ([doc] programming guide section-4c l.197-205; [est] the same on AIE2P),
//   control = 1 cycle per outer iteration ([est] the flattened z/j loop's branch and pointer step).
// The C loads at the start of an outer iteration are not counted ([est]: the inner loop uses
// row_blocks + col_blocks of its two 256-bit load units' slots per row_blocks x col_blocks cycles,
// so the scheduler has room for them). Checked against [HW] row 8 (bf16 64^3 on AIE2, 4x4
// expansion, 2,535 cycles event0 -> event1): 16 x (8 x 16 + 13 + 16 + 1) = 2,528 + the 8-cycle call
// overhead = 2,536. A body never beats the matrix unit: steady state is exactly MACs / peak, and
// fill, stores and control only add. The simulator adds the call overhead (8 cycles on AIE2).
struct MatmulLoop {
    int r = 0, s = 0, t = 0; ///< the mmul shape (A r x s, B s x t, C r x t)
    int row_blocks = 2, col_blocks = 2; ///< mmul blocks of C per inner iteration (2x2, 4x2, 4x4)
    double peak_macs_per_cycle = 0; ///< the matrix unit for the input type (model::matmul_mac_peak)
    int out_bytes = 4; ///< bytes of one C element
};
inline constexpr int kMatmulPipelineFillCycles = 13; ///< [HW] Hello-XDNA isa.rst: VLD 7 + VMAC 6
inline constexpr int kMatmulStoreBytesPerCycle = 32; ///< [doc] section-4c: one 256-bit store unit
inline constexpr int kMatmulLoopControlCycles = 1; ///< [est] per outer iteration

/// The inputs mm.cc builds kernels for.
enum class MmInput { i8, i16, bf16 };
/// The loop of mm.cc's kernel for an input type on AIE2 (`aie2p` false: aie2/mm.cc, i8 4x8x8 in
/// matmul_vectorized_4x2_mmul, i16 4x4x4 in _2x2_mmul, bf16 4x8x4 in _4x4, l.796-907) or AIE2P
/// (aie2p/mm.cc: every type in matmul_vectorized_2x2_mmul, i8 8x8x8, i16 4x4x8, bf16 4x8x8,
/// l.260-412), with the matrix unit's peak and the output element size.
MatmulLoop mm_cc_loop(bool aie2p, MmInput in, int out_bytes, double peak_macs_per_cycle);

/// Body cycles of one m x k x n call with `loop` (see above); the simulator adds the call overhead.
std::uint64_t matmul_cycles(int m, int k, int n, const MatmulLoop& loop);

/// The parts of matmul_cycles: `steady` = MACs / peak (the matrix unit busy), `fill_drain` = the
/// pipeline fill, C stores and loop control of every outer iteration.
struct MatmulCycleParts {
    std::uint64_t steady = 0, fill_drain = 0;
};
MatmulCycleParts matmul_cycle_parts(int m, int k, int n, const MatmulLoop& loop);

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

/// mm.cc's bf16 matmuls on AIE2P built with -DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16 (IRON's
/// mm(emulate_bf16_mmul_with_bfp16=True), linalg.py l.181-185 at 3ca0193): 8 x 8 x 8 blocks in the layout
/// above; the kernel selects conv_even for its run (aie2p/mm.cc l.89-101). Each mac quantizes every
/// row of the A block and every column of the B block (8 values along K) to one bfp16ebs8 block:
/// shared exponent E = the largest exponent field, each signed significand (implicit one included,
/// none for a denormal, whose field 0 is used as it is) shifted right by 17 + E - e and rounded to
/// nearest even, saturated to int8 [est: saturation]; the 8 integer products sum exactly and
/// 2^(Ea + Eb - 266) times that sum is added to the fp32 lane (one rounding, to nearest even). C is
/// loaded into the lane first; bf16 C is rounded back to nearest even. This is AIE-API's emulation as
/// the host layer has it (kernels_ref/aie_api/README.md, mlir-aie's lowering of the same flag:
/// lib/Conversion/AIEVecToLLVM/AIEVecToLLVM.cpp l.4693-4718); m and n multiples of 16, k of 8.
void matmul_bf16_bf16_via_bfp16(const bfloat16* A, const bfloat16* B, bfloat16* C, int m, int k, int n);
void matmul_bf16_f32_via_bfp16(const bfloat16* A, const bfloat16* B, float* C, int m, int k, int n);

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

#pragma once
// Vision line kernels (reference C++): the arithmetic of mlir-aie's aie_kernels/aie2 vision kernels
// (rgba2gray.cc, gray2rgba.cc, threshold.cc, filter2d.cc, addWeighted.cc at 3ca0193), the vectorized
// code of the Line entry points IRON's aie.iron.kernels.rgba2gray / gray2rgba / threshold / filter2d /
// add_weighted bind, one image line per call, written as plain scalar loops. npusim's AIE-API sources
// of the same kernels are kernels_ref/aie/{color,threshold,filter2d,addWeighted}.cc; both compute the
// same bits, and tools/kernel_check/KernelDriversVision.cpp checks the upstream builds against these.
//
//   rgba2gray:   gray = (9798 R + 19235 G + 3736 B + 2^14) >> 15 (BT.601 weights in Q15, the 2^14
//                added as a fourth weight, SRS by 15 at floor), alpha ignored
//   gray2rgba:   RGBA = (g, g, g, 255)
//   threshold:   u8 compare with strict > (the kernel's aie::lt(thresh, x)), five OpenCV types
//   filter2d:    3x3 over three lines with the int16 Q12 kernel's high bytes as int8 Q4 taps (tap >> 8,
//                filter2d.cc:100), sat_u8(sum >> 4) (SRS by 12 - 8 at floor, saturated); the left and
//                right border pixels replicated. The first pixel of the third and later 32-pixel
//                blocks takes as left neighbour the pixel two to its left: the middle loop refills its
//                carried register after shifting it (:144-145). The source's scalar variant
//                (filter2d_3lines_aie_scalar: full Q12 taps, half up) is not what the entry runs.
//   addWeighted: sat_u8((gamma + a * alpha + b * beta) >> 14), alpha and beta in Q14: gamma goes into
//                the accumulator unshifted (addWeighted.cc:55), one SRS by 14 at floor (the source's
//                scalar variant adds gamma after a half-up shift; the entry does not run it)
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

/// threshold types (OpenCV's numbering, as threshold.cc takes them)
enum VisionThreshold : std::uint8_t {
    kThreshBinary = 0,
    kThreshBinaryInv = 1,
    kThreshTrunc = 2,
    kThreshToZero = 3,
    kThreshToZeroInv = 4,
};

/// filter2dLine's lane count: widths must be a multiple of it (filter2d.cc processes 32 pixels a step).
inline constexpr std::int32_t kFilter2dLanes = 32;
/// filter2dLine's smallest width: its first and last steps are two (filter2d.cc:109-192).
inline constexpr std::int32_t kFilter2dMinWidth = 64;

void rgba2gray_line(const std::uint8_t* rgba, std::uint8_t* gray, std::int32_t width);
void gray2rgba_line(const std::uint8_t* gray, std::uint8_t* rgba, std::int32_t width);
/// type > 4 behaves as TRUNC (threshold.cc's default branch).
void threshold_line(const std::uint8_t* in, std::uint8_t* out, std::int32_t width, std::uint8_t threshold,
                    std::uint8_t maxval, std::uint8_t type);
/// width % 32 == 0, width >= 64 (std::invalid_argument otherwise).
void filter2d_line(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2, std::uint8_t* out,
                   std::int32_t width, const std::int16_t* kernel);
void add_weighted_line(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::int32_t n,
                       std::int16_t alpha, std::int16_t beta, std::uint8_t gamma);

// ---- vision/color_detect -------------------------------------------------------------------------
/// rgba2hueLine: the hue of each RGBA pixel on 0..255 (half of OpenCV's 0..510 scale), the integer
/// formula of rgba2hue.cc's scalar kernel (rgba2hue_aie_scalar): with mx/mn the largest/smallest of
/// R, G, B, h = 0 when mx == 0 or mx == mn, else 0 + 85 (g - b) / (mx - mn) when mx == r,
/// 170 + 85 (b - r) / (mx - mn) when mx == g, 340 + 85 (r - g) / (mx - mn) otherwise (C division,
/// truncating toward zero); out = (h + 1) >> 1 stored as u8. Upstream runs this scalar code on
/// AIE2P (rgba2hueLine's #else branch) and checks npu1's vector path against it.
void rgba2hue_line(const std::uint8_t* rgba, std::uint8_t* hue, std::int32_t width);
/// bitwiseORLine / bitwiseANDLine (u8): out[i] = a[i] | b[i], a[i] & b[i] over n bytes.
void bitwise_or_line(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::int32_t n);
void bitwise_and_line(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::int32_t n);

// ---- cost estimates (NPU1 core cycles, body only) ----------------------------------------------
// [est] rgba2gray: 32 pixels a step = two 64-byte loads, three 32-lane u8 x i16 MACs and a 32-byte
// store, about 4 cycles: width / 8.
std::uint64_t rgba2gray_line_cycles(std::int32_t width);
// [est] gray2rgba: 32 pixels a step = one load, 4 zips and four 32-byte stores (store-bound, 4 cycles).
std::uint64_t gray2rgba_line_cycles(std::int32_t width);
// [est] threshold: 64 lanes a step, one compare and select, store-bound: 2 cycles per 64 bytes.
std::uint64_t threshold_line_cycles(std::int32_t width);
// [est] filter2d: 32 pixels a step, nine MACs on the 32-lane accumulator: 9 cycles per 32 pixels.
std::uint64_t filter2d_line_cycles(std::int32_t width);
// [est] addWeighted: 32 bytes a step, two MACs and a 32-byte store: 2 cycles per 32 bytes.
std::uint64_t add_weighted_line_cycles(std::int32_t n);
// [est] rgba2hue: 32 pixels a step = four 32-byte loads, unzips, min/max, a table inverse, six
// MACs, three shifts and three selects: about 8 cycles per 32 pixels.
std::uint64_t rgba2hue_line_cycles(std::int32_t width);
// [est] bitwise OR / AND: 64 bytes a step, two loads and a store: 2 cycles per 64 bytes (the
// source's loop_range comment: 1 cycle per iteration when pipelined, store-bound at 32 B/cycle).
std::uint64_t bitwise_line_cycles(std::int32_t n);

} // namespace npusim::kernels

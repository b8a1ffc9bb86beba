#pragma once
// npusim's own AIE-API kernel sources (kernels_ref/aie/*.cc), compiled natively through the AIE-API
// host layer (kernels_ref/aie_api). Each kernel is written the way an AIE kernel is written (aie::vector,
// aie::mmul, accumulators, SRS) and computes the bits the AIE core computes for that source. Where a
// kernel depends on the core's rounding or saturation mode it sets the mode itself on entry, as AIE
// kernels do (the setting persists, like the hardware control register).
//
// Most kernels also have a *_scalar twin: a plain loop compiled the same way, used as the baseline in
// bench/aie_api (not as a test reference: the tests carry their own references).
//
// Size requirements are stated per kernel; as on the hardware they are not checked at run time.
#include <cstdint>

#include <npusim/kernels/bfloat16.hpp>

namespace npusim::aie_kernels {

using npusim::bfloat16;

// ---- passThrough (generic/passThrough) ----------------------------------------------------------------
// out[i] = in[i], n elements, n a multiple of 64 bytes' worth of elements (64 u8 / 32 i16 / 16 i32).
void passThroughLine(const std::uint8_t* in, std::uint8_t* out, std::int32_t n);
void passThroughLine(const std::int16_t* in, std::int16_t* out, std::int32_t n);
void passThroughLine(const std::int32_t* in, std::int32_t* out, std::int32_t n);
/// Puts the n words of `in` on the core's output stream port (put_ms), the last with tlast.
void passThroughStream(const std::int32_t* in, std::int32_t n);

// ---- scale: vector_scalar_mul (basic/vector_scalar_mul) ----------------------------------------------
// out[i] = in[i] * factor, wrapped to the element type (saturation none; the kernel sets it).
// i16: the factor is truncated to int16 first (the kernel works with an int16 scalar). n % 32 == 0 (i16),
// n % 16 == 0 (i32).
void vector_scalar_mul_i16(const std::int16_t* in, std::int16_t* out, const std::int32_t* factor, std::int32_t n);
void vector_scalar_mul_i32(const std::int32_t* in, std::int32_t* out, const std::int32_t* factor, std::int32_t n);
void vector_scalar_mul_i16_scalar(const std::int16_t* in, std::int16_t* out, const std::int32_t* factor,
                                  std::int32_t n);
void vector_scalar_mul_i32_scalar(const std::int32_t* in, std::int32_t* out, const std::int32_t* factor,
                                  std::int32_t n);

// ---- reduce_max (basic/vector_reduce_max) ---------------------------------------------------------------
// *out = max(in[0..n)). n % 16 == 0 (i32) / n % 32 == 0 (bf16), n > 0.
void reduce_max_vector(const std::int32_t* in, std::int32_t* out, std::int32_t n);
void reduce_max_vector_bfloat16(const bfloat16* in, bfloat16* out, std::int32_t n);
void reduce_max_scalar(const std::int32_t* in, std::int32_t* out, std::int32_t n);
void reduce_max_scalar_bfloat16(const bfloat16* in, bfloat16* out, std::int32_t n);
// *out = max(*a, *b)
void compute_max(const std::int32_t* a, const std::int32_t* b, std::int32_t* out);

// ---- mm: blocked matrix multiplication (basic/matrix_multiplication) -----------------------------------
// C += A * B on an m x k by k x n tile in the blocked layout of aie::mmul<r, s, t>: A is (m/r) x (k/s)
// row-major blocks of r x s (each block row-major), B (k/s) x (n/t) blocks of s x t, C (m/r) x (n/t)
// blocks of r x t. Integer results wrap (saturation none, set by the kernel): C = (C + A@B) mod 2^bits.
// (r, s, t) = mac_dims: AIE2 i16 (4,4,4), i8 (4,8,8), bf16 (4,8,4); AIE2P i16 (4,4,8), i8 (8,8,8),
// bf16 (4,8,8). m % r == k % s == n % t == 0. bf16 results are rounded to nearest even (the kernel
// selects conv_even for its duration), f32 results are the fp32 accumulator.
// aie2p_bf16_via_bfp16: AIE2P's mm.cc built with -DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16: the bf16
// kernels use an 8x8x8 mmul on the bfp16 datapath under conv_even (kernels_ref matmul.hpp,
// matmul_bf16_*_via_bfp16); the integer kernels are the aie2p ones.
enum class MacDims { aie2, aie2p, aie2p_bf16_via_bfp16 };
void matmul_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t* c, int m, int k, int n,
                    MacDims dims = MacDims::aie2);
void matmul_i16_i16(const std::int16_t* a, const std::int16_t* b, std::int16_t* c, int m, int k, int n,
                    MacDims dims = MacDims::aie2);
void matmul_i8_i8(const std::int8_t* a, const std::int8_t* b, std::int8_t* c, int m, int k, int n,
                  MacDims dims = MacDims::aie2);
void matmul_i8_i16(const std::int8_t* a, const std::int8_t* b, std::int16_t* c, int m, int k, int n,
                   MacDims dims = MacDims::aie2);
void matmul_i8_i32(const std::int8_t* a, const std::int8_t* b, std::int32_t* c, int m, int k, int n,
                   MacDims dims = MacDims::aie2);
void matmul_bf16_bf16(const bfloat16* a, const bfloat16* b, bfloat16* c, int m, int k, int n,
                      MacDims dims = MacDims::aie2);
void matmul_bf16_f32(const bfloat16* a, const bfloat16* b, float* c, int m, int k, int n, MacDims dims = MacDims::aie2);
// Row-major scalar twins: C += A * B with A m x k, B k x n, C m x n all row-major.
void matmul_scalar_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t* c, int m, int k, int n);
void matmul_scalar_i16_i16(const std::int16_t* a, const std::int16_t* b, std::int16_t* c, int m, int k, int n);
// C = 0 (m*n elements, a multiple of 16).
void zero_i32(std::int32_t* c, int count);

// ---- bfp16 matmul (AIE2P block floating point; the semantics of mlir-aie's aie2p/mm_bfp.cc) -----------
// Operands are packed v8bfp16ebs8 blocks (9 bytes: exponent, 8 int8 mantissas) in 8x8-subtile order:
// each 8x8 subtile (8 rows of one block) is 72 contiguous bytes, subtiles row-major over the tile.
// a: m x k values, b: B transposed (n x k values), c: m x n values. c = bfp16(c + a * b^T): c is
// decoded, the products accumulate per 8x8 output subtile with mac_8x8_8x8T, and the sum is quantized
// back (core rounding mode). m % 16 == 0, k % 8 == 0, n % 16 == 0.
void matmul_bfp16(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* c, int m, int k, int n);
/// c = m x n zeros in bfp16 (an all-zero accumulator quantized: every byte 0). m * n % 64 == 0.
void zero_bfp16(std::uint8_t* c, int m, int n);
void zero_i16(std::int16_t* c, int count);
void zero_i8(std::int8_t* c, int count);
void zero_bf16(bfloat16* c, int count);
void zero_f32(float* c, int count);

// ---- row_wise_bias_add (basic/row_wise_bias_add) -----------------------------------------------------
// out[i][j] = in[i][j] + bias[j] for an m x n row-major tile (float). n % 32 == 0.
void row_wise_bias_add_f32_f32(const float* in, const float* bias, float* out, int m, int n);

// ---- relu (ml/eltwise_unary) ------------------------------------------------------------------------
// out[i] = max(in[i], 0) in bfloat16. n % 32 == 0.
void bf16_relu(const bfloat16* in, bfloat16* out, std::int32_t n);

// ---- bf16_exp (basic/vector_exp; IRON kernels.bf16_exp) ------------------------------------------
// out[i] ~ e^in[i] in bfloat16, n % 16 == 0. exp_bf16_aie2: aie_kernels/aie2/bf16_exp.cc, the table
// exp getExpBf16 (lut_based_ops.h: aie::parallel_lookup) truncated to bf16 by to_v16bfloat16 (the core's
// reset rounding); reference npusim::kernels::exp_bf16_lut. exp_bf16_aie2p: aie_kernels/aie2p/bf16_exp.cc,
// aie::exp2<bfloat16>(x * (bfloat16)log2e) (the AIE-API layer's exp2 is exact then rounded to nearest
// even [est]). Reference: npusim::kernels::exp_bf16_exp2.
void exp_bf16_aie2(const bfloat16* in, bfloat16* out, std::int32_t n);
void exp_bf16_aie2p(const bfloat16* in, bfloat16* out, std::int32_t n);

// ---- softmax (ml/softmax; IRON kernels.softmax) ----------------------------------------------------
// softmax_bf16 of one tile, n % 16 == 0 (aie2) / n % 32 == 0 (aie2p). softmax_bf16_aie2:
// aie_kernels/aie2/softmax.cc (table exp, no maximum subtracted); softmax_bf16_aie2p:
// aie_kernels/aie2p/softmax.cc (exp2 of x * log2e minus the maximum). Both run in the core's reset
// rounding (floor: bf16 conversions truncate), as upstream sets no mode; the scalar inverse is
// (bfloat16)aie::inv(sum). References: npusim::kernels::softmax_lut_bf16 / softmax_exp2_bf16.
void softmax_bf16_aie2(const bfloat16* in, bfloat16* out, std::int32_t n);
void softmax_bf16_aie2p(const bfloat16* in, bfloat16* out, std::int32_t n);

// ---- silu, gelu, swiglu (IRON kernels.silu / gelu / swiglu; ml/swiglu) -----------------------------
// One tile, n % 16 == 0, in the core's rounding mode (none of the sources sets one; floor at reset).
// *_aie2: aie_kernels/aie2/{silu,gelu,swiglu}.cc (getTanhBf16 of a bf16 vector); *_aie2p:
// aie_kernels/aie2p/{silu,gelu,swiglu}.cc (aie::tanh<bfloat16> of the float product).
// References: npusim::kernels::silu_bf16 / gelu_bf16 / swiglu_bf16 (activation_tanh.hpp).
void silu_bf16_aie2(const bfloat16* in, bfloat16* out, std::int32_t n);
void silu_bf16_aie2p(const bfloat16* in, bfloat16* out, std::int32_t n);
void gelu_bf16_aie2(const bfloat16* in, bfloat16* out, std::int32_t n);
void gelu_bf16_aie2p(const bfloat16* in, bfloat16* out, std::int32_t n);
void swiglu_bf16_aie2(const bfloat16* in, const bfloat16* w1, const bfloat16* w2, bfloat16* out, std::int32_t n);
void swiglu_bf16_aie2p(const bfloat16* in, const bfloat16* w1, const bfloat16* w2, bfloat16* out, std::int32_t n);

// ---- rms_norm (ml/norm op=rms; AIE2P only) ------------------------------------------------------------
// One row of cols bf16 values: aie_kernels/aie2p/rms_norm.cc (mul_square, reduce_add, invsqrt), in the
// core's rounding mode. Reference: npusim::kernels::rms_norm_bf16 (rms_norm.hpp).
void rms_norm_bf16_aie2p(const bfloat16* in, bfloat16* out, std::int32_t cols);

// ---- eltwise add / mul (ml/eltwise_binary) --------------------------------------------------------
// c[i] = bf16(a[i] + b[i]) / bf16(a[i] * b[i]): float arithmetic, rounded to bfloat16 to nearest even
// (the kernels set conv_even). n % 16 == 0.
void eltwise_add_bf16_vector(const bfloat16* a, const bfloat16* b, bfloat16* c, std::int32_t n);
void eltwise_mul_bf16_vector(const bfloat16* a, const bfloat16* b, bfloat16* c, std::int32_t n);

// ---- vision (vision/edge_detect, vision/color_threshold) --------------------------------------------
// thresholdLine: per pixel, with t = threshold and mx = maxval:
//   BINARY: in > t ? mx : 0        BINARY_INV: in > t ? 0 : mx     TRUNC: in > t ? t : in
//   TOZERO: in > t ? in : 0        TOZERO_INV: in > t ? 0 : in
enum ThresholdType : std::uint8_t {
    THRESH_BINARY = 0,
    THRESH_BINARY_INV = 1,
    THRESH_TRUNC = 2,
    THRESH_TOZERO = 3,
    THRESH_TOZERO_INV = 4,
};
void thresholdLine(const std::uint8_t* in, std::uint8_t* out, std::int32_t width, std::uint8_t threshold,
                   std::uint8_t maxval, std::uint8_t type);
// gray = (9798 R + 19235 G + 3736 B + 2^14) >> 15 for RGBA pixels (alpha ignored).
void rgba2grayLine(const std::uint8_t* rgba, std::uint8_t* gray, std::int32_t width);
// RGBA = (g, g, g, 255).
void gray2rgbaLine(const std::uint8_t* gray, std::uint8_t* rgba, std::int32_t width);
// out = sat_u8(((a * alpha + b * beta + 2^13) >> 14) + gamma), alpha and beta in Q14. n elements.
void addWeightedLine(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::int32_t n,
                     std::int16_t alpha, std::int16_t beta, std::uint8_t gamma);
// 3x3 filter of three u8 lines with an int16 Q12 kernel (row-major 3x3), replicating the border pixel on
// the left and right: out[x] = sat_u8((sum_{r,c} k[r][c] * line_r[x + c - 1] + 2^11) >> 12).
// width % 32 == 0, width >= 32.
void filter2dLine(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2, std::uint8_t* out,
                  std::int32_t width, const std::int16_t* kernel);

// ---- vision/color_detect ---------------------------------------------------------------------------
// bitwiseORLine / bitwiseANDLine: out = a | b, a & b over n u8 elements, 64 lanes a step (n % 64 == 0).
void bitwiseORLine(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::int32_t n);
void bitwiseANDLine(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::int32_t n);
// rgba2hueLine_vector: rgba2hue.cc's AIE2 vector path (rgba2hue_aie): per pixel, with d = max - min
// and inv = floor(85 * 2^9 / d) (the lut_inv_16b table, read with aie::parallel_lookup), the hue
// ((c * 2^9 + (x - y) * inv) >> 10) mod 256 with (c, x, y) = (1, g, b) if max == r, (171, b, r) if
// max == g (g wins a tie with r), (341, r, g) otherwise; 0 if d == 0. It runs in the core's modes
// (upstream sets none; at reset floor and no saturation, which this formula assumes). It is NOT the
// scalar formula of npusim::kernels::rgba2hue_line: the floored table inverse makes about a quarter
// of all RGB triples one lower (tests/kernels_ref/aie_api/AieRgba2Hue_test.cpp). width % 32 == 0.
void rgba2hueLine_vector(const std::uint8_t* rgba, std::uint8_t* hue, std::int32_t width);

// ---- conv2dk1_i8 (ml/conv2d) -----------------------------------------------------------------------
// 1x1 convolution of one image row. Layouts: input YCXC8 ([ci/8][x][8]), weights OIYXI8O8
// ([co/8][ci/8][ci%8][co%8]), output YCXC8 ([co/8][x][8]).
// out = sat_i8(sum_ci in * w >> scale, ties rounded away from zero) (scale 0: the sum, saturated).
// width % 4 == 0, input_channels % 8 == 0, output_channels % 8 == 0.
void conv2dk1_i8(const std::int8_t* input, const std::int8_t* weights, std::int8_t* output, std::int32_t width,
                 std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale);

// conv2dk1 (IRON kernels.conv2dk1): int8 / uint8 activations, uint8 output, rounded half up and
// saturated to [0, 255]; same layouts and sizes.
void conv2dk1_i8_u8(const std::int8_t* input, const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                    std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale);
void conv2dk1_ui8_u8(const std::uint8_t* input, const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                     std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale);

// conv2dk1_skip (IRON kernels.conv2dk1_skip): two uint8 halves of the input channels ([ci/16][x][8]
// each), weights for all ci, int8 (-DINT8_ACT) or uint8 skip in the output layout; uint8 output.
// sat_u8(((sat_i8(sum >> scale) + skip) >> skip_scale)), both shifts half up. width % 4 == 0, ci % 16 == 0.
void conv2dk1_skip_i8(const std::uint8_t* input0, const std::uint8_t* input1, const std::int8_t* weights,
                      std::uint8_t* output, const std::int8_t* skip, std::int32_t width, std::int32_t input_channels,
                      std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale);
void conv2dk1_skip_ui8(const std::uint8_t* input0, const std::uint8_t* input1, const std::int8_t* weights,
                       std::uint8_t* output, const std::uint8_t* skip, std::int32_t width, std::int32_t input_channels,
                       std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale);

// conv2dk1_skip_init (int8 skip): conv2dk1_skip_i8's convolution plus a 1x1 projection of the skip
// input (its weights at weights + ci * co); npusim::kernels::conv2dk1_skip_init_u8.
void conv2dk1_skip_init_i8(const std::uint8_t* input0, const std::uint8_t* input1, const std::int8_t* weights,
                           std::uint8_t* output, const std::int8_t* skip, std::int32_t width,
                           std::int32_t input_channels, std::int32_t output_channels, std::int32_t input_channels_skip,
                           std::int32_t scale, std::int32_t skip_scale, std::int32_t scale_skip_conv);

// The bottleneck 1x1 convolutions (IRON bn_conv2dk1_relu, bn_conv2dk1_i8): int8 -> uint8 and
// uint8 -> int8, the shifted sums rounded to even and saturated (npusim::kernels::conv2dk1_even).
void conv2dk1_relu_i8_ui8(const std::int8_t* input, const std::int8_t* weights, std::uint8_t* output,
                          std::int32_t width, std::int32_t input_channels, std::int32_t output_channels,
                          std::int32_t scale);
void conv2dk1_ui8_i8(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output, std::int32_t width,
                     std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale);

// bn_conv2dk1_skip (-DREGULAR): uint8 input, int8 / uint8 skip, int8 output, both shifts to even
// (npusim::kernels::conv2dk1_skip_even).
void conv2dk1_skip_ui8_i8_i8(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output,
                             const std::int8_t* skip, std::int32_t width, std::int32_t input_channels,
                             std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale);
void conv2dk1_skip_ui8_ui8_i8(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output,
                              const std::uint8_t* skip, std::int32_t width, std::int32_t input_channels,
                              std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale);

// conv2dk3 (IRON conv2dk3 with uint8 activations): 3x3 convolution of three uint8 rows to one uint8
// row, half up and saturated; `check` 0 / 1 / 2 is the top / middle / bottom row, channel_offset
// selects the weights' output channels (npusim::kernels::conv2dk3_u8). width a multiple of 4.
void conv2dk3_ui8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                  const std::int8_t* weights, std::uint8_t* output, std::int32_t width, std::int32_t input_channels,
                  std::int32_t output_channels, std::int32_t kernel_width, std::int32_t kernel_height,
                  std::int32_t check, std::int32_t scale, std::int32_t channel_offset);

// bn_conv2dk3 (no flags): the stride-2 3x3 of three int8 rows to uint8, to even, saturated
// (npusim::kernels::conv2dk3_stride2_even). width a multiple of 4, at most 256 pixels.
void conv2dk3_stride2_i8(const std::int8_t* line0, const std::int8_t* line1, const std::int8_t* line2,
                         const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                         std::int32_t input_channels, std::int32_t output_channels, std::int32_t kernel_width,
                         std::int32_t kernel_height, std::int32_t check, std::int32_t scale, std::int32_t channel_offset);

// bn_conv2dk3_dw (-DREGULAR -DSCALAR -DSTRIDE1 / -DSTRIDE2): depthwise 3x3 of uint8 rows to uint8, to
// even, saturated (npusim::kernels::conv2dk3_dw_stride1_u8 / _stride2_u8). width at most 256 pixels.
void conv2dk3_dw_stride1_relu_ui8_ui8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                                      const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                                      std::int32_t input_channels, std::int32_t output_channels,
                                      std::int32_t kernel_width, std::int32_t kernel_height, std::int32_t check,
                                      std::int32_t scale, std::int32_t channel_offset);
void conv2dk3_dw_stride2_relu_ui8_ui8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                                      const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                                      std::int32_t input_channels, std::int32_t output_channels,
                                      std::int32_t kernel_width, std::int32_t kernel_height, std::int32_t check,
                                      std::int32_t scale, std::int32_t channel_offset);
// bn_conv2dk3_dw_out_split (-DSCALAR -DBN13|14 -DSTRIDE1_OUT_SPLIT): the stride-1 depthwise row with
// channel groups below (output_channels / 2) / 8 in output1, the rest in output2
// (npusim::kernels::conv2dk3_dw_out_split_u8). width 2..256.
void conv2dk3_dw_out_split_ui8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                               const std::int8_t* weights, std::uint8_t* output1, std::uint8_t* output2,
                               std::int32_t width, std::int32_t input_channels, std::int32_t output_channels,
                               std::int32_t kernel_width, std::int32_t kernel_height, std::int32_t check,
                               std::int32_t scale, std::int32_t channel_offset);

// conv2dk14 (IRON conv2dk14): 14x14 stride-14 convolution of RGBA tiles to int8 channels, ties away
// from zero, saturated (npusim::kernels::conv2dk14_i8). Tiles (width / kernel_width) a multiple of 8.
void conv2dk14_i8(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output, std::int32_t width,
                  std::int32_t input_channels, std::int32_t output_channels, std::int32_t kernel_width,
                  std::int32_t scale);

// ---- bottleneck 1x1 cascade halves (IRON bn_conv2dk1_partial_put_i8 / _get_relu_i8) ------------------
// The input-channel split 1x1 convolution of pixels 0..6 (npusim::kernels::conv2dk1_partial_put_i8 /
// conv2dk1_partial_get_relu_i8): put sums the first ci / input_split channels and puts one v16acc64
// per pixel (lanes 0-7: output channels of group oc) with put_mcd; get sums the next chunk, adds the
// v16acc64 it gets, rounds half to even at `scale`, clamps to uint8 (ReLU).
void conv2dk1_partial_put_i8(const std::int8_t* input, const std::int8_t* weights, std::int32_t width,
                             std::int32_t input_channels, std::int32_t output_channels, std::int32_t input_split,
                             std::int32_t weight_index, std::int32_t x_start, std::int32_t oc);
void conv2dk1_partial_get_relu_i8(const std::int8_t* input, const std::int8_t* weights, std::uint8_t* output,
                                  std::int32_t width, std::int32_t input_channels, std::int32_t output_channels,
                                  std::int32_t scale, std::int32_t input_split, std::int32_t output_split,
                                  std::int32_t weight_index, std::int32_t x_start, std::int32_t oc);
// The input-split pair (IRON bn_conv2dk1_input_split_partial_put_ui8 / _skip_get;
// npusim::kernels::conv2dk1_partial_put_ui8 / conv2dk1_partial_get_skip_i8): both halves sum the first
// ci / input_split channels of their own uint8 input; the get adds the v16acc64 it gets, rounds to
// even at `scale` saturated to int8, adds the int8 skip, rounds to even at `skip_scale` saturated to int8.
void conv2dk1_partial_put_ui8(const std::uint8_t* input, const std::int8_t* weights, std::int32_t width,
                              std::int32_t input_channels, std::int32_t output_channels, std::int32_t input_split,
                              std::int32_t weight_index, std::int32_t x_start, std::int32_t oc);
void conv2dk1_partial_get_skip_i8(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output,
                                  const std::int8_t* skip, std::int32_t width, std::int32_t input_channels,
                                  std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale,
                                  std::int32_t input_split, std::int32_t output_split, std::int32_t weight_index,
                                  std::int32_t x_start, std::int32_t oc);

// ---- bottleneck post-stage 1x1 kernels (IRON bn_conv2dk1_relu_xy_pool_padded / bn_fc_relu_ui16_pad) ------
// The fused 1x1 + ReLU + 7x7 average pool with channel padding (npusim::kernels::conv2dk1_xy_pool_padded_u16;
// width at most 1024) and the uint16 fully connected layer over padded weight rows
// (npusim::kernels::conv2dk1_fc_relu_pad_u16; sums within int32). Both to even, clamped to [0, 255].
void conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8(const std::int8_t* input, const std::int8_t* weights,
                                                     std::uint16_t* output, std::int32_t width,
                                                     std::int32_t input_channels, std::int32_t output_channels,
                                                     std::int32_t output_channels_padd, std::int32_t scale,
                                                     std::int32_t y_index, std::int32_t output_split,
                                                     std::int32_t weight_index);
void post_L2_conv2dk1_relu_i16_ui16_pad(const std::uint16_t* input, const std::int8_t* weights, std::uint16_t* output,
                                        std::int32_t width, std::int32_t input_channels,
                                        std::int32_t input_channels_pad, std::int32_t output_channels,
                                        std::int32_t scale);

// ---- cascade_mm (basic/matrix_multiplication/cascade) ----------------------------------------------
// Scalar m x k by k x n (row-major) partial products, one 512-bit cascade word per element of C
// (lane 0: the partial sum as int32), through put_mcd / get_scd_v16int32: put_only puts its own
// sums, put_get adds the word it gets and puts the total, get_only adds the word and its sum into C.
// The cascade words go where the AIE-API layer's cascade hooks send them (npusim's harness: the
// running core's cascade).
void cascade_mm_put_only_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t m, std::int32_t k,
                                 std::int32_t n);
void cascade_mm_put_get_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t m, std::int32_t k,
                                std::int32_t n);
void cascade_mm_get_only_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t* c, std::int32_t m,
                                 std::int32_t k, std::int32_t n);
void cascade_mm_put_only_i16_i16(const std::int16_t* a, const std::int16_t* b, std::int32_t m, std::int32_t k,
                                 std::int32_t n);
void cascade_mm_put_get_i16_i16(const std::int16_t* a, const std::int16_t* b, std::int32_t m, std::int32_t k,
                                std::int32_t n);
void cascade_mm_get_only_i16_i16(const std::int16_t* a, const std::int16_t* b, std::int16_t* c, std::int32_t m,
                                 std::int32_t k, std::int32_t n);

// ---- matvec (IRON kernels.mv) -------------------------------------------------------------------------
// c += A * b (int16 -> int32, 32-bit sums that wrap). matvec_vectorized: A word-transposed
// (npusim::kernels::MatvecLayout::word_transposed), m % 16 == 0, k % 8 == 0; matvec_scalar: A row-major.
void matvec_vectorized_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t* c, std::int32_t m,
                               std::int32_t k);
void matvec_scalar_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t* c, std::int32_t m,
                           std::int32_t k);

} // namespace npusim::aie_kernels

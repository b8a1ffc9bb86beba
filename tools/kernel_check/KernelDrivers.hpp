#pragma once
// Drivers of mlir-aie's upstream aie_kernels entry points for tools/check-upstream-kernels.sh: each
// calls one extern "C" function of a library built by the run-time kernel compiler on generated
// inputs and compares every output byte with a plain C++ reference computed here, from the
// semantics the function's source states and AIE-API documents (not from npusim's host layer).
#include <functional>
#include <string>
#include <vector>

namespace npusim::kernel_check {

/// What a library's build was given that changes an entry point's types (-DBIT_WIDTH=...).
struct BuildFacts {
    int bit_width = 32; ///< the sources' #else branch when BIT_WIDTH is not given
    bool aie2p = false; ///< built for AIE2P (the aie2p/ sources' numerics differ from aie2/'s)
    int dim_m = 0, dim_k = 0, dim_n = 0; ///< -DDIM_M/K/N, 0 when not given (mm.cc's default 64, mv.cc's 32)
    std::string source; ///< the source's file name (entry names repeat across sources: softmax_bf16)
    bool b_col_maj = false, c_col_maj = false; ///< mm.cc's -DB_COL_MAJ / -DC_COL_MAJ
    bool bf16_via_bfp16 = false; ///< -DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16
    /// Connects the library's cascade (put_mcd / get_scd) to these hooks until the next reset.
    std::function<void(void (*put)(const void* word64), void (*get)(void* word64))> connect_cascade;
};

/// One entry point this tool can drive: calls it (the dlsym'd address) and returns the first
/// difference from its reference, or an empty string.
struct Entry {
    std::string name;
    std::function<std::string(void*)> run;
};

/// mm.cc's integer matmuls and zero fills, mv.cc's matvecs (KernelDriversMm.cpp).
void add_mm_kernels(std::vector<Entry>& out, const BuildFacts& facts);

/// mm.cc's bf16 matmuls (bf16 -> bf16 / f32, vectorized and scalar, every layout flag and the bfp16
/// emulation) and cascade_mm.cc's bf16 cascade kernels (KernelDriversMmBf16.cpp).
void add_mm_bf16_kernels(std::vector<Entry>& out, const BuildFacts& facts);

/// aie2p/mm_bfp.cc's and mm_bfp_mixed.cc's block floating-point matmuls, zero fills and shuffle
/// (KernelDriversBfp.cpp).
void add_bfp_kernels(std::vector<Entry>& out, const BuildFacts& facts);

/// cascade_mm.cc's integer cascade kernels and conv2dk1_i8.cc's vector 1x1 convolution
/// (KernelDriversConv.cpp).
void add_cascade_conv_kernels(std::vector<Entry>& out, const BuildFacts& facts);

/// bn_conv2dk1_i8.cc's / bn_conv2dk1_relu.cc's cascade halves of the split 1x1 convolution
/// (-DBN1{3,4}_1_PARTIAL_PUT_I8_CAS_WIDTH_NEW / _GET_) and the input-split pair of bn_conv2dk1_i8.cc /
/// bn_conv2dk1_skip.cc (-DBN1{3,4}_1_INPUT_SPLIT_PARTIAL_PUT_UI8_UI8_CAS_WIDTH_NEW /
/// _GET_UI8_I8_I8_; KernelDriversCascadeConv.cpp).
void add_cascade_bn_kernels(std::vector<Entry>& out, const BuildFacts& facts);

/// bn_conv2dk1_relu.cc's post-stage kernels: the fused 1x1 + ReLU + average pool with channel padding
/// (-DSCALAR -DCONV_XYPOOL_FUSED_LARGE_PADDED -DINT8_ACT) and the uint16 fully connected layer
/// (-DSCALAR -DPOSTL2_PAD -DUINT16_ACT) (KernelDriversPost.cpp).
void add_post_bn_kernels(std::vector<Entry>& out, const BuildFacts& facts);

/// conv2dk3.cc's vector 3x3, bn_conv2dk3.cc's stride-2 and bn_conv2dk3_dw.cc's depthwise 3x3 (the
/// BN13/BN14 output split too) and conv2dk14.cc's 14x14 convolutions
/// (KernelDriversConv3.cpp).
void add_conv3_kernels(std::vector<Entry>& out, const BuildFacts& facts);

/// The ML kernels (KernelDriversMl.cpp): bf16_exp, softmax, silu, gelu, swiglu, rms_norm, against
/// npusim's plain C++ reference kernels (kernels_ref/src) for the build's generation.
void add_ml_kernels(std::vector<Entry>& out, const BuildFacts& facts);

/// The vision kernels addWeighted, filter2d, gray2rgba, rgba2gray, rgba2hue (KernelDriversVision.cpp).
void add_vision_kernels(std::vector<Entry>& out, const BuildFacts& facts);

/// scale_shift, layer_norm, rope, mm_activation_epilogue and aie2/bf16_softmax.cc's scalar softmax
/// (KernelDriversNorm.cpp).
void add_norm_kernels(std::vector<Entry>& out, const BuildFacts& facts);

/// The result of driving one entry point: empty when every output matched, else the first difference.
struct Driven {
    std::string name;
    std::string mismatch;
};

/// Drive every entry point of `handle` (a dlopen handle) this file knows; `reset_modes` puts the
/// library's core modes at the hardware's reset values before each call.
std::vector<Driven> drive_all(void* handle, const BuildFacts& facts, void (*reset_modes)());

} // namespace npusim::kernel_check

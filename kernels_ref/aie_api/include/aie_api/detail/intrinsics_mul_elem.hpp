#pragma once
// AIE-ML bfloat16 multiply intrinsics into the float accumulator (AI Engine-ML Intrinsics User Guide,
// UG1583, Vector Operations > Multiply Accumulate > "Multiply-accumulate of bfloat16 datatypes";
// xilinx.com/htmldocs/xilinx2024_2/aiengine_ml_intrinsics/intrinsics/group__intr__gpvectorop__mul__bf16xbf16.html)
// and the bfloat16 upshift into it:
//
//   mul_elem_16_2(a, b)         16 channels of a (1x2)·(2x1) product: lane i = a[i]*b[i] + a[16+i]*b[16+i]
//   mac_elem_16_2(a, b, acc)    acc + the same;  msc_elem_16_2: acc - the same;  negmul_elem_16_2: -(the same)
//   mul_4x8_8x4(a, b)           A (4x8, row-major in a) times B (8x4, row-major in b): lane 4r + c = C[r][c]
//                               [est: row-major A, B and C as AIE-API's aie::mmul lays out its native
//                               shapes; magika's group2_mmul reads output row 0 as lanes 0..3]
//   mac_4x8_8x4(a, b, acc)      acc + A·B;  msc_4x8_8x4: acc - A·B
//   ups_to_v16accfloat(v), ups(v)  the 16 bfloat16 values as float lanes (exact)
//
// UG1583 names the element-wise operations "channel by channel" with N = 2 columns of A / rows of B
// ("[operation_elem_C]{_N}", Multiply Accumulate overview). Which lanes form a channel's two columns is
// not spelled out there [est]: lane i pairs with lane 16 + i, as every AIE-ML source relying on it requires
// — mlir-aie's own element-wise bf16 multiply (test/unit_tests/aievec_tests/aie2/bf16xbf16_mul_elem/
// dut.cc l.18-20 at 3ca0193) puts the 16 operands in lanes 0..15 and zeros in 16..31, and magika's layer
// norm (inc/funcs_layernorm.h l.136-141) computes x*std + (-mean)*std from {x, -mean} x {std, std}.
//
// Arithmetic [est, as the host layer's aie::mmul and aie::mul on bf16]: each bf16 x bf16 product is exact
// in single precision; a lane's products are summed in order (k = 0, 1, ... ; for the element-wise
// form a[i]*b[i] first) in IEEE single precision, and the sum is then added to (subtracted from) the
// accumulator lane with one more single-precision rounding to nearest even. The hardware's adder tree
// may round differently in the last bit (kernels_ref/aie_api/README.md, "Float").
#include "accum.hpp"
#include "intrinsics.hpp"
#include "numeric.hpp"
#include "vector.hpp"

namespace npusim::aie_api::detail {
// The sum of the K products a[row*K + k] * b[k*N + col], in order, in float.
template <unsigned K, unsigned N>
inline float bf16_dot(const v32bfloat16& a, const v32bfloat16& b, unsigned row, unsigned col) {
    float s = 0.0f;
    for (unsigned k = 0; k < K; ++k) s += static_cast<float>(a[row * K + k]) * static_cast<float>(b[k * N + col]);
    return s;
}
// Lane i of the 16-channel (1x2)·(2x1) product: a[i]*b[i] + a[16+i]*b[16+i].
inline float bf16_elem2(const v32bfloat16& a, const v32bfloat16& b, unsigned i) {
    float s = static_cast<float>(a[i]) * static_cast<float>(b[i]);
    s += static_cast<float>(a[16 + i]) * static_cast<float>(b[16 + i]);
    return s;
}
// sign: +1 adds the products to acc (mac), -1 subtracts them (msc).
inline v16accfloat elem2(const v32bfloat16& a, const v32bfloat16& b, const v16accfloat* acc, float sign) {
    v16accfloat r;
    for (unsigned i = 0; i < 16; ++i) {
        const float p = sign * bf16_elem2(a, b, i);
        r.lane(i) = acc ? acc->lane(i) + p : p;
    }
    return r;
}
inline v16accfloat mm_4x8_8x4(const v32bfloat16& a, const v32bfloat16& b, const v16accfloat* acc, float sign) {
    v16accfloat r;
    for (unsigned row = 0; row < 4; ++row)
        for (unsigned col = 0; col < 4; ++col) {
            const float p = sign * bf16_dot<8, 4>(a, b, row, col);
            r.lane(row * 4 + col) = acc ? acc->lane(row * 4 + col) + p : p;
        }
    return r;
}
} // namespace npusim::aie_api::detail

inline v16accfloat mul_elem_16_2(const v32bfloat16& a, const v32bfloat16& b) {
    return npusim::aie_api::detail::elem2(a, b, nullptr, 1.0f);
}
inline v16accfloat negmul_elem_16_2(const v32bfloat16& a, const v32bfloat16& b) {
    return npusim::aie_api::detail::elem2(a, b, nullptr, -1.0f);
}
inline v16accfloat mac_elem_16_2(const v32bfloat16& a, const v32bfloat16& b, const v16accfloat& acc) {
    return npusim::aie_api::detail::elem2(a, b, &acc, 1.0f);
}
inline v16accfloat msc_elem_16_2(const v32bfloat16& a, const v32bfloat16& b, const v16accfloat& acc) {
    return npusim::aie_api::detail::elem2(a, b, &acc, -1.0f);
}

inline v16accfloat mul_4x8_8x4(const v32bfloat16& a, const v32bfloat16& b) {
    return npusim::aie_api::detail::mm_4x8_8x4(a, b, nullptr, 1.0f);
}
inline v16accfloat negmul_4x8_8x4(const v32bfloat16& a, const v32bfloat16& b) {
    return npusim::aie_api::detail::mm_4x8_8x4(a, b, nullptr, -1.0f);
}
inline v16accfloat mac_4x8_8x4(const v32bfloat16& a, const v32bfloat16& b, const v16accfloat& acc) {
    return npusim::aie_api::detail::mm_4x8_8x4(a, b, &acc, 1.0f);
}
inline v16accfloat msc_4x8_8x4(const v32bfloat16& a, const v32bfloat16& b, const v16accfloat& acc) {
    return npusim::aie_api::detail::mm_4x8_8x4(a, b, &acc, -1.0f);
}

// ups_to_v16accfloat(v) / ups(v): bfloat16 lanes into the float accumulator (exact; UG1583 Upshift).
inline v16accfloat ups_to_v16accfloat(const v16bfloat16& v) {
    v16accfloat r;
    r.from_vector(v);
    return r;
}
inline v16accfloat ups(const v16bfloat16& v) { return ups_to_v16accfloat(v); }

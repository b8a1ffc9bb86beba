// silu_bf16, gelu_bf16 and swiglu_bf16 of one tile, written as aie_kernels/aie2/{silu,gelu,swiglu}.cc
// and aie_kernels/aie2p/{silu,gelu,swiglu}.cc compute them (mlir-aie 3ca0193): 16 bf16 lanes a step,
// bf16 products and sums stored into bf16 vectors (accfloat -> bfloat16 on assignment, with the
// core's rounding mode; none of the sources sets one), sigmoid as (tanh(x / 2) + 1) / 2. The AIE2
// versions take getTanhBf16 of a bf16 vector; the AIE2P versions aie::tanh<bfloat16> of the float
// product. References: npusim::kernels::silu_bf16 / gelu_bf16 / swiglu_bf16 (activation_tanh.hpp).
#include <aie_api/aie.hpp>
#include <lut_based_ops.h>

#include <npusim/aie_kernels.hpp>

namespace npusim::aie_kernels {

namespace {

constexpr unsigned kLanes = 16;

// sigmoid(2h) = (tanh(h) + 1) * 0.5 from a tanh already taken; stored as bf16
aie::vector<bfloat16, kLanes> sigmoid_from_tanh(const aie::vector<bfloat16, kLanes>& t) {
    const auto half = aie::broadcast<bfloat16, kLanes>(0.5f);
    const auto one = aie::broadcast<bfloat16, kLanes>(1.0f);
    const aie::vector<bfloat16, kLanes> t1 = aie::add(t, one);
    return aie::mul(t1, half);
}

template <bool Aie2p>
aie::vector<bfloat16, kLanes> tanh_of_half(const aie::vector<bfloat16, kLanes>& v) {
    const auto half = aie::broadcast<bfloat16, kLanes>(0.5f);
    if constexpr (Aie2p) {
        const aie::accum<accfloat, kLanes> p = aie::mul(v, half);
        return aie::tanh<bfloat16>(p.to_vector<float>());
    } else {
        const aie::vector<bfloat16, kLanes> h = aie::mul(v, half);
        return getTanhBf16(h);
    }
}

template <bool Aie2p>
void silu(const bfloat16* __restrict in, bfloat16* __restrict out, std::int32_t n) {
    event0();
    auto pin = aie::cbegin_restrict_vector<kLanes>(in);
    auto pout = aie::begin_restrict_vector<kLanes>(out);
    AIE_PREPARE_FOR_PIPELINING
    for (std::int32_t i = 0; i < n; i += static_cast<std::int32_t>(kLanes)) {
        const aie::vector<bfloat16, kLanes> x = *pin++;
        const aie::vector<bfloat16, kLanes> s = sigmoid_from_tanh(tanh_of_half<Aie2p>(x));
        *pout++ = aie::mul(x, s).template to_vector<bfloat16>();
    }
    event1();
}

template <bool Aie2p>
void gelu(const bfloat16* __restrict in, bfloat16* __restrict out, std::int32_t n) {
    event0();
    const bfloat16 c = 0.79788456f; // sqrt(2 / pi), a bf16 constant as the sources declare it
    const bfloat16 beta = 0.044715f;
    const auto vc = aie::broadcast<bfloat16, kLanes>(c);
    const auto vbeta = aie::broadcast<bfloat16, kLanes>(beta);
    const auto vhalf = aie::broadcast<bfloat16, kLanes>(0.5f);
    const auto vone = aie::broadcast<bfloat16, kLanes>(1.0f);
    auto pin = aie::cbegin_restrict_vector<kLanes>(in);
    auto pout = aie::begin_restrict_vector<kLanes>(out);
    AIE_PREPARE_FOR_PIPELINING
    for (std::int32_t i = 0; i < n; i += static_cast<std::int32_t>(kLanes)) {
        const aie::vector<bfloat16, kLanes> x = *pin++;
        const aie::vector<bfloat16, kLanes> sq = aie::mul(x, x);
        const aie::vector<bfloat16, kLanes> cube = aie::mul(x, sq);
        const aie::vector<bfloat16, kLanes> scaled_cube = aie::mul(cube, vbeta);
        const aie::vector<bfloat16, kLanes> inner = aie::add(x, scaled_cube);
        aie::vector<bfloat16, kLanes> t;
        if constexpr (Aie2p) {
            const aie::accum<accfloat, kLanes> arg = aie::mul(inner, vc);
            t = aie::tanh<bfloat16>(arg.to_vector<float>());
        } else {
            const aie::vector<bfloat16, kLanes> arg = aie::mul(inner, vc);
            t = getTanhBf16(arg);
        }
        const aie::vector<bfloat16, kLanes> one_plus = aie::add(t, vone);
        const aie::vector<bfloat16, kLanes> halved = aie::mul(vhalf, one_plus);
        *pout++ = aie::mul(x, halved).template to_vector<bfloat16>();
    }
    event1();
}

template <bool Aie2p>
void swiglu(const bfloat16* __restrict in, const bfloat16* __restrict w1, const bfloat16* __restrict w2,
            bfloat16* __restrict out, std::int32_t n) {
    event0();
    auto pin = aie::cbegin_restrict_vector<kLanes>(in);
    auto pw1 = aie::cbegin_restrict_vector<kLanes>(w1);
    auto pw2 = aie::cbegin_restrict_vector<kLanes>(w2);
    auto pout = aie::begin_restrict_vector<kLanes>(out);
    AIE_PREPARE_FOR_PIPELINING
    for (std::int32_t i = 0; i < n; i += static_cast<std::int32_t>(kLanes)) {
        const aie::vector<bfloat16, kLanes> x = *pin++;
        const aie::vector<bfloat16, kLanes> gate = aie::mul(x, *pw1++);
        const aie::vector<bfloat16, kLanes> lin = aie::mul(x, *pw2++);
        const aie::vector<bfloat16, kLanes> s = sigmoid_from_tanh(tanh_of_half<Aie2p>(lin));
        const aie::vector<bfloat16, kLanes> act = aie::mul(lin, s);
        *pout++ = aie::mul(gate, act).template to_vector<bfloat16>();
    }
    event1();
}

} // namespace

void silu_bf16_aie2(const bfloat16* in, bfloat16* out, std::int32_t n) { silu<false>(in, out, n); }
void silu_bf16_aie2p(const bfloat16* in, bfloat16* out, std::int32_t n) { silu<true>(in, out, n); }
void gelu_bf16_aie2(const bfloat16* in, bfloat16* out, std::int32_t n) { gelu<false>(in, out, n); }
void gelu_bf16_aie2p(const bfloat16* in, bfloat16* out, std::int32_t n) { gelu<true>(in, out, n); }
void swiglu_bf16_aie2(const bfloat16* in, const bfloat16* w1, const bfloat16* w2, bfloat16* out, std::int32_t n) {
    swiglu<false>(in, w1, w2, out, n);
}
void swiglu_bf16_aie2p(const bfloat16* in, const bfloat16* w1, const bfloat16* w2, bfloat16* out, std::int32_t n) {
    swiglu<true>(in, w1, w2, out, n);
}

} // namespace npusim::aie_kernels

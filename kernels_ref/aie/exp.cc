// bf16_exp (aie_kernels/aie2/bf16_exp.cc, aie_kernels/aie2p/bf16_exp.cc): e^x of a bf16 tile, 16 lanes
// per step. AIE2: the table exp getExpBf16 (lut_based_ops.h), converted with to_v16bfloat16. AIE2P:
// e^x = 2^(x * log2e) through aie::exp2; the product of two bf16 vectors is exact in the float
// accumulator.
#include <aie_api/aie.hpp>
#include <lut_based_ops.h>

#include <npusim/aie_kernels.hpp>

namespace npusim::aie_kernels {

void exp_bf16_aie2(const bfloat16* __restrict in, bfloat16* __restrict out, std::int32_t n) {
    constexpr int lanes = 16;
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_RANGE(64, 64)
    for (int i = 0; i < n; i += lanes) {
        const v16bfloat16 x = aie::load_v<lanes>(in + i);
        const v16accfloat e = getExpBf16(x);
        aie::store_v(out + i, to_v16bfloat16(e));
    }
}

void exp_bf16_aie2p(const bfloat16* __restrict in, bfloat16* __restrict out, std::int32_t n) {
    constexpr unsigned lanes = 16;
    constexpr double log2e = 1.44269504089; // the source's constant; broadcast rounds it to bf16
    auto it_in = aie::cbegin_vector<lanes>(in);
    auto it_out = aie::begin_vector<lanes>(out);
    const aie::vector<bfloat16, lanes> log2e_vec = aie::broadcast<bfloat16, lanes>(log2e);
    for (std::int32_t i = 0; i < n / static_cast<std::int32_t>(lanes); ++i) {
        const aie::vector<bfloat16, lanes> x = *it_in++;
        const aie::accum<accfloat, lanes> scaled = aie::mul(x, log2e_vec);
        *it_out++ = aie::exp2<bfloat16>(scaled.to_vector<float>());
    }
}

} // namespace npusim::aie_kernels

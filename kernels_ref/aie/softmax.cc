// softmax_bf16 (aie_kernels/aie2/softmax.cc and aie_kernels/aie2p/softmax.cc) of one tile.
// AIE2: exp by table (getExpBf16), 16 float lanes of sums, the scalar inverse, a scaling pass.
// AIE2P: three passes of 32 lanes: the maximum of x * log2e (as bf16), exp2 of x * log2e minus it
// with the sums, the scaling pass. Neither sets a rounding mode: bf16 conversions use the core's.
#include <aie_api/aie.hpp>
#include <lut_based_ops.h>

#include <npusim/aie_kernels.hpp>

namespace npusim::aie_kernels {

void softmax_bf16_aie2(const bfloat16* __restrict in, bfloat16* __restrict out, std::int32_t n) {
    constexpr unsigned lanes = 16;
    event0();
    auto it_exp_in = aie::cbegin_vector<lanes>(in);
    auto it_exp_out = aie::begin_vector<lanes>(out);
    auto it_scale = aie::cbegin_restrict_vector<lanes>(static_cast<const bfloat16*>(out));
    auto it_soft_out = aie::begin_restrict_vector<lanes>(out);
    const int iters = n / static_cast<int>(lanes);
    aie::accum<accfloat, lanes> sums = aie::zeros<accfloat, lanes>();
    for (int i = 0; i < iters; ++i) {
        const aie::vector<bfloat16, lanes> x = *it_exp_in++;
        const aie::vector<bfloat16, lanes> e = to_v16bfloat16(getExpBf16(x));
        sums = aie::add(sums, e);
        *it_exp_out++ = e;
    }
    const float total = aie::reduce_add(sums.to_vector<float>());
    const bfloat16 inv_sum = static_cast<bfloat16>(aie::inv(total));
    for (int c = 0; c < iters; ++c) {
        const aie::vector<bfloat16, lanes> e = *it_scale++;
        *it_soft_out++ = aie::mul(e, inv_sum).to_vector<bfloat16>();
    }
    event1();
}

void softmax_bf16_aie2p(const bfloat16* __restrict in, bfloat16* __restrict out, std::int32_t n) {
    constexpr unsigned lanes = 32;
    event0();
    auto it_log_in = aie::cbegin_restrict_vector<lanes>(in);
    auto it_exp_in = aie::cbegin_restrict_vector<lanes>(in);
    auto it_exp_out = aie::begin_restrict_vector<lanes>(out);
    auto it_scale = aie::cbegin_restrict_vector<lanes>(static_cast<const bfloat16*>(out));
    auto it_soft_out = aie::begin_restrict_vector<lanes>(out);
    const int iters = n / static_cast<int>(lanes);
    const auto log2e_vec = aie::broadcast<bfloat16, lanes>(static_cast<bfloat16>(1.4453125f));

    aie::vector<bfloat16, lanes> max_vec = aie::broadcast<bfloat16, lanes>(static_cast<bfloat16>(-32768.0f));
    for (int i = 0; i < iters; ++i) {
        const aie::vector<bfloat16, lanes> x = *it_log_in++;
        const aie::accum<accfloat, lanes> scaled = aie::mul(x, log2e_vec);
        max_vec = aie::max(max_vec, scaled.to_vector<bfloat16>());
    }
    const float max_val = aie::reduce_max(max_vec);
    const auto max_val_vec = aie::broadcast<bfloat16, lanes>(max_val);

    aie::accum<accfloat, lanes> sums = aie::zeros<accfloat, lanes>();
    for (int i = 0; i < iters; ++i) {
        const aie::vector<bfloat16, lanes> x = *it_exp_in++;
        const aie::accum<accfloat, lanes> scaled = aie::mul(x, log2e_vec);
        const aie::accum<accfloat, lanes> arg = aie::sub(scaled, max_val_vec);
        const aie::vector<bfloat16, lanes> e = aie::exp2<bfloat16>(arg.to_vector<float>());
        sums = aie::add(sums, e);
        *it_exp_out++ = e;
    }
    const float total = aie::reduce_add(sums.to_vector<float>());
    const bfloat16 inv_sum = static_cast<bfloat16>(aie::inv(total));
    for (int c = 0; c < iters; ++c) {
        const aie::vector<bfloat16, lanes> e = *it_scale++;
        *it_soft_out++ = aie::mul(e, inv_sum).to_vector<bfloat16>();
    }
    event1();
}

} // namespace npusim::aie_kernels

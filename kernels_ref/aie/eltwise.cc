// Element-wise bf16 add and multiply, 16 lanes per step. The add runs on the float accumulator adders
// (aie::add of bf16 vectors), the multiply produces exact products in an accfloat accumulator; both are
// rounded back to bfloat16 with conv_even, which the kernels select on entry.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace npusim::aie_kernels {

void eltwise_add_bf16_vector(const bfloat16* __restrict a, const bfloat16* __restrict b, bfloat16* __restrict c,
                             std::int32_t n) {
    constexpr int lanes = 16;
    event0();
    aie::set_rounding(aie::rounding_mode::conv_even);
    auto pa = aie::cbegin_vector<lanes>(a);
    auto pb = aie::cbegin_vector<lanes>(b);
    auto pc = aie::begin_restrict_vector<lanes>(c);
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_MIN_ITERATION_COUNT(16)
    for (int32_t i = 0; i < n / lanes; ++i) *pc++ = aie::add(*pa++, *pb++);
    event1();
}

void eltwise_mul_bf16_vector(const bfloat16* __restrict a, const bfloat16* __restrict b, bfloat16* __restrict c,
                             std::int32_t n) {
    constexpr int lanes = 16;
    event0();
    aie::set_rounding(aie::rounding_mode::conv_even);
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_MIN_ITERATION_COUNT(16)
    for (int32_t i = 0; i < n; i += lanes) {
        const aie::vector<bfloat16, lanes> x = aie::load_v<lanes>(a + i);
        const aie::vector<bfloat16, lanes> y = aie::load_v<lanes>(b + i);
        const aie::accum<accfloat, lanes> p = aie::mul(x, y);
        aie::store_v(c + i, p.to_vector<bfloat16>());
    }
    event1();
}

} // namespace npusim::aie_kernels

// relu (bf16): max against a zero register, 32 lanes per step.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace npusim::aie_kernels {

void bf16_relu(const bfloat16* __restrict in, bfloat16* __restrict out, std::int32_t n) {
    constexpr int lanes = 32;
    event0();
    const v32bfloat16 zero = broadcast_zero_bfloat16();
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_RANGE(32, 32)
    for (int32_t i = 0; i < n; i += lanes) {
        const v32bfloat16 x = aie::load_v<lanes>(in + i);
        aie::store_v(out + i, aie::max(x, zero));
    }
    event1();
}

} // namespace npusim::aie_kernels

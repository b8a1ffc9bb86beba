// row_wise_bias_add: add a bias row to every row of an m x n float tile, 32 columns per register pair.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace npusim::aie_kernels {

void row_wise_bias_add_f32_f32(const float* __restrict in, const float* __restrict bias, float* __restrict out, int m,
                               int n) {
    constexpr int lanes = 32;
    event0();
    for (int j = 0; j < n; j += lanes) {
        const aie::vector<float, lanes> b = aie::load_v<lanes>(bias + j);
        AIE_PREPARE_FOR_PIPELINING
        AIE_LOOP_MIN_ITERATION_COUNT(8)
        for (int i = 0; i < m; ++i) {
            const aie::vector<float, lanes> x = aie::load_v<lanes>(in + i * n + j);
            aie::store_v(out + i * n + j, aie::add(x, b));
        }
    }
    event1();
}

} // namespace npusim::aie_kernels

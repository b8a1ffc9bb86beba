// rms_norm of one bf16 row as aie_kernels/aie2p/rms_norm.cc (mlir-aie 3ca0193) computes it: 16 lanes of
// exact squares (aie::mul_square) summed per lane in float, aie::reduce_add, the tail squares added
// one by one, invsqrt of sum / cols + 1e-5, its bf16 (a scalar cast) broadcast and multiplied in,
// stored at the core's rounding mode (the source sets none), times gamma = 1; the tail in scalar
// casts. Reference: npusim::kernels::rms_norm_bf16 (rms_norm.hpp).
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace npusim::aie_kernels {

void rms_norm_bf16_aie2p(const bfloat16* __restrict in, bfloat16* __restrict out, std::int32_t cols) {
    constexpr int lanes = 16;
    event0();
    const float gamma = 1.0f;
    const auto gamma_v = aie::broadcast<bfloat16, lanes>(gamma);
    aie::vector<float, lanes> sums = aie::zeros<float, lanes>();
    const int chunks = cols / lanes;
    for (int i = 0; i < chunks; ++i) {
        const aie::vector<bfloat16, lanes> x = aie::load_v<lanes>(in + i * lanes);
        const aie::vector<float, lanes> sq = aie::mul_square(x);
        sums = aie::add(sums, sq);
    }
    float sum_sq = aie::reduce_add(sums);
    for (int i = chunks * lanes; i < cols; ++i) sum_sq += static_cast<float>(in[i]) * static_cast<float>(in[i]);
    const float inv = aie::invsqrt(sum_sq / cols + 1e-5f);
    const auto inv_v = aie::broadcast<bfloat16, lanes>(static_cast<bfloat16>(inv));
    for (int i = 0; i < chunks; ++i) {
        const aie::vector<bfloat16, lanes> x = aie::load_v<lanes>(in + i * lanes);
        const aie::vector<bfloat16, lanes> scaled = aie::mul(x, inv_v);
        const aie::vector<bfloat16, lanes> y = aie::mul(scaled, gamma_v);
        aie::store_v(out + i * lanes, y);
    }
    for (int i = chunks * lanes; i < cols; ++i) {
        const bfloat16 scaled = static_cast<bfloat16>(static_cast<float>(in[i]) * inv);
        out[i] = static_cast<bfloat16>(static_cast<float>(scaled) * gamma);
    }
    event1();
}

} // namespace npusim::aie_kernels

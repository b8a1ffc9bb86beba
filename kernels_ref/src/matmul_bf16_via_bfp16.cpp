// matmul_bf16_{bf16,f32}_via_bfp16: mm.cc's bf16 matmul on AIE2P built with
// -DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16 (matmul.hpp has the rule).
#include <npusim/kernels/matmul.hpp>

#include <algorithm>
#include <bit>
#include <cmath>

namespace npusim::kernels {
namespace {

// 8 floats to one bfp16ebs8 block (exponent, 8 int8 mantissas), mantissas rounded to nearest even.
void quantize_nearest_even(const float* x, std::uint8_t* out) {
    std::uint32_t e_max = 0;
    for (int q = 0; q < 8; ++q) e_max = std::max(e_max, (std::bit_cast<std::uint32_t>(x[q]) >> 23) & 0xFFu);
    out[0] = static_cast<std::uint8_t>(e_max);
    for (int q = 0; q < 8; ++q) {
        const std::uint32_t u = std::bit_cast<std::uint32_t>(x[q]);
        const std::uint32_t e = (u >> 23) & 0xFFu;
        std::int64_t sig = (u & 0x7FFFFFu) | (e != 0 ? 0x800000u : 0u);
        if (u >> 31) sig = -sig;
        const int sh = std::min(40, 17 + static_cast<int>(e_max) - static_cast<int>(e));
        std::int64_t v = sig >> sh; // floor, then up when above half or on a tie with an odd result
        const std::int64_t rem = sig - (v << sh), half = std::int64_t{1} << (sh - 1);
        if (rem > half || (rem == half && (v & 1) != 0)) ++v;
        out[1 + q] = static_cast<std::uint8_t>(static_cast<std::int8_t>(std::clamp<std::int64_t>(v, -128, 127)));
    }
}

template <typename TC>
void via_bfp16(const char* name, const bfloat16* A, const bfloat16* B, TC* C, int m, int k, int n) {
    detail::require_non_null(A, name, "A");
    detail::require_non_null(B, name, "B");
    detail::require_non_null(C, name, "C");
    detail::require_positive(m, name, "m");
    detail::require_positive(k, name, "k");
    detail::require_positive(n, name, "n");
    detail::require_multiple(m, 16, name, "m", "the emulated kernel computes 2 x 2 blocks of 8 x 8");
    detail::require_multiple(k, 8, name, "k", "A and B are stored as 8 x 8 blocks");
    detail::require_multiple(n, 16, name, "n", "the emulated kernel computes 2 x 2 blocks of 8 x 8");
    const int kb = k / 8, nb = n / 8;
    for (int bi = 0; bi < m / 8; ++bi)
        for (int bj = 0; bj < nb; ++bj) {
            TC* cblk = C + static_cast<std::ptrdiff_t>(bi * nb + bj) * 64;
            float lane[64];
            for (int i = 0; i < 64; ++i) lane[i] = float(cblk[i]);
            for (int q = 0; q < kb; ++q) { // one mac: the A block's rows and the B block's columns as blocks
                const bfloat16* ablk = A + static_cast<std::ptrdiff_t>(bi * kb + q) * 64;
                const bfloat16* bblk = B + static_cast<std::ptrdiff_t>(q * nb + bj) * 64;
                std::uint8_t qa[8][9], qb[8][9];
                for (int i = 0; i < 8; ++i) {
                    float row[8], col[8];
                    for (int t = 0; t < 8; ++t) {
                        row[t] = float(ablk[i * 8 + t]);
                        col[t] = float(bblk[t * 8 + i]);
                    }
                    quantize_nearest_even(row, qa[i]);
                    quantize_nearest_even(col, qb[i]);
                }
                for (int i = 0; i < 8; ++i)
                    for (int j = 0; j < 8; ++j) {
                        std::int64_t dot = 0;
                        for (int t = 1; t <= 8; ++t)
                            dot += std::int64_t{static_cast<std::int8_t>(qa[i][t])} * static_cast<std::int8_t>(qb[j][t]);
                        lane[i * 8 + j] +=
                            static_cast<float>(std::ldexp(static_cast<double>(dot), int(qa[i][0]) + int(qb[j][0]) - 266));
                    }
            }
            for (int i = 0; i < 64; ++i) cblk[i] = TC(lane[i]); // bfloat16(float) rounds to nearest even
        }
}

} // namespace

void matmul_bf16_bf16_via_bfp16(const bfloat16* A, const bfloat16* B, bfloat16* C, int m, int k, int n) {
    via_bfp16("matmul_bf16_bf16_via_bfp16", A, B, C, m, k, n);
}
void matmul_bf16_f32_via_bfp16(const bfloat16* A, const bfloat16* B, float* C, int m, int k, int n) {
    via_bfp16("matmul_bf16_f32_via_bfp16", A, B, C, m, k, n);
}

} // namespace npusim::kernels

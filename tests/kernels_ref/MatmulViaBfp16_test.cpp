// matmul_bf16_{bf16,f32}_via_bfp16: mm.cc's bf16 matmul on AIE2P under
// AIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16 (8x8x8 blocks, bfp16 rows of A and columns of B rounded to
// nearest even, exact block dot products added to the fp32 lane). Hand-computed values.
#include <npusim/kernels/matmul.hpp>

#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

using npusim::bfloat16;

TEST_CASE("matmul_bf16_*_via_bfp16: bfp16 mantissas rounded to nearest even per row of A and column of B",
          "[kernels][matmul][bfp16]") {
    // m = n = 16, k = 8: 2 x 2 blocks of 8 x 8, one K block. Row 0 of A = [1, 1.5 * 2^-6, 0, ...]:
    // its block exponent is 1's (127) and 1.5 * 2^-6 is 1.5 steps of 2^-6, a tie that rounds to the
    // even mantissa 2 (floor would give 1, the exact product 1.5). B = all ones (mantissa 64 each).
    // C[0][j] = 0.25 + (64 * 64 + 2 * 64) * 2^(127 + 127 - 266) = 0.25 + 1.03125.
    constexpr int m = 16, k = 8, n = 16;
    std::vector<bfloat16> A(m * k, bfloat16(0.0f)), B(k * n, bfloat16(1.0f));
    A[0] = bfloat16(1.0f);
    A[1] = bfloat16(1.5f / 64.0f);
    // Row 1: [1, 1.25 * 2^-6]: 1.25 steps, below the tie, rounds down to 1: 1 + 64 * 2^-12.
    A[8] = bfloat16(1.0f);
    A[9] = bfloat16(1.25f / 64.0f);
    // Row 2: [-1, -1.5 * 2^-6]: the tie at -1.5 goes to the even -2.
    A[16] = bfloat16(-1.0f);
    A[17] = bfloat16(-1.5f / 64.0f);
    std::vector<float> cf(m * n, 0.25f);
    npusim::kernels::matmul_bf16_f32_via_bfp16(A.data(), B.data(), cf.data(), m, k, n);
    // Block (0, 0) holds rows 0-7 x columns 0-7, row-major.
    for (int j = 0; j < 8; ++j) {
        CHECK(cf[0 * 8 + j] == 0.25f + 1.03125f);
        CHECK(cf[1 * 8 + j] == 0.25f + 1.015625f);
        CHECK(cf[2 * 8 + j] == 0.25f - 1.03125f);
        CHECK(cf[3 * 8 + j] == 0.25f);
    }
    CHECK(cf[64] == 0.25f + 1.03125f); // block (0, 1): the same rows, columns 8-15
    // bf16 C: 1.28125 = 1 + 9/32 needs 5 fraction bits: exact in bf16; 0.25 + 1 + 1/64 = 1.265625
    // likewise. 1.25 + 1.03125 * 2^-8 in the lane would tie: see the f32 lane above for the sums.
    std::vector<bfloat16> cb(m * n, bfloat16(0.25f));
    npusim::kernels::matmul_bf16_bf16_via_bfp16(A.data(), B.data(), cb.data(), m, k, n);
    CHECK(float(cb[0]) == 1.28125f);
    CHECK(float(cb[8]) == 1.265625f);
    // A lane that is not a bf16 rounds to nearest even: C = 256 and row 0's 1.03125 give 257.03125,
    // between 256 and 258 (bf16 steps of 2 there): nearer 258.
    std::vector<bfloat16> c2(m * n, bfloat16(256.0f));
    npusim::kernels::matmul_bf16_bf16_via_bfp16(A.data(), B.data(), c2.data(), m, k, n);
    CHECK(float(c2[0]) == 258.0f);
    CHECK(float(c2[3 * 8]) == 256.0f);
}

TEST_CASE("matmul_bf16_*_via_bfp16: sizes must be whole 2 x 2 groups of 8 x 8 blocks", "[kernels][matmul][bfp16]") {
    std::vector<bfloat16> a(64 * 64), b(64 * 64);
    std::vector<float> c(64 * 64);
    CHECK_THROWS_AS(npusim::kernels::matmul_bf16_f32_via_bfp16(a.data(), b.data(), c.data(), 8, 8, 16),
                    std::invalid_argument);
    CHECK_THROWS_AS(npusim::kernels::matmul_bf16_f32_via_bfp16(a.data(), b.data(), c.data(), 16, 12, 16),
                    std::invalid_argument);
    CHECK_THROWS_AS(npusim::kernels::matmul_bf16_f32_via_bfp16(nullptr, b.data(), c.data(), 16, 8, 16),
                    std::invalid_argument);
}

// matvec reference (kernels_ref/matvec.hpp): IRON kernels.mv's c += A * b, int16 -> int32, in the
// two layouts of mlir-aie aie_kernels/aie2/mv.cc (row-major for matvec_scalar, 32-bit-word
// transposed for matvec_vectorized, mv.cc:44-53), checked against sums written out here.
#include <npusim/kernels/matvec.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace nk = npusim::kernels;

TEST_CASE("matvec row-major: c += A * b, a worked 2 x 3 case", "[kernels][matvec]") {
    const std::vector<std::int16_t> a{1, 2, 3, -4, 5, -6}; // rows (1, 2, 3) and (-4, 5, -6)
    const std::vector<std::int16_t> b{7, -8, 9};
    std::vector<std::int32_t> c{100, -100};
    nk::matvec_i16_i32(a.data(), b.data(), c.data(), 2, 3, nk::MatvecLayout::row_major);
    CHECK(c[0] == 100 + 7 - 16 + 27);
    CHECK(c[1] == -100 - 28 - 40 - 54);
}

TEST_CASE("matvec word-transposed layout: the element order mv.cc's comment draws", "[kernels][matvec]") {
    // mv.cc:47-51 for 4 rows: row 0 holds memory positions 1 2 9 10 17 18, row 1 3 4 11 12 19, ...
    const int m = 4, k = 6;
    const int row0[] = {1, 2, 9, 10, 17, 18}, row1[] = {3, 4, 11, 12, 19, 20}, row3[] = {7, 8, 15, 16, 23, 24};
    for (int col = 0; col < k; ++col) {
        CHECK(nk::matvec_index(0, col, m, k, nk::MatvecLayout::word_transposed) == row0[col] - 1);
        CHECK(nk::matvec_index(1, col, m, k, nk::MatvecLayout::word_transposed) == row1[col] - 1);
        CHECK(nk::matvec_index(3, col, m, k, nk::MatvecLayout::word_transposed) == row3[col] - 1);
    }
    CHECK(nk::matvec_index(3, 5, m, k, nk::MatvecLayout::row_major) == 23);
}

TEST_CASE("matvec word-transposed: the same product as row-major once A is laid out so", "[kernels][matvec]") {
    const int m = 32, k = 16;
    std::vector<std::int16_t> rm(m * k), wt(m * k), b(k);
    for (int r = 0; r < m; ++r)
        for (int c = 0; c < k; ++c) {
            const auto v = static_cast<std::int16_t>((r * 37 + c * 11) % 251 - 125);
            rm[r * k + c] = v;
            wt[(c / 2) * 2 * m + 2 * r + c % 2] = v; // the transpose written out directly
        }
    for (int c = 0; c < k; ++c) b[c] = static_cast<std::int16_t>(c * 3 - 20);
    std::vector<std::int32_t> want(m), got(m, 5);
    for (int r = 0; r < m; ++r) {
        std::int32_t s = 5;
        for (int c = 0; c < k; ++c) s += rm[r * k + c] * b[c];
        want[r] = s;
    }
    nk::matvec_i16_i32(wt.data(), b.data(), got.data(), m, k, nk::MatvecLayout::word_transposed);
    CHECK(got == want);
}

TEST_CASE("matvec sums are 32-bit and wrap", "[kernels][matvec]") {
    const std::int16_t lo = std::numeric_limits<std::int16_t>::min();
    const std::vector<std::int16_t> a(4, lo), b(4, lo); // 4 * 2^30 = 2^32: wraps to 0
    std::vector<std::int32_t> c{7};
    nk::matvec_i16_i32(a.data(), b.data(), c.data(), 1, 4, nk::MatvecLayout::row_major);
    CHECK(c[0] == 7);
    std::vector<std::int32_t> d{std::numeric_limits<std::int32_t>::max()};
    const std::vector<std::int16_t> one{1}, two{1};
    nk::matvec_i16_i32(one.data(), two.data(), d.data(), 1, 1, nk::MatvecLayout::row_major);
    CHECK(d[0] == std::numeric_limits<std::int32_t>::min());
}

TEST_CASE("matvec preconditions and cost models", "[kernels][matvec]") {
    std::vector<std::int16_t> a(256), b(16);
    std::vector<std::int32_t> c(16);
    CHECK_THROWS_AS(nk::matvec_i16_i32(a.data(), b.data(), c.data(), 8, 16, nk::MatvecLayout::word_transposed),
                    std::invalid_argument);
    CHECK_THROWS_AS(nk::matvec_i16_i32(nullptr, b.data(), c.data(), 16, 16, nk::MatvecLayout::row_major),
                    std::invalid_argument);
    CHECK(nk::matvec_scalar_cycles(32, 32) == 1024);
    CHECK(nk::matvec_vectorized_cycles(32, 32) == 4 * (2 * 3 + 1));
    // never faster than AIE2's int16 MAC rate (64 per cycle)
    CHECK(nk::matvec_vectorized_cycles(256, 256) * 64 >= 256u * 256u);
}

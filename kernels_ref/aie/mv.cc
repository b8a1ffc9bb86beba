// matvec (IRON aie.iron.kernels.mv): c += A * b, int16 A and b, int32 c, written against the AIE API.
// The vector variant reads A transposed at 32-bit-word granularity (npusim::kernels::MatvecLayout::
// word_transposed): a 32-lane load at (col / 2) * 2m + 2 * row holds rows row..row+15 of columns col
// and col + 1 interleaved, which filter_even / filter_odd split. Each of the block's eight columns
// is multiplied by its element of b and accumulated in acc32 lanes started from c; the lanes go back
// to int32 with no shift, wrapping (saturation none, as at reset).
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace npusim::aie_kernels {

void matvec_vectorized_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t* c, std::int32_t m,
                               std::int32_t k) {
    event0();
    constexpr int rows = 16, cols = 8;
    for (int col = 0; col < k; col += cols) {
        for (int row = 0; row < m; row += rows) {
            aie::accum<acc32, rows> acc;
            acc.from_vector(aie::load_v<rows>(c + row));
            for (int pair = 0; pair < cols / 2; ++pair) {
                const int first = col + 2 * pair;
                const aie::vector<int16, 2 * rows> two = aie::load_v<2 * rows>(a + (first / 2) * 2 * m + 2 * row);
                acc = aie::mac(acc, aie::filter_even(two), b[first]);
                acc = aie::mac(acc, aie::filter_odd(two), b[first + 1]);
            }
            aie::store_v(c + row, acc.template to_vector<int32>(0));
        }
    }
    event1();
}

void matvec_scalar_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t* c, std::int32_t m,
                           std::int32_t k) {
    event0();
    for (int row = 0; row < m; ++row) {
        std::uint32_t sum = 0; // 32-bit and wrapping, as the core's int32 register
        for (int col = 0; col < k; ++col)
            sum += static_cast<std::uint32_t>(static_cast<std::int32_t>(a[row * k + col]) * b[col]);
        c[row] = static_cast<std::int32_t>(static_cast<std::uint32_t>(c[row]) + sum);
    }
    event1();
}

} // namespace npusim::aie_kernels

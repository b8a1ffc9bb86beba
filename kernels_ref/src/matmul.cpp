#include <cmath>
#include <npusim/kernels/matmul.hpp>

namespace npusim::kernels {
namespace {

void check_matmul(const char* name, const void* A, const void* B, const void* C, int m, int k, int n, int r, int s,
                  int t) {
    detail::require_non_null(A, name, "A");
    detail::require_non_null(B, name, "B");
    detail::require_non_null(C, name, "C");
    detail::require_positive(m, name, "m");
    detail::require_positive(k, name, "k");
    detail::require_positive(n, name, "n");
    detail::require_positive(r, name, "r");
    detail::require_positive(s, name, "s");
    detail::require_positive(t, name, "t");
    detail::require_multiple(m, r, name, "m", "A and C are stored as r x s / r x t blocks");
    detail::require_multiple(k, s, name, "k", "A and B are stored as r x s / s x t blocks");
    detail::require_multiple(n, t, name, "n", "B and C are stored as s x t / r x t blocks");
    detail::require_multiple(m / r, 2, name, "m / r",
                             "the AIE kernel computes 2 x 2 mmul blocks of C, so the block-row count must be even");
    detail::require_multiple(n / t, 2, name, "n / t",
                             "the AIE kernel computes 2 x 2 mmul blocks of C, so the block-column count must be even");
}

// Loads one C element into the 32-bit accumulator (sign extension for int16).
inline std::uint32_t load_acc(std::int32_t c) { return static_cast<std::uint32_t>(c); }
inline std::uint32_t load_acc(std::int16_t c) { return static_cast<std::uint32_t>(static_cast<std::int32_t>(c)); }
// Stores the accumulator back: keep the low 32 / 16 bits (no saturation, see matmul.hpp).
inline void store_acc(std::uint32_t acc, std::int32_t& c) { c = static_cast<std::int32_t>(acc); }
inline void store_acc(std::uint32_t acc, std::int16_t& c) {
    c = static_cast<std::int16_t>(static_cast<std::uint16_t>(acc & 0xFFFFu));
}

template <typename TC>
void blocked_matmul(const std::int16_t* A, const std::int16_t* B, TC* C, int m, int k, int n, int r, int s, int t) {
    const std::int64_t mb = m / r, kb = k / s, nb = n / t;
    const std::int64_t a_block = static_cast<std::int64_t>(r) * s;
    const std::int64_t b_block = static_cast<std::int64_t>(s) * t;
    const std::int64_t c_block = static_cast<std::int64_t>(r) * t;
    for (std::int64_t bi = 0; bi < mb; ++bi) {
        for (std::int64_t bj = 0; bj < nb; ++bj) {
            TC* cblk = C + (bi * nb + bj) * c_block;
            for (std::int64_t ii = 0; ii < r; ++ii) {
                for (std::int64_t jj = 0; jj < t; ++jj) {
                    std::uint32_t acc = load_acc(cblk[ii * t + jj]);
                    for (std::int64_t bk = 0; bk < kb; ++bk) {
                        const std::int16_t* arow = A + (bi * kb + bk) * a_block + ii * s;
                        const std::int16_t* bcol = B + (bk * nb + bj) * b_block + jj;
                        for (std::int64_t kk = 0; kk < s; ++kk) {
                            const std::int32_t p =
                                static_cast<std::int32_t>(arow[kk]) * static_cast<std::int32_t>(bcol[kk * t]);
                            acc += static_cast<std::uint32_t>(p);
                        }
                    }
                    store_acc(acc, cblk[ii * t + jj]);
                }
            }
        }
    }
}

} // namespace

void matmul_i16_i32(const std::int16_t* A, const std::int16_t* B, std::int32_t* C, int m, int k, int n, int r, int s,
                    int t) {
    check_matmul("matmul_i16_i32", A, B, C, m, k, n, r, s, t);
    blocked_matmul(A, B, C, m, k, n, r, s, t);
}

void matmul_i16_i16(const std::int16_t* A, const std::int16_t* B, std::int16_t* C, int m, int k, int n, int r, int s,
                    int t) {
    check_matmul("matmul_i16_i16", A, B, C, m, k, n, r, s, t);
    blocked_matmul(A, B, C, m, k, n, r, s, t);
}

std::uint64_t matmul_cycles(int m, int k, int n, double peak_macs_per_cycle) {
    constexpr const char* name = "matmul_cycles";
    detail::require_non_negative(m, name, "m");
    detail::require_non_negative(k, name, "k");
    detail::require_non_negative(n, name, "n");
    if (!(peak_macs_per_cycle > 0)) detail::fail(name, "the peak must be positive");
    const double macs = static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n);
    return static_cast<std::uint64_t>(std::ceil(macs / (peak_macs_per_cycle * kMatmulEfficiency) - 1e-9));
}

} // namespace npusim::kernels

// matvec reference (matvec.hpp): plain loops over rows and columns, sums in 64 bits truncated to
// int32 (the modular conversion of C++20), so a 32-bit sum wraps as the core's registers do.
#include <npusim/kernels/matvec.hpp>

namespace npusim::kernels {

std::int64_t matvec_index(std::int32_t row, std::int32_t col, std::int32_t m, std::int32_t k, MatvecLayout layout) {
    if (layout == MatvecLayout::row_major) return static_cast<std::int64_t>(row) * k + col;
    return static_cast<std::int64_t>(col / 2) * 2 * m + 2 * static_cast<std::int64_t>(row) + col % 2;
}

void matvec_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t* c, std::int32_t m, std::int32_t k,
                    MatvecLayout layout) {
    constexpr const char* name = "matvec_i16_i32";
    detail::require_non_null(a, name, "a");
    detail::require_non_null(b, name, "b");
    detail::require_non_null(c, name, "c");
    detail::require_positive(m, name, "m");
    detail::require_positive(k, name, "k");
    if (layout == MatvecLayout::word_transposed) {
        detail::require_multiple(m, 16, name, "m", "the vector variant computes 16 rows at a time");
        detail::require_multiple(k, 8, name, "k", "the vector variant reads 8 columns at a time");
    }
    for (std::int32_t row = 0; row < m; ++row) {
        std::int64_t sum = c[row];
        for (std::int32_t col = 0; col < k; ++col)
            sum += static_cast<std::int64_t>(a[matvec_index(row, col, m, k, layout)]) * b[col];
        c[row] = static_cast<std::int32_t>(static_cast<std::uint32_t>(sum));
    }
}

std::uint64_t matvec_scalar_cycles(std::int32_t m, std::int32_t k) {
    return static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(k);
}

std::uint64_t matvec_vectorized_cycles(std::int32_t m, std::int32_t k) {
    const std::uint64_t outer = static_cast<std::uint64_t>((k + 7) / 8), inner = static_cast<std::uint64_t>((m + 15) / 16);
    return outer * (inner * 3 + 1);
}

} // namespace npusim::kernels

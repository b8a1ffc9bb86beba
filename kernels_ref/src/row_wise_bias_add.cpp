#include <npusim/kernels/row_wise_bias_add.hpp>

namespace npusim::kernels {

void row_wise_bias_add_f32(const float* in, const float* bias, float* out, std::int32_t m, std::int32_t n) {
    constexpr const char* name = "row_wise_bias_add_f32";
    detail::require_non_null(in, name, "in");
    detail::require_non_null(bias, name, "bias");
    detail::require_non_null(out, name, "out");
    detail::require_positive(m, name, "m");
    detail::require_positive(n, name, "n");
    detail::require_multiple(n, kBiasAddVectorLanes, name, "n",
                             "the AIE kernel adds the bias in strips of 32-float vectors");
    for (std::int64_t i = 0; i < m; ++i) {
        const std::int64_t row = i * n;
        for (std::int64_t j = 0; j < n; ++j) out[row + j] = in[row + j] + bias[j];
    }
}

std::uint64_t row_wise_bias_add_f32_cycles(std::int32_t m, std::int32_t n) {
    constexpr const char* name = "row_wise_bias_add_f32_cycles";
    detail::require_non_negative(m, name, "m");
    detail::require_non_negative(n, name, "n");
    const std::uint64_t elems = static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(n);
    return ceil_div(elems, kBiasAddFloatsPerCycle) +
           kBiasAddStripCycles * ceil_div(static_cast<std::uint64_t>(n), kBiasAddVectorLanes);
}

} // namespace npusim::kernels

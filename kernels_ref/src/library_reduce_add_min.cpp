#include "npusim/kernels/library/reduce_add_min.hpp"

#include <limits>
#include <stdexcept>
#include <string>

namespace npusim::kernels::library {

namespace {
void check(const void* in, const void* out, std::int32_t n, bool vector, const char* who) {
    if (!in || !out) throw std::invalid_argument(std::string(who) + ": null pointer");
    if (n < 0) throw std::invalid_argument(std::string(who) + ": n must be >= 0, got " + std::to_string(n));
    if (vector && (n % kReduceLanesI32 != 0 || n / kReduceLanesI32 < kReduceMinIterations))
        throw std::invalid_argument(std::string(who) + ": n must be a multiple of 16 of at least 128, got " +
                                    std::to_string(n));
}

std::int32_t wrapping_sum(const std::int32_t* in, std::int32_t n) {
    std::uint32_t s = 0;
    for (std::int32_t i = 0; i < n; ++i) s += static_cast<std::uint32_t>(in[i]);
    return static_cast<std::int32_t>(s);
}

std::int32_t minimum(const std::int32_t* in, std::int32_t n) {
    std::int32_t m = std::numeric_limits<std::int32_t>::max();
    for (std::int32_t i = 0; i < n; ++i)
        if (in[i] < m) m = in[i];
    return m;
}
} // namespace

void reduce_add_vector_i32(const std::int32_t* in, std::int32_t* out, std::int32_t n) {
    check(in, out, n, true, "reduce_add_vector_i32");
    *out = wrapping_sum(in, n);
}
void reduce_add_scalar_i32(const std::int32_t* in, std::int32_t* out, std::int32_t n) {
    check(in, out, n, false, "reduce_add_scalar_i32");
    *out = wrapping_sum(in, n);
}
void reduce_min_vector_i32(const std::int32_t* in, std::int32_t* out, std::int32_t n) {
    check(in, out, n, true, "reduce_min_vector_i32");
    *out = minimum(in, n);
}
void reduce_min_scalar_i32(const std::int32_t* in, std::int32_t* out, std::int32_t n) {
    check(in, out, n, false, "reduce_min_scalar_i32");
    *out = minimum(in, n);
}

std::uint64_t reduce_vector_i32_cycles(std::int32_t n) {
    return ceil_div(static_cast<std::uint64_t>(n < 0 ? 0 : n), kReduceLanesI32) + kReduceTailCycles;
}
std::uint64_t reduce_scalar_i32_cycles(std::int32_t n) {
    return kScalarLoopCyclesPerElement * static_cast<std::uint64_t>(n < 0 ? 0 : n);
}

} // namespace npusim::kernels::library

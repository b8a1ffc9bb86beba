#include <npusim/kernels/vector_scalar_mul.hpp>

namespace npusim::kernels {
namespace {

// Low 16 bits of the exact product of two int16 (computed in 32 bits as the acc32 does).
inline std::int16_t mul_wrap(std::int16_t a, std::int16_t f) {
    const std::int32_t p = static_cast<std::int32_t>(a) * static_cast<std::int32_t>(f);
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(static_cast<std::uint32_t>(p) & 0xFFFFu));
}

// Low 32 bits of the exact product of two int32 (computed in 64 bits as the acc64 does).
inline std::int32_t mul_wrap(std::int32_t a, std::int32_t f) {
    const std::int64_t p = static_cast<std::int64_t>(a) * static_cast<std::int64_t>(f);
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(p)));
}

template <typename T>
void check_common(const char* name, const T* in, const T* out, const std::int32_t* factor, std::int32_t n) {
    detail::require_non_null(in, name, "in");
    detail::require_non_null(out, name, "out");
    detail::require_non_null(factor, name, "factor");
    detail::require_non_negative(n, name, "n");
}

void check_vector(const char* name, std::int32_t n) {
    detail::require_multiple(n, kVsmVectorLanes, name, "n", "the AIE kernel processes whole 32-element vectors");
    detail::require_at_least(n, static_cast<std::int64_t>(kVsmVectorLanes) * kVsmMinIterations, name, "n",
                             "the AIE kernel's loop is compiled for at least 16 iterations of 32 elements");
}

template <typename T>
void scale(const T* in, T* out, std::int32_t factor, std::int32_t n) {
    // The kernel converts the int32 factor to T first (int16: keeps the low 16 bits).
    const T f = static_cast<T>(factor);
    for (std::int32_t i = 0; i < n; ++i) out[i] = mul_wrap(in[i], f);
}

std::uint64_t checked_n(std::int32_t n, const char* name) {
    detail::require_non_negative(n, name, "n");
    return static_cast<std::uint64_t>(n);
}

} // namespace

void vector_scalar_mul_i16(const std::int16_t* in, std::int16_t* out, const std::int32_t* factor, std::int32_t n) {
    constexpr const char* name = "vector_scalar_mul_i16";
    check_common(name, in, out, factor, n);
    check_vector(name, n);
    scale(in, out, *factor, n);
}

void vector_scalar_mul_i32(const std::int32_t* in, std::int32_t* out, const std::int32_t* factor, std::int32_t n) {
    constexpr const char* name = "vector_scalar_mul_i32";
    check_common(name, in, out, factor, n);
    check_vector(name, n);
    scale(in, out, *factor, n);
}

void vector_scalar_mul_scalar_i16(const std::int16_t* in, std::int16_t* out, const std::int32_t* factor,
                                  std::int32_t n) {
    check_common("vector_scalar_mul_scalar_i16", in, out, factor, n);
    scale(in, out, *factor, n);
}

void vector_scalar_mul_scalar_i32(const std::int32_t* in, std::int32_t* out, const std::int32_t* factor,
                                  std::int32_t n) {
    check_common("vector_scalar_mul_scalar_i32", in, out, factor, n);
    scale(in, out, *factor, n);
}

std::uint64_t vector_scalar_mul_i16_cycles(std::int32_t n) {
    const std::uint64_t un = checked_n(n, "vector_scalar_mul_i16_cycles");
    return kVsmI16CyclesPerVector * ceil_div(un, kVsmVectorLanes);
}

std::uint64_t vector_scalar_mul_i32_cycles(std::int32_t n) {
    const std::uint64_t un = checked_n(n, "vector_scalar_mul_i32_cycles");
    return ceil_div(un * (kVsmI32CalibCycles - kKernelCallOverheadCycles), kVsmI32CalibElements);
}

std::uint64_t vector_scalar_mul_scalar_i16_cycles(std::int32_t n) {
    return kVsmScalarCyclesPerElement * checked_n(n, "vector_scalar_mul_scalar_i16_cycles");
}

std::uint64_t vector_scalar_mul_scalar_i32_cycles(std::int32_t n) {
    return kVsmScalarCyclesPerElement * checked_n(n, "vector_scalar_mul_scalar_i32_cycles");
}

} // namespace npusim::kernels

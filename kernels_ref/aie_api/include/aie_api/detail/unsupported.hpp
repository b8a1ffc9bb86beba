#pragma once
// AIE API entry points the host layer does not implement. Each one compiles to a readable
// static_assert as soon as a kernel uses it, instead of silently computing something else.
#include "accum.hpp"
#include "config.hpp"
#include "vector.hpp"

#include <type_traits>

namespace aie {

#define NPUSIM_AIE_UNSUPPORTED_FN(NAME)                                                                                \
    template <typename... Args>                                                                                        \
    auto NAME(const Args&...) {                                                                                        \
        static_assert(detail::always_false<Args...>,                                                                   \
                      "npusim aie_api: aie::" #NAME " is not supported by the host layer (its hardware "               \
                      "numerics are not modelled); use a reference kernel instead");                                   \
    }
NPUSIM_AIE_UNSUPPORTED_FN(sqrt)
NPUSIM_AIE_UNSUPPORTED_FN(sin)
NPUSIM_AIE_UNSUPPORTED_FN(cos)
NPUSIM_AIE_UNSUPPORTED_FN(sincos)
NPUSIM_AIE_UNSUPPORTED_FN(sincos_complex)
NPUSIM_AIE_UNSUPPORTED_FN(mul_conj)
NPUSIM_AIE_UNSUPPORTED_FN(abs_square)
NPUSIM_AIE_UNSUPPORTED_FN(conj)
NPUSIM_AIE_UNSUPPORTED_FN(fft_dit_r2_stage)
NPUSIM_AIE_UNSUPPORTED_FN(fft_dit_r3_stage)
NPUSIM_AIE_UNSUPPORTED_FN(fft_dit_r4_stage)
NPUSIM_AIE_UNSUPPORTED_FN(fft_dit_r5_stage)
NPUSIM_AIE_UNSUPPORTED_FN(begin_circular)
NPUSIM_AIE_UNSUPPORTED_FN(begin_vector_circular)
NPUSIM_AIE_UNSUPPORTED_FN(begin_restrict_vector_circular)
NPUSIM_AIE_UNSUPPORTED_FN(begin_random_circular)
#undef NPUSIM_AIE_UNSUPPORTED_FN

#define NPUSIM_AIE_UNSUPPORTED_MSG(NAME)                                                                               \
    "npusim aie_api: aie::" NAME " is not supported by the host layer; write the kernel with aie::mul/mac/"            \
    "mmul or use a reference kernel"

// Symmetric sliding multiplications: template parameters are taken as given and rejected on use.
template <unsigned Lanes, unsigned Points, int CoeffStep = 1, int DataStepX = 1, int DataStepY = DataStepX,
          typename CoeffType = int16, typename DataType = int16, typename AccumTag = accauto>
struct sliding_mul_sym_ops {
    static_assert(detail::always_false<CoeffType>, NPUSIM_AIE_UNSUPPORTED_MSG("sliding_mul_sym_ops"));
};
template <typename... Ts>
struct linear_approx {
    static_assert(detail::always_false<Ts...>, NPUSIM_AIE_UNSUPPORTED_MSG("linear_approx"));
};
template <typename T, unsigned N>
class sparse_vector {
    static_assert(detail::always_false<T>, NPUSIM_AIE_UNSUPPORTED_MSG("sparse_vector"));
};
#undef NPUSIM_AIE_UNSUPPORTED_MSG

// Functions that can only be called with one of the unsupported types above.
template <auto... Params, typename... Args>
auto sliding_mul(const Args&...) {
    static_assert(detail::always_false<Args...>, "npusim aie_api: aie::sliding_mul is not supported by the host layer");
}
template <auto... Params, typename... Args>
auto sliding_mac(const Args&...) {
    static_assert(detail::always_false<Args...>, "npusim aie_api: aie::sliding_mac is not supported by the host layer");
}

} // namespace aie

// aie::operators (operator overloads on vectors and accumulators) are not provided: a kernel that
// uses them gets a readable static_assert instead of an unknown-name or no-match error.
namespace aie::operators {
namespace unsupported_detail {
template <typename T>
struct is_aie_type : std::false_type {};
template <typename T, unsigned N>
struct is_aie_type<aie::vector<T, N>> : std::true_type {};
template <typename Tag, unsigned N>
struct is_aie_type<aie::accum<Tag, N>> : std::true_type {};
template <typename A, typename B>
inline constexpr bool any_aie = is_aie_type<A>::value || is_aie_type<B>::value;
} // namespace unsupported_detail

#define NPUSIM_AIE_UNSUPPORTED_OP(OP)                                                                                  \
    template <typename A, typename B>                                                                                  \
    requires unsupported_detail::any_aie<A, B>                                                                         \
    auto operator OP(const A&, const B&) {                                                                             \
        static_assert(aie::detail::always_false<A, B>,                                                                 \
                      "npusim aie_api: aie::operators (operator " #OP ") are not supported by the host "               \
                      "layer; call aie::add / aie::sub / aie::mul / aie::lt / aie::eq ... explicitly");                \
    }
NPUSIM_AIE_UNSUPPORTED_OP(+)
NPUSIM_AIE_UNSUPPORTED_OP(-)
NPUSIM_AIE_UNSUPPORTED_OP(*)
NPUSIM_AIE_UNSUPPORTED_OP(<)
NPUSIM_AIE_UNSUPPORTED_OP(>)
NPUSIM_AIE_UNSUPPORTED_OP(<=)
NPUSIM_AIE_UNSUPPORTED_OP(>=)
NPUSIM_AIE_UNSUPPORTED_OP(==)
NPUSIM_AIE_UNSUPPORTED_OP(!=)
NPUSIM_AIE_UNSUPPORTED_OP(&)
NPUSIM_AIE_UNSUPPORTED_OP(|)
NPUSIM_AIE_UNSUPPORTED_OP(^)
#undef NPUSIM_AIE_UNSUPPORTED_OP
} // namespace aie::operators

#pragma once
// npusim AIE-API host layer: configuration, element types, rounding/saturation state, event hook,
// loop-pragma macros.
//
// This is npusim's own implementation of the AIE API surface that AIE kernel sources use, so the same
// source compiles with g++ on x86 and computes the bits the AIE-ML (AIE2) / AIE2P core computes.
// Nothing here is derived from AMD's headers; semantics follow AMD's published API documentation and
// are recorded next to each function.
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <npusim/kernels/bfloat16.hpp>
#include <npusim_aie_base.hpp>

// ---------------------------------------------------------------------------------------------
// Target architecture. AIE sources test __AIE_ARCH__ (20 = AIE-ML/AIE2, 21 = AIE2P). npusim never
// defines it on its own; a build may define NPUSIM_AIE_ARCH (20 or 21) or __AIE_ARCH__ to restrict
// aie::mmul to one generation's shapes. Without either, the union of both generations is accepted.
#if !defined(NPUSIM_AIE_ARCH) && defined(__AIE_ARCH__)
#define NPUSIM_AIE_ARCH __AIE_ARCH__
#endif
// Peano's driver spells it __AIEARCH__ (20 / 21); accept that too.
#if !defined(NPUSIM_AIE_ARCH) && defined(__AIEARCH__)
#define NPUSIM_AIE_ARCH __AIEARCH__
#endif
#ifndef NPUSIM_AIE_ARCH
#define NPUSIM_AIE_ARCH 0
#endif

// Scalar bfloat16 compound assignment, as the AIE compilers' scalar bfloat16 has it (mlir-aie's
// mm.cc writes `bfloat16 c; c += a * b;`): the operation runs in float (bf16 + float is float under
// the usual arithmetic conversions) and the float result is rounded back to bf16 to nearest even
// (Peano's bfloat16(float) constructor, aiev2intrin.h), whatever the vector core's rounding mode.
// An integer or bfloat16 operand converts to float first. Found by argument-dependent lookup.
namespace npusim {
inline bfloat16& operator+=(bfloat16& a, float x) { return a = bfloat16(float(a) + x); }
inline bfloat16& operator-=(bfloat16& a, float x) { return a = bfloat16(float(a) - x); }
inline bfloat16& operator*=(bfloat16& a, float x) { return a = bfloat16(float(a) * x); }
inline bfloat16& operator/=(bfloat16& a, float x) { return a = bfloat16(float(a) / x); }
} // namespace npusim

// ---------------------------------------------------------------------------------------------
// AIE scalar type names (the AIE compilers predefine these; the integer ones and the chess_* loop
// spellings live in npusim_aie_base.hpp, the counterpart of what Peano's force-included header
// brings before any include).
using bfloat16 = npusim::bfloat16;

// std::numeric_limits for bfloat16 (AIE sources call numeric_limits<bfloat16>::lowest()). If
// npusim/kernels/bfloat16.hpp ever provides its own specialization it defines
// NPUSIM_BFLOAT16_HAS_NUMERIC_LIMITS and this one steps aside.
#ifndef NPUSIM_BFLOAT16_HAS_NUMERIC_LIMITS
#define NPUSIM_BFLOAT16_HAS_NUMERIC_LIMITS 1
namespace std {
template <>
struct numeric_limits<npusim::bfloat16> {
    using B = npusim::bfloat16;
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = true;
    static constexpr bool is_integer = false;
    static constexpr bool is_exact = false;
    static constexpr bool has_infinity = true;
    static constexpr bool has_quiet_NaN = true;
    static constexpr bool has_signaling_NaN = true;
    static constexpr bool is_iec559 = false;
    static constexpr bool is_bounded = true;
    static constexpr bool is_modulo = false;
    static constexpr int digits = 8;
    static constexpr int digits10 = 2;
    static constexpr int max_digits10 = 4;
    static constexpr int radix = 2;
    static constexpr int min_exponent = -125;
    static constexpr int min_exponent10 = -37;
    static constexpr int max_exponent = 128;
    static constexpr int max_exponent10 = 38;
    static constexpr std::float_round_style round_style = std::round_to_nearest;
    static constexpr B min() noexcept { return B::from_bits(0x0080); }
    static constexpr B lowest() noexcept { return B::from_bits(0xFF7F); }
    static constexpr B max() noexcept { return B::from_bits(0x7F7F); }
    static constexpr B epsilon() noexcept { return B::from_bits(0x3C00); }
    static constexpr B round_error() noexcept { return B::from_bits(0x3F00); }
    static constexpr B infinity() noexcept { return B::from_bits(0x7F80); }
    static constexpr B quiet_NaN() noexcept { return B::from_bits(0x7FC0); }
    static constexpr B signaling_NaN() noexcept { return B::from_bits(0x7FA0); }
    static constexpr B denorm_min() noexcept { return B::from_bits(0x0001); }
};
} // namespace std
#endif

// ---------------------------------------------------------------------------------------------
// Loop / scheduling pragmas: no-ops on the host. The AIE_* names and parameter spellings match the
// host branch of mlir-aie's aie_kernel_utils.h so that including both is a benign redefinition.
#ifndef AIE_LOOP_UNROLL
#define AIE_LOOP_UNROLL(x)
#endif
#ifndef AIE_LOOP_UNROLL_FULL
#define AIE_LOOP_UNROLL_FULL
#endif
#ifndef AIE_LOOP_NO_UNROLL
#define AIE_LOOP_NO_UNROLL
#endif
#ifndef AIE_LOOP_MIN_ITERATION_COUNT
#define AIE_LOOP_MIN_ITERATION_COUNT(x)
#endif
#ifndef AIE_LOOP_MAX_ITERATION_COUNT
#define AIE_LOOP_MAX_ITERATION_COUNT(x)
#endif
#ifndef AIE_LOOP_RANGE
#define AIE_LOOP_RANGE(a, ...)
#endif
#ifndef AIE_PREPARE_FOR_PIPELINING
#define AIE_PREPARE_FOR_PIPELINING
#endif
#ifndef AIE_NO_PREPARE_FOR_PIPELINING
#define AIE_NO_PREPARE_FOR_PIPELINING
#endif
#ifndef AIE_MODULO_SCHEDULING_BUDGET_RATIO
#define AIE_MODULO_SCHEDULING_BUDGET_RATIO(x)
#endif
#ifndef AIE_KEEP_SW_LOOP
#define AIE_KEEP_SW_LOOP
#endif
#ifndef AIE_PEEL_PIPELINED_LOOP
#define AIE_PEEL_PIPELINED_LOOP(x)
#endif
#ifndef AIE_KEEP_FREE_FOR_PIPELINING
#define AIE_KEEP_FREE_FOR_PIPELINING(x)
#endif
#ifndef AIE_ALLOCATE
#define AIE_ALLOCATE(x)
#endif
#ifndef AIE_NO_HW_LOOP
#define AIE_NO_HW_LOOP
#endif
#ifndef AIE_TRY_INITIATION_INTERVAL
#define AIE_TRY_INITIATION_INTERVAL(x)
#endif
#ifndef AIE_PREPARE_FOR_POSTPIPELINING
#define AIE_PREPARE_FOR_POSTPIPELINING
#endif
#ifndef AIE_LOOP_FLATTEN
#define AIE_LOOP_FLATTEN
#endif
#ifndef AIE_LOOP_HINT
#define AIE_LOOP_HINT(k, v)
#endif
#ifndef AIE_LOOP_GPR_REALLOC
#define AIE_LOOP_GPR_REALLOC
#endif
#ifndef __aie_inline
#define __aie_inline inline
#endif

namespace aie {

// Rounding modes applied by accum::to_vector (shift-round-saturate) and by float -> bfloat16
// conversions. Numeric values are the AIE-ML control-register encodings.
enum class rounding_mode : unsigned {
    floor = 0, // towards -inf
    ceil = 1, // towards +inf
    symmetric_floor = 2, // towards zero
    symmetric_ceil = 3, // away from zero
    negative_inf = 8, // nearest, ties towards -inf
    positive_inf = 9, // nearest, ties towards +inf
    symmetric_zero = 10, // nearest, ties towards zero
    symmetric_inf = 11, // nearest, ties away from zero
    conv_even = 12, // nearest, ties to even
    conv_odd = 13, // nearest, ties to odd
};

// Saturation applied when a value does not fit the destination element type.
enum class saturation_mode : unsigned {
    none = 0, // wrap (keep the low bits, two's complement)
    saturate = 1, // clamp to [min, max] of the destination type
    symmetric = 3, // clamp to [-max, max] (signed destinations)
};

// Accumulator tags. The accumulator class (integer or float) of a multiplication follows its input
// types; the tag fixes the minimum number of bits (acc32/accfloat: 32, acc40..acc64: 64 natively).
struct acc32 {};
struct acc40 {};
struct acc48 {};
struct acc56 {};
struct acc64 {};
struct accfloat {};
struct accauto {};

} // namespace aie

// AIE compiler constants for the raw set_rnd()/get_rnd() intrinsics.
inline constexpr unsigned rnd_floor = 0, rnd_ceil = 1, rnd_sym_floor = 2, rnd_sym_ceil = 3, rnd_neg_inf = 8,
                          rnd_pos_inf = 9, rnd_sym_zero = 10, rnd_sym_inf = 11, rnd_conv_even = 12, rnd_conv_odd = 13;

namespace npusim::aie_api {

// Per-core control-register state the AIE API reads: the current rounding and saturation modes.
// Hardware resets them to floor / none. The state is thread_local; a simulator that interleaves
// several cores on one OS thread (SystemC coroutines) saves and restores it per core with
// get_core_modes()/set_core_modes() around each kernel call (or ScopedCoreModes).
struct CoreModes {
    aie::rounding_mode rounding = aie::rounding_mode::floor;
    aie::saturation_mode saturation = aie::saturation_mode::none;
    friend bool operator==(const CoreModes&, const CoreModes&) = default;
};

namespace detail {
inline thread_local CoreModes tls_core_modes{};
}

inline CoreModes get_core_modes() { return detail::tls_core_modes; }
inline void set_core_modes(CoreModes m) { detail::tls_core_modes = m; }
inline void reset_core_modes() { detail::tls_core_modes = CoreModes{}; }

// RAII: installs the given modes and restores the previous ones on scope exit.
class ScopedCoreModes {
public:
    explicit ScopedCoreModes(CoreModes m = CoreModes{}) : saved_(get_core_modes()) { set_core_modes(m); }
    ~ScopedCoreModes() { set_core_modes(saved_); }
    ScopedCoreModes(const ScopedCoreModes&) = delete;
    ScopedCoreModes& operator=(const ScopedCoreModes&) = delete;

private:
    CoreModes saved_;
};

// event0()/event1() call the installed hook with 0 / 1 (kernels bracket their work with them; the
// simulator marks kernel spans in the trace). No hook installed: the events are ignored.
using EventHook = void (*)(int);
namespace detail {
inline std::atomic<EventHook> event_hook{nullptr};
}
inline void set_event_hook(EventHook hook) { detail::event_hook.store(hook, std::memory_order_relaxed); }
inline EventHook get_event_hook() { return detail::event_hook.load(std::memory_order_relaxed); }
inline void raise_event(int which) {
    if (EventHook h = get_event_hook()) h(which);
}

} // namespace npusim::aie_api

// AIE intrinsics for trace events.
inline void event0() { npusim::aie_api::raise_event(0); }
inline void event1() { npusim::aie_api::raise_event(1); }

namespace aie {

inline void set_rounding(rounding_mode m) { npusim::aie_api::detail::tls_core_modes.rounding = m; }
inline rounding_mode get_rounding() { return npusim::aie_api::detail::tls_core_modes.rounding; }
inline void set_saturation(saturation_mode m) { npusim::aie_api::detail::tls_core_modes.saturation = m; }
inline saturation_mode get_saturation() { return npusim::aie_api::detail::tls_core_modes.saturation; }
// swap_rounding(m) / swap_saturation(m): set the mode and return the previous one (AIE API), so a
// kernel can restore it afterwards.
inline rounding_mode swap_rounding(rounding_mode m) {
    const rounding_mode old = get_rounding();
    set_rounding(m);
    return old;
}
inline saturation_mode swap_saturation(saturation_mode m) {
    const saturation_mode old = get_saturation();
    set_saturation(m);
    return old;
}

// aie::vector_decl_align: the alignment (bytes) for arrays that vector loads read, e.g. LUT tables
// declared alignas(aie::vector_decl_align). [est] 64, one 512-bit register: at least what any
// AIE-ML/AIE2P vector load needs; the host layer itself accepts any address.
inline constexpr unsigned vector_decl_align = 64;

// aie::tile::current().set_rounding(...) spelling.
class tile {
public:
    static tile current() { return tile{}; }
    void set_rounding(rounding_mode m) const { aie::set_rounding(m); }
    rounding_mode get_rounding() const { return aie::get_rounding(); }
    void set_saturation(saturation_mode m) const { aie::set_saturation(m); }
    saturation_mode get_saturation() const { return aie::get_saturation(); }
    rounding_mode swap_rounding(rounding_mode m) const { return aie::swap_rounding(m); }
    saturation_mode swap_saturation(saturation_mode m) const { return aie::swap_saturation(m); }
};

namespace detail {

template <typename...>
inline constexpr bool always_false = false;

// ---- element types ----------------------------------------------------------------------------
template <typename T>
inline constexpr bool is_int_elem = std::is_same_v<T, int8> || std::is_same_v<T, uint8> || std::is_same_v<T, int16> ||
                                    std::is_same_v<T, uint16> || std::is_same_v<T, int32> || std::is_same_v<T, uint32>;
template <typename T>
inline constexpr bool is_float_elem = std::is_same_v<T, bfloat16> || std::is_same_v<T, float>;
template <typename T>
inline constexpr bool is_elem = is_int_elem<T> || is_float_elem<T>;

template <typename T>
inline constexpr unsigned type_bits = sizeof(T) * 8;

// Native vector length: one 512-bit register.
template <typename T>
inline constexpr unsigned native_elems = 512 / type_bits<T>;

inline constexpr bool is_pow2(unsigned n) { return n != 0 && (n & (n - 1)) == 0; }

// Legal aie::vector sizes: a power-of-two element count of 128 to 4096 bits (128/256/512/1024 bits
// are native; larger vectors are groups of native ones, as in the AIE API).
template <typename T, unsigned N>
inline constexpr bool valid_vector_size = is_pow2(N) && N* type_bits<T> >= 128 && N* type_bits<T> <= 4096;

// ---- accumulator tags -------------------------------------------------------------------------
template <typename Tag>
inline constexpr bool is_accum_tag =
    std::is_same_v<Tag, acc32> || std::is_same_v<Tag, acc40> || std::is_same_v<Tag, acc48> ||
    std::is_same_v<Tag, acc56> || std::is_same_v<Tag, acc64> || std::is_same_v<Tag, accfloat>;

template <typename Tag>
inline constexpr bool is_float_accum_tag = std::is_same_v<Tag, accfloat>;

// Native storage bits of an integer tag on AIE-ML/AIE2P: 32 or 64.
template <typename Tag>
inline constexpr unsigned accum_tag_bits = std::is_same_v<Tag, acc32> || std::is_same_v<Tag, accfloat> ? 32 : 64;

template <typename Tag>
using accum_storage_t = std::conditional_t<is_float_accum_tag<Tag>, float,
                                           std::conditional_t<accum_tag_bits<Tag> == 32, std::int32_t, std::int64_t>>;

template <typename Tag>
inline constexpr unsigned accum_min_lanes = std::is_same_v<Tag, acc32> ? 8 : 4;

template <typename Tag, unsigned N>
inline constexpr bool valid_accum_size = is_pow2(N) && N >= accum_min_lanes<Tag>&& N <= 256;

template <typename Tag>
inline constexpr unsigned native_accum_lanes = 16;

// Default accumulator for a multiplication of A x B (AIE API rule): float inputs -> accfloat;
// 32b x 32b -> acc64; 32b x 16b -> acc48 (64 bits natively); everything narrower -> acc32.
template <typename A, typename B>
constexpr auto default_accum_tag_for() {
    static_assert(is_elem<A> && is_elem<B>, "npusim aie_api: unsupported element type in multiplication");
    static_assert(is_float_elem<A> == is_float_elem<B>,
                  "npusim aie_api: a multiplication mixes floating-point and integer operands");
    if constexpr (is_float_elem<A>)
        return accfloat{};
    else if constexpr (type_bits<A> == 32 && type_bits<B> == 32)
        return acc64{};
    else if constexpr (type_bits<A> + type_bits<B> >= 48)
        return acc48{};
    else
        return acc32{};
}

// The tag a multiplication of A x B with requested tag Req produces: accauto -> default; otherwise the
// requested bits in the class the input types dictate (an integer product asked for accfloat gets
// 32 integer bits, as the AIE API does).
template <typename Req, typename A, typename B>
constexpr auto mul_result_tag() {
    if constexpr (std::is_same_v<Req, accauto>) {
        return default_accum_tag_for<A, B>();
    } else {
        static_assert(is_accum_tag<Req>, "npusim aie_api: the accumulator tag must be acc32, acc40, acc48, "
                                         "acc56, acc64, accfloat or accauto");
        if constexpr (is_float_elem<A>) {
            static_assert(accum_tag_bits<Req> == 32,
                          "npusim aie_api: floating-point multiplications accumulate in accfloat (32 bits)");
            return accfloat{};
        } else if constexpr (std::is_same_v<Req, accfloat>) {
            return acc32{};
        } else {
            return Req{};
        }
    }
}

template <typename Req, typename A, typename B>
using mul_result_tag_t = decltype(mul_result_tag<Req, A, B>());

// Tag of an accumulator that holds elements of type T (accum::from_vector, aie::accumulate, ...).
template <typename T>
using accum_tag_for_elem_t =
    std::conditional_t<is_float_elem<T>, accfloat, std::conditional_t<type_bits<T> == 32, acc64, acc32>>;

} // namespace detail
} // namespace aie

#include <npusim/kernels/reduce_max.hpp>

#include <array>
#include <cstddef>
#include <limits>
#include <type_traits>

namespace npusim::kernels {
namespace {

// The most negative finite bfloat16 (what std::numeric_limits<bfloat16>::lowest() is on the AIE).
constexpr std::uint16_t kBf16LowestBits = 0xFF7Fu;

template <typename T>
T lowest_of() {
    if constexpr (std::is_same_v<T, npusim::bfloat16>)
        return npusim::bfloat16::from_bits(kBf16LowestBits);
    else
        return std::numeric_limits<T>::lowest();
}

// max as the kernel computes it: the candidate wins only if it compares strictly greater
// (as float for bfloat16), so NaN candidates never win and ties keep the current value.
template <typename T>
T max_keep(T current, T candidate) {
    if constexpr (std::is_same_v<T, npusim::bfloat16>)
        return static_cast<float>(candidate) > static_cast<float>(current) ? candidate : current;
    else
        return candidate > current ? candidate : current;
}

template <typename T, std::size_t Lanes>
T reduce_vector(const T* in, std::int32_t n) {
    std::array<T, Lanes> running;
    running.fill(lowest_of<T>());
    for (std::int32_t base = 0; base < n; base += static_cast<std::int32_t>(Lanes))
        for (std::size_t l = 0; l < Lanes; ++l)
            running[l] = max_keep(running[l], in[base + static_cast<std::int32_t>(l)]);
    // Butterfly: shift_bytes(v, v, s) with s = 32, 16, 8, 4 (, 2 for bf16) bytes rotates the
    // 64-byte vector down by s / sizeof(T) lanes; each stage folds the upper half onto the lower.
    for (std::size_t shift = Lanes / 2; shift >= 1; shift /= 2) {
        std::array<T, Lanes> rotated;
        for (std::size_t l = 0; l < Lanes; ++l) rotated[l] = running[(l + shift) % Lanes];
        for (std::size_t l = 0; l < Lanes; ++l) running[l] = max_keep(running[l], rotated[l]);
    }
    T result = running[0];
    for (std::size_t l = 1; l < Lanes; ++l) result = max_keep(result, running[l]);
    return result;
}

template <typename T>
T reduce_scalar(const T* in, std::int32_t n) {
    T result = lowest_of<T>();
    for (std::int32_t i = 0; i < n; ++i) result = max_keep(result, in[i]);
    return result;
}

template <typename T>
void check_pointers(const char* name, const T* in, const T* out) {
    detail::require_non_null(in, name, "in");
    detail::require_non_null(out, name, "out");
}

void check_vector_n(const char* name, std::int32_t n, std::int32_t lanes) {
    detail::require_non_negative(n, name, "n");
    const char* why = lanes == kReduceMaxLanesI32 ? "the AIE kernel reads whole 512-bit vectors of 16 x int32"
                                                  : "the AIE kernel reads whole 512-bit vectors of 32 x bfloat16";
    detail::require_multiple(n, lanes, name, "n", why);
    detail::require_at_least(n, static_cast<std::int64_t>(lanes) * kReduceMaxMinIterations, name, "n",
                             "the AIE kernel's vector loop needs at least 8 iterations (n / lanes >= 8)");
}

template <typename T>
void compute_max(const char* name, const T* a, const T* b, T* out) {
    detail::require_non_null(a, name, "a");
    detail::require_non_null(b, name, "b");
    detail::require_non_null(out, name, "out");
    const T va = *a;
    const T vb = *b;
    // Kernel: *out = (*a > *b) ? *a : *b.
    if constexpr (std::is_same_v<T, npusim::bfloat16>)
        *out = static_cast<float>(va) > static_cast<float>(vb) ? va : vb;
    else
        *out = va > vb ? va : vb;
}

} // namespace

void reduce_max_vector_i32(const std::int32_t* in, std::int32_t* out, std::int32_t n) {
    constexpr const char* name = "reduce_max_vector_i32";
    check_pointers(name, in, out);
    check_vector_n(name, n, kReduceMaxLanesI32);
    *out = reduce_vector<std::int32_t, kReduceMaxLanesI32>(in, n);
}

void reduce_max_scalar_i32(const std::int32_t* in, std::int32_t* out, std::int32_t n) {
    constexpr const char* name = "reduce_max_scalar_i32";
    check_pointers(name, in, out);
    detail::require_non_negative(n, name, "n");
    *out = reduce_scalar(in, n);
}

void compute_max_i32(const std::int32_t* a, const std::int32_t* b, std::int32_t* out) {
    compute_max("compute_max_i32", a, b, out);
}

void reduce_max_vector_bf16(const npusim::bfloat16* in, npusim::bfloat16* out, std::int32_t n) {
    constexpr const char* name = "reduce_max_vector_bf16";
    check_pointers(name, in, out);
    check_vector_n(name, n, kReduceMaxLanesBf16);
    *out = reduce_vector<npusim::bfloat16, kReduceMaxLanesBf16>(in, n);
}

void reduce_max_scalar_bf16(const npusim::bfloat16* in, npusim::bfloat16* out, std::int32_t n) {
    constexpr const char* name = "reduce_max_scalar_bf16";
    check_pointers(name, in, out);
    detail::require_non_negative(n, name, "n");
    *out = reduce_scalar(in, n);
}

void compute_max_bf16(const npusim::bfloat16* a, const npusim::bfloat16* b, npusim::bfloat16* out) {
    compute_max("compute_max_bf16", a, b, out);
}

std::uint64_t reduce_max_vector_i32_cycles(std::int32_t n) {
    detail::require_non_negative(n, "reduce_max_vector_i32_cycles", "n");
    return            ceil_div(static_cast<std::uint64_t>(n), kReduceMaxLanesI32 * kReduceMaxVectorsPerCycle) +
           kReduceMaxTailCyclesI32;
}

std::uint64_t reduce_max_vector_bf16_cycles(std::int32_t n) {
    detail::require_non_negative(n, "reduce_max_vector_bf16_cycles", "n");
    return            ceil_div(static_cast<std::uint64_t>(n), kReduceMaxLanesBf16 * kReduceMaxVectorsPerCycle) +
           kReduceMaxTailCyclesBf16;
}

std::uint64_t reduce_max_scalar_cycles(std::int32_t n) {
    detail::require_non_negative(n, "reduce_max_scalar_cycles", "n");
    return kReduceMaxScalarCyclesPerElement * static_cast<std::uint64_t>(n);
}

std::uint64_t compute_max_cycles() { return kReduceMaxScalarCyclesPerElement; }

} // namespace npusim::kernels

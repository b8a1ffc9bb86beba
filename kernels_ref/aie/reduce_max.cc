// reduce_max: running element-wise maximum over 512-bit registers, then a butterfly of rotations
// (shift_bytes by half, quarter, ... of the register) so every lane holds the maximum, then one lane.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

template <typename T>
void reduce_max_vectorized(const T* __restrict in, T* __restrict out, int32_t n) {
    using V = aie::vector<T>; // native 512-bit register
    constexpr int32_t lanes = V::size();
    event0();
    V best = aie::broadcast<T>(std::numeric_limits<T>::lowest());
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_MIN_ITERATION_COUNT(8)
    for (int32_t i = 0; i < n; i += lanes) best = aie::max(best, aie::load_v(in + i));
    // Fold: after the step with distance d bytes, lane i holds the max of lanes i, i + d/size, ...
    for (unsigned bytes = 32; bytes >= sizeof(T); bytes /= 2) best = aie::max(best, shift_bytes(best, best, bytes));
    *out = aie::reduce_max(best);
    event1();
}

template <typename T>
bool greater(T a, T b) {
    if constexpr (std::is_same_v<T, bfloat16>)
        return float(a) > float(b);
    else
        return a > b;
}

template <typename T>
void reduce_max_plain(const T* in, T* out, int32_t n) {
    event0();
    T best = std::numeric_limits<T>::lowest();
    for (int32_t i = 0; i < n; ++i)
        if (greater(in[i], best)) best = in[i];
    *out = best;
    event1();
}

} // namespace

namespace npusim::aie_kernels {

void reduce_max_vector(const std::int32_t* in, std::int32_t* out, std::int32_t n) { reduce_max_vectorized(in, out, n); }
void reduce_max_vector_bfloat16(const bfloat16* in, bfloat16* out, std::int32_t n) {
    reduce_max_vectorized(in, out, n);
}
void reduce_max_scalar(const std::int32_t* in, std::int32_t* out, std::int32_t n) { reduce_max_plain(in, out, n); }
void reduce_max_scalar_bfloat16(const bfloat16* in, bfloat16* out, std::int32_t n) { reduce_max_plain(in, out, n); }
void compute_max(const std::int32_t* a, const std::int32_t* b, std::int32_t* out) {
    event0();
    *out = *a > *b ? *a : *b;
    event1();
}

} // namespace npusim::aie_kernels

// reduce_add / reduce_min (aie_kernels/aie2/reduce_add.cc, reduce_min.cc): a running lane-wise add
// or min over 512-bit registers, then a butterfly of rotations (shift_bytes by 32, 16, 8, 4 bytes)
// so lane 0 holds the result, extracted as the upstream kernels do.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels_library.hpp>

#include <limits>

namespace {

template <bool Add>
void reduce_vectorized(const int32_t* __restrict in, int32_t* __restrict out, int32_t n) {
    using V = aie::vector<int32, 16>;
    event0();
    V acc = aie::broadcast<int32, 16>(Add ? 0 : std::numeric_limits<int32_t>::max());
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_MIN_ITERATION_COUNT(8)
    for (int32_t i = 0; i < n; i += 16) {
        const V next = aie::load_v<16>(in + i);
        acc = Add ? aie::add(acc, next) : aie::min(acc, next);
    }
    for (unsigned bytes = 32; bytes >= 4; bytes /= 2) {
        const V shifted = shift_bytes(acc, acc, bytes);
        acc = Add ? aie::add(acc, shifted) : aie::min(acc, shifted);
    }
    *out = acc.get(0);
    event1();
}

template <bool Add>
void reduce_plain(const int32_t* in, int32_t* out, int32_t n) {
    event0();
    if constexpr (Add) {
        uint32_t total = 0; // the core's 32-bit add wraps
        for (int32_t i = 0; i < n; ++i) total += static_cast<uint32_t>(in[i]);
        *out = static_cast<int32_t>(total);
    } else {
        int32_t m = std::numeric_limits<int32_t>::max();
        for (int32_t i = 0; i < n; ++i)
            if (in[i] < m) m = in[i];
        *out = m;
    }
    event1();
}

} // namespace

namespace npusim::aie_kernels {

void reduce_add_vector(const std::int32_t* in, std::int32_t* out, std::int32_t n) {
    reduce_vectorized<true>(in, out, n);
}
void reduce_add_scalar(const std::int32_t* in, std::int32_t* out, std::int32_t n) { reduce_plain<true>(in, out, n); }
void reduce_min_vector(const std::int32_t* in, std::int32_t* out, std::int32_t n) {
    reduce_vectorized<false>(in, out, n);
}
void reduce_min_scalar(const std::int32_t* in, std::int32_t* out, std::int32_t n) { reduce_plain<false>(in, out, n); }

} // namespace npusim::aie_kernels

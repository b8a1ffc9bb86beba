// passThrough: copy a line through the core's vector registers, one 512-bit register per step.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

template <typename T>
void pass_through_vectorized(const T* __restrict in, T* __restrict out, int32_t n) {
    constexpr unsigned lanes = 64 / sizeof(T); // one 512-bit register
    event0();
    auto src = aie::cbegin_vector<lanes>(in);
    auto dst = aie::begin_vector<lanes>(out);
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_MIN_ITERATION_COUNT(4)
    for (int32_t i = 0; i < n / static_cast<int32_t>(lanes); ++i) *dst++ = *src++;
    event1();
}

} // namespace

namespace npusim::aie_kernels {

void passThroughLine(const std::uint8_t* in, std::uint8_t* out, std::int32_t n) { pass_through_vectorized(in, out, n); }
void passThroughLine(const std::int16_t* in, std::int16_t* out, std::int32_t n) { pass_through_vectorized(in, out, n); }
void passThroughLine(const std::int32_t* in, std::int32_t* out, std::int32_t n) { pass_through_vectorized(in, out, n); }

} // namespace npusim::aie_kernels

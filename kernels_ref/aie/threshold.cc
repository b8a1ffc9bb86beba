// thresholdLine (u8): compare each pixel with the threshold (one mask per register) and select from
// constant registers. A line whose width is not a multiple of the register finishes through a padded
// register copy.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

constexpr unsigned kLanes = 64;
using Line = aie::vector<uint8, kLanes>;

template <uint8_t Type>
inline Line threshold_register(const Line& x, const Line& thresh, const Line& maxval, const Line& zero) {
    const aie::mask<kLanes> above = aie::lt(thresh, x); // x > threshold
    if constexpr (Type == npusim::aie_kernels::THRESH_BINARY)
        return aie::select(zero, maxval, above);
    else if constexpr (Type == npusim::aie_kernels::THRESH_BINARY_INV)
        return aie::select(maxval, zero, above);
    else if constexpr (Type == npusim::aie_kernels::THRESH_TRUNC)
        return aie::min(thresh, x);
    else if constexpr (Type == npusim::aie_kernels::THRESH_TOZERO)
        return aie::select(zero, x, above);
    else
        return aie::select(x, zero, above);
}

template <uint8_t Type>
void threshold_line(const uint8* __restrict in, uint8* __restrict out, int32_t width, uint8 t, uint8 mx) {
    const Line thresh = aie::broadcast<uint8, kLanes>(t);
    const Line maxval = aie::broadcast<uint8, kLanes>(mx);
    const Line zero = aie::zeros<uint8, kLanes>();
    int32_t j = 0;
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_MIN_ITERATION_COUNT(14)
    for (; j + static_cast<int32_t>(kLanes) <= width; j += kLanes)
        aie::store_v(out + j, threshold_register<Type>(aie::load_v<kLanes>(in + j), thresh, maxval, zero));
    if (j < width) {
        uint8 tail[kLanes] = {};
        std::memcpy(tail, in + j, static_cast<std::size_t>(width - j));
        aie::store_v(tail, threshold_register<Type>(aie::load_v<kLanes>(tail), thresh, maxval, zero));
        std::memcpy(out + j, tail, static_cast<std::size_t>(width - j));
    }
}

} // namespace

namespace npusim::aie_kernels {

void thresholdLine(const std::uint8_t* in, std::uint8_t* out, std::int32_t width, std::uint8_t threshold,
                   std::uint8_t maxval, std::uint8_t type) {
    event0();
    switch (type) {
    case THRESH_BINARY: threshold_line<THRESH_BINARY>(in, out, width, threshold, maxval); break;
    case THRESH_BINARY_INV: threshold_line<THRESH_BINARY_INV>(in, out, width, threshold, maxval); break;
    case THRESH_TOZERO: threshold_line<THRESH_TOZERO>(in, out, width, threshold, maxval); break;
    case THRESH_TOZERO_INV: threshold_line<THRESH_TOZERO_INV>(in, out, width, threshold, maxval); break;
    default: threshold_line<THRESH_TRUNC>(in, out, width, threshold, maxval); break;
    }
    event1();
}

} // namespace npusim::aie_kernels

// bitwiseORLine / bitwiseANDLine (u8): one 64-lane register of each input a step, aie::bit_or /
// aie::bit_and, one store (aie_kernels/aie2/bitwiseOR.cc, bitwiseAND.cc with BIT_WIDTH 8).
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

constexpr unsigned kLanes = 64;

template <bool Or>
void bitwise_line(const uint8* __restrict a, const uint8* __restrict b, uint8* __restrict out, int32_t n) {
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_MIN_ITERATION_COUNT(14)
    for (int32_t j = 0; j < n; j += kLanes) {
        const aie::vector<uint8, kLanes> x = aie::load_v<kLanes>(a + j);
        const aie::vector<uint8, kLanes> y = aie::load_v<kLanes>(b + j);
        if constexpr (Or)
            aie::store_v(out + j, aie::bit_or(x, y));
        else
            aie::store_v(out + j, aie::bit_and(x, y));
    }
}

} // namespace

namespace npusim::aie_kernels {

void bitwiseORLine(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::int32_t n) {
    event0();
    bitwise_line<true>(a, b, out, n);
    event1();
}

void bitwiseANDLine(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::int32_t n) {
    event0();
    bitwise_line<false>(a, b, out, n);
    event1();
}

} // namespace npusim::aie_kernels

// filter2dLine: 3x3 filter over three u8 lines with an int16 Q12 kernel, 32 output pixels per step,
// computing what mlir-aie's aie2/filter2d.cc (3ca0193) computes: the taps are the coefficients' high
// bytes (int8 in Q4, filter2d.cc:100), products of u8 pixels and taps accumulate in acc32, and one
// SRS by 4 (floor rounding, saturate) yields u8 pixels. The left and right neighbours of a register
// come from shuffling in the adjacent register (shuffle_up_fill / shuffle_down_fill); at the line ends
// the edge pixel is replicated. As upstream's middle loop does (:144-145), the register carried to the
// next block is the shifted one from the second block on, so the first pixel of the third and later
// blocks takes the pixel two to its left as its left neighbour. width: a multiple of 32, at least 64.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

constexpr unsigned kLanes = 32;
constexpr int kShift = 12 - 8; // the Q12 coefficients' high bytes are Q4
using Px = aie::vector<uint8, kLanes>;

} // namespace

namespace npusim::aie_kernels {

void filter2dLine(const std::uint8_t* __restrict line0, const std::uint8_t* __restrict line1,
                  const std::uint8_t* __restrict line2, std::uint8_t* __restrict out, std::int32_t width,
                  const std::int16_t* __restrict kernel) {
    event0();
    aie::set_rounding(aie::rounding_mode::floor);
    aie::set_saturation(aie::saturation_mode::saturate);
    const uint8* lines[3] = {line0, line1, line2};
    int16 k[9];
    for (int i = 0; i < 9; ++i) k[i] = static_cast<int8>(kernel[i] >> 8);

    Px prev[3], cur[3];
    for (int r = 0; r < 3; ++r) cur[r] = aie::load_v<kLanes>(lines[r]);

    AIE_PREPARE_FOR_PIPELINING
    for (int32_t x = 0; x < width; x += kLanes) {
        const bool first = x == 0;
        const bool last = x + static_cast<int32_t>(kLanes) >= width;
        aie::accum<acc32, kLanes> acc;
        for (int r = 0; r < 3; ++r) {
            const Px left = first ? aie::shuffle_up_replicate(cur[r], 1) : aie::shuffle_up_fill(cur[r], prev[r], 1);
            Px next;
            Px right;
            if (last) {
                right = aie::shuffle_down_replicate(cur[r], 1);
            } else {
                next = aie::load_v<kLanes>(lines[r] + x + kLanes);
                right = aie::shuffle_down_fill(cur[r], next, 1);
            }
            acc = r == 0 ? aie::mul(left, k[0]) : aie::mac(acc, left, k[3 * r]);
            acc = aie::mac(acc, cur[r], k[3 * r + 1]);
            acc = aie::mac(acc, right, k[3 * r + 2]);
            prev[r] = first ? cur[r] : left; // the carried register: shifted from the second block on
            cur[r] = next;
        }
        aie::store_v(out + x, acc.to_vector<uint8>(kShift));
    }
    event1();
}

} // namespace npusim::aie_kernels

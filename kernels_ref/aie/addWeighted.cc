// addWeightedLine (u8): out = sat_u8((gamma + a * alpha + b * beta) >> 14), alpha/beta in Q14, as
// mlir-aie's aie2/addWeighted.cc (3ca0193) computes it: gamma is placed in the accumulator unshifted
// (its from_vector(gamma, 0), l.55), the weighted inputs are mac'ed on top, and one SRS by 14 (floor
// rounding, saturate) produces the pixels.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

constexpr unsigned kLanes = 32;
constexpr int kShift = 14;

inline aie::vector<uint8, kLanes> weighted(const aie::accum<acc32, kLanes>& gamma_acc, const uint8* a, const uint8* b,
                                           int16 alpha, int16 beta) {
    aie::accum<acc32, kLanes> acc = aie::mac(gamma_acc, aie::load_v<kLanes>(a), alpha);
    acc = aie::mac(acc, aie::load_v<kLanes>(b), beta);
    return acc.to_vector<uint8>(kShift);
}

} // namespace

namespace npusim::aie_kernels {

void addWeightedLine(const std::uint8_t* __restrict a, const std::uint8_t* __restrict b, std::uint8_t* __restrict out,
                     std::int32_t n, std::int16_t alpha, std::int16_t beta, std::uint8_t gamma) {
    event0();
    aie::set_rounding(aie::rounding_mode::floor);
    aie::set_saturation(aie::saturation_mode::saturate);
    aie::accum<acc32, kLanes> gamma_acc;
    gamma_acc.from_vector(aie::broadcast<int32, kLanes>(gamma), 0);
    int32_t i = 0;
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_MIN_ITERATION_COUNT(14)
    for (; i + static_cast<int32_t>(kLanes) <= n; i += kLanes)
        aie::store_v(out + i, weighted(gamma_acc, a + i, b + i, alpha, beta));
    if (i < n) {
        uint8 ta[kLanes] = {}, tb[kLanes] = {}, tout[kLanes];
        std::memcpy(ta, a + i, static_cast<std::size_t>(n - i));
        std::memcpy(tb, b + i, static_cast<std::size_t>(n - i));
        aie::store_v(tout, weighted(gamma_acc, ta, tb, alpha, beta));
        std::memcpy(out + i, tout, static_cast<std::size_t>(n - i));
    }
    event1();
}

} // namespace npusim::aie_kernels

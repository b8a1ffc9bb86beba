#pragma once
// The LUT-based exp of mlir-aie's aie_runtime_lib (AIE2/lut_based_ops.h and AIE2P/lut_based_ops.h,
// identical for getExpBf16), re-expressed for npusim's AIE-API host layer so kernel sources that
// `#include <lut_based_ops.h>` compile natively.
//
// getExpBf16(x): x in 8.8 fixed point (bfloat16_to_int(x, 8), kept as the low 16 bits of each int32
// lane, as the source's v32int16 + filter_even does: values beyond int16 wrap); the high byte indexes
// the integer table (parallel_lookup step 8), the low byte the fraction table (step 0), both
// lut<4, bfloat16> with lut_oor_policy::truncate; the result is the float product of the two entries.
//
// The tables are the data of lut_based_ops.cpp (exp_ilut_ab/cd, exp_flut_ab/cd), computed here:
// integer entry idx (0..255, the signed byte i = idx < 128 ? idx : idx - 256) = exp(min(i, 88))
// rounded to bf16 to nearest even (entries 89..127 saturate at exp(88)), fraction entry f =
// exp(f / 256) rounded the same way, each 128-bit chunk stored twice (the two banks), ab == cd.
// getTanhBf16(x): upstream's AIE2 version (AIE2/lut_based_ops.h l.83-105 at 3ca0193) is a piecewise
// linear approximation, aie::linear_approx over a 32-segment slope/offset table (step_bits -2, bias
// 16: segments 0.25 wide over [-4, 4)), not a tanh unit. The host computes the exact tanh rounded to
// bf16 to nearest even instead [est]: applying AMD's documented linear_approx formula (index =
// floor(x / step) + bias, output = slope * x + offset) to upstream's table gives results that
// differ from the exact tanh by at most 5.1e-3 over every bf16 input in [-6, 6] (largest at
// x = -0.25), so host and hardware agree to about that much, not bit for bit.
// getInvBf16 is not provided.
#include <aie_api/aie.hpp>

#include <cmath>

namespace npusim::aie_api::lut_based_ops {

struct ExpTables {
    alignas(64) bfloat16 ilut_ab[512];
    alignas(64) bfloat16 ilut_cd[512];
    alignas(64) bfloat16 flut_ab[512];
    alignas(64) bfloat16 flut_cd[512];
    ExpTables() {
        for (unsigned idx = 0; idx < 256; ++idx) {
            const int i = idx < 128 ? static_cast<int>(idx) : static_cast<int>(idx) - 256;
            const auto ie = bfloat16(static_cast<float>(std::exp(static_cast<double>(i < 88 ? i : 88))));
            const auto fe = bfloat16(static_cast<float>(std::exp(static_cast<double>(idx) / 256.0)));
            const unsigned pos = (idx / 8) * 16 + idx % 8;
            ilut_ab[pos] = ilut_ab[pos + 8] = ilut_cd[pos] = ilut_cd[pos + 8] = ie;
            flut_ab[pos] = flut_ab[pos + 8] = flut_cd[pos] = flut_cd[pos + 8] = fe;
        }
    }
};

inline const ExpTables& exp_tables() {
    static const ExpTables t;
    return t;
}

} // namespace npusim::aie_api::lut_based_ops

inline v16accfloat getExpBf16(v16bfloat16 x) {
    const auto& t = npusim::aie_api::lut_based_ops::exp_tables();
    using lut_type = aie::lut<4, bfloat16, bfloat16>;
    constexpr unsigned LUT_elems = 256;
    const lut_type lut_i(LUT_elems, t.ilut_ab, t.ilut_cd);
    const lut_type lut_f(LUT_elems, t.flut_ab, t.flut_cd);
    const aie::parallel_lookup<uint16, lut_type, aie::lut_oor_policy::truncate> lookup_i(lut_i, 8);
    const aie::parallel_lookup<uint16, lut_type, aie::lut_oor_policy::truncate> lookup_f(lut_f, 0);
    // The low 16 bits of each int32 lane (the even int16 halves on the little-endian core).
    const aie::vector<int16, 32> halves = bfloat16_to_int(x, 8).cast_to<int16>();
    const aie::vector<int16, 16> input = aie::filter_even(halves);
    const aie::vector<bfloat16, 16> ival = lookup_i.fetch(input.cast_to<uint16>());
    const aie::vector<bfloat16, 16> fval = lookup_f.fetch(input.cast_to<uint16>());
    return aie::mul(ival, fval);
}

inline v16bfloat16 getTanhBf16(v16bfloat16 x) { return aie::tanh<bfloat16>(x); }

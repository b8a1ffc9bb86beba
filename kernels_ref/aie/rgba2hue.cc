// rgba2hueLine's AIE2 vector path (aie_kernels/aie2/rgba2hue.cc rgba2hue_aie, which upstream runs on
// AIE2 only): 32 pixels a step; the channels unzipped from four 32-byte loads; the divisor
// max - min; its inverse times 85 in Q7.9 read from a 256-entry uint16 table through
// aie::parallel_lookup (lut_inv_8b.h lut_inv_16b_ab/cd); three candidate hues accumulated in acc32
// from 1, 171 and 341 shifted up by 9, plus and minus the u8 x u16 products; SRS by 10 into uint8
// (the core's modes: floor, no saturation at reset, so the hue wraps on its 0..255 circle); the
// candidate chosen by which channel is the maximum (g over r), 0 where the divisor is 0.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace npusim::aie_kernels {

namespace {

constexpr unsigned kInvEntries = 256; // num_entries_lut_inv_16b

// lut_inv_16b: entry d = floor(85 * 2^9 / d) (d = 0: 85 * 2^9), each 8-entry chunk twice (two banks).
struct InvTable {
    alignas(64) std::uint16_t ab[2 * kInvEntries];
    InvTable() {
        for (unsigned d = 0; d < kInvEntries; ++d) {
            const auto v = static_cast<std::uint16_t>(d == 0 ? 43520u : 43520u / d);
            const unsigned pos = (d / 8) * 16 + d % 8;
            ab[pos] = ab[pos + 8] = v;
        }
    }
};

const InvTable& inv_table() {
    static const InvTable t;
    return t;
}

void extract_rgb(const std::uint8_t* p, aie::vector<uint8, 32>& r, aie::vector<uint8, 32>& g,
                 aie::vector<uint8, 32>& b) {
    const auto c0 = aie::load_v<32>(p), c1 = aie::load_v<32>(p + 32), c2 = aie::load_v<32>(p + 64),
               c3 = aie::load_v<32>(p + 96);
    const auto [rg, ba] = aie::interleave_unzip(aie::concat(c0, c1), aie::concat(c2, c3), 2);
    r = aie::filter_even(rg, 1);
    g = aie::filter_odd(rg, 1);
    b = aie::filter_even(ba, 1);
}

aie::vector<uint16, 32> divisor_inverse(const aie::vector<uint8, 32>& divisor) {
    using lut_type = aie::lut<4, uint16, uint16>;
    const lut_type lut(kInvEntries, inv_table().ab, inv_table().ab);
    const aie::parallel_lookup<uint8, lut_type, aie::lut_oor_policy::truncate> lookup(lut, 0);
    const aie::vector<uint16, 16> lo = lookup.fetch(divisor.extract<16>(0));
    const aie::vector<uint16, 16> hi = lookup.fetch(divisor.extract<16>(1));
    return aie::concat(lo, hi);
}

} // namespace

void rgba2hueLine_vector(const std::uint8_t* __restrict in, std::uint8_t* __restrict out, std::int32_t width) {
    const aie::vector<uint8, 32> zero = aie::zeros<uint8, 32>();
    const aie::vector<int16, 32> one = aie::broadcast<int16, 32>(1);
    const aie::vector<int16, 32> two85 = aie::broadcast<int16, 32>(171); // 170 + 1
    const aie::vector<int16, 32> four85 = aie::broadcast<int16, 32>(341); // 340 + 1
    AIE_PREPARE_FOR_PIPELINING
    for (std::int32_t j = 0; j < width / 32; ++j) {
        aie::vector<uint8, 32> r, g, b;
        extract_rgb(in, r, g, b);
        const auto mn = aie::min(aie::min(r, g), b);
        const auto mx = aie::max(aie::max(r, g), b);
        const auto divisor = aie::sub(mx, mn);
        const aie::vector<uint16, 32> inv = divisor_inverse(divisor);
        aie::accum<acc32, 32> hr(one, 9), hg(two85, 9), hb(four85, 9);
        hr = aie::mac(hr, g, inv);
        hg = aie::mac(hg, b, inv);
        hb = aie::mac(hb, r, inv);
        hr = aie::msc(hr, b, inv);
        hg = aie::msc(hg, r, inv);
        hb = aie::msc(hb, g, inv);
        const auto vr = hr.to_vector<uint8>(10), vg = hg.to_vector<uint8>(10), vb = hb.to_vector<uint8>(10);
        const auto t1 = aie::select(vb, vr, aie::eq(mx, r));
        const auto t2 = aie::select(t1, vg, aie::eq(mx, g));
        aie::store_v(out, aie::select(t2, zero, aie::eq(divisor, zero)));
        in += 128;
        out += 32;
    }
}

} // namespace npusim::aie_kernels

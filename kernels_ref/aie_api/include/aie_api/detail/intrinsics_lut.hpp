#pragma once
// The AIE-ML lookup-table loads load_lut_int8 and load_lut_2x_int8 (AI Engine-ML Intrinsics User Guide,
// UG1583, Load/Store Operations > Load 4x Operations; group__group__load__4x.html). What UG1583 states:
// the LUT is given by two 256-bit aligned pointers lut1 and lut2; two more pointers are generated "so
// that they point to uneven memory banks"; the four pointers read four 64-bit values per access, the
// first access giving the low part of the output vector and the second the high part; "every pointer
// is offset by the value of the corresponding lane of the offset input"; the _2x variants return two
// vectors and use the high part of the offset input too. So lane l of the offset (l < 8, or l < 16
// for _2x) yields bytes 8l .. 8l + 7 of the output (lanes 8..15 in the second vector).
//
// What UG1583 leaves open, and what npusim does [est]:
//  - Pointer of lane l: lut1 for l % 4 in {0, 1}, lut2 for {2, 3}; the generated "uneven bank" pointer
//    is 16 bytes (one 128-bit bank word) past it, used by the odd lanes. This is the layout AIE-API
//    documents for aie::lut<4, T> ("data in each LUT has 128 bits repetition in memory, and the LUT
//    has two copies": UG1603 "Lookup Tables and Linear Approximation"), the same model as the host
//    layer's aie::parallel_lookup (README "Lookups"); with consistent copies the choice is invisible.
//  - Offset units: an offset of 4 * i reads entry i of a table of 16-bit values (8 entries per
//    128-bit word, each word followed by its copy). Every upstream table and offset agrees: magika's
//    layer-norm table (data/lut0b_a_group0.txt, 512 int16 = 256 entries in that layout) indexed by
//    sups(index, 2) (inc/funcs_layernorm.h l.99-102), its softmax and gelu lookups (sups(.., 2)), and
//    AMD's own aie::parallel_lookup for 16-bit values, which shifts the index left by 2 before this
//    load. So the offset addresses the table with both copies interleaved per entry: entry
//    e = offset / 4 (its two low bits select the same entry, as a 16-bit read is aligned) sits at byte
//    d = 2e of one copy, physical byte 32 * (d / 16) + d % 16 (+ 16 for the other copy). Reading the
//    offset as a plain byte offset instead, magika's group0 and group2 kernels miss their reference
//    outputs by far (EVM -5.5 dB and -0.03 dB against data/g0b.txt and data/g2.txt; -34.9 dB and
//    -56.9 dB with this mapping, where test_group0.py / test_group2.py pass below -30 dB).
//  - The 64-bit lane result carries the 16-bit entry in its low bytes; the other 48 bits are what
//    every consumer throws away (magika: "remove zeros in the look up results", shuffle T16_16x4_lo;
//    AMD's parallel_lookup: "discard garbage resulting from 64bit read"). npusim returns them as zero.
#include "intrinsics.hpp"
#include "vector.hpp"

#include <cstdint>
#include <cstring>

namespace npusim::aie_api::detail {
// Lane l's 64-bit result into out (8 bytes) from the tables at lut1 / lut2 and its byte offset.
inline void lut_lane_read(const void* lut1, const void* lut2, unsigned lane, std::int32_t offset, unsigned char* out) {
    const auto* base = static_cast<const unsigned char*>(lane % 4 < 2 ? lut1 : lut2) + (lane % 2) * 16;
    const std::int64_t d = 2 * (static_cast<std::int64_t>(offset) >> 2);
    const std::int64_t phys = 32 * (d >> 4) + (d & 15);
    std::memset(out, 0, 8);
    std::memcpy(out, base + phys, 2);
}
template <typename Off>
inline void lut_load(const void* lut1, const void* lut2, const aie::vector<Off, 16>& offset, unsigned first,
                     aie::vector<int8, 64>& v) {
    unsigned char bytes[64];
    for (unsigned l = 0; l < 8; ++l)
        lut_lane_read(lut1, lut2, first + l, static_cast<std::int32_t>(offset[first + l]), bytes + 8 * l);
    std::memcpy(v.data(), bytes, 64);
}
} // namespace npusim::aie_api::detail

// load_lut_int8(lut1, lut2, offset, v): lanes 0..7 of offset into v.
inline void load_lut_int8(const void* lut1, const void* lut2, const v16int32& offset, v64int8& v) {
    npusim::aie_api::detail::lut_load(lut1, lut2, offset, 0, v);
}
inline void load_lut_int8(const void* lut1, const void* lut2, const v16uint32& offset, v64int8& v) {
    npusim::aie_api::detail::lut_load(lut1, lut2, offset, 0, v);
}
// load_lut_2x_int8(lut1, lut2, offset, v1, v2): lanes 0..7 into v1, lanes 8..15 into v2.
inline void load_lut_2x_int8(const void* lut1, const void* lut2, const v16int32& offset, v64int8& v1, v64int8& v2) {
    npusim::aie_api::detail::lut_load(lut1, lut2, offset, 0, v1);
    npusim::aie_api::detail::lut_load(lut1, lut2, offset, 8, v2);
}
inline void load_lut_2x_int8(const void* lut1, const void* lut2, const v16uint32& offset, v64int8& v1, v64int8& v2) {
    npusim::aie_api::detail::lut_load(lut1, lut2, offset, 0, v1);
    npusim::aie_api::detail::lut_load(lut1, lut2, offset, 8, v2);
}

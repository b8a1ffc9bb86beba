#pragma once
// Table lookups: aie::lut and aie::parallel_lookup (the AIE-ML / AIE2P lookup-table units).
//
// A lut<4, T> serves four lookups a cycle from two tables (ab, cd; the AIE API takes both, normally
// copies of each other), each holding every 128-bit chunk of the logical table twice in a row (the
// two memory banks of mlir-aie's lut_based_ops.cpp layout): logical entry i lives at
// (i / C) * 2C + i % C and at that position + C, with C = 16 bytes / sizeof(T). Lane l of a fetch
// reads copy l % 2 of table (l / 2) % 2 (ab, ab, cd, cd, ...) **[est]**: which lane reads which bank
// is not documented; with consistent tables (as every upstream table is) the choice is invisible.
//
// parallel_lookup<IndexType, lut, policy>(lut, step_bits).fetch(v): index = v[i] >> step_bits
// (arithmetic for signed index types), then the out-of-range policy: truncate keeps the low
// log2(LUT_elems) bits (two's complement wrap), saturate clamps to [0, LUT_elems - 1].
// Only ParallelAccesses == 4 with OffsetType == SlopeType (a plain table, no linear approximation)
// is provided.
#include "vector.hpp"

#include <type_traits>

namespace aie {

enum class lut_oor_policy { saturate, truncate };

template <unsigned ParallelAccesses, typename OffsetType, typename SlopeType = OffsetType>
struct lut {
    static_assert(ParallelAccesses == 4,
                  "npusim aie_api: aie::lut is provided for 4 parallel accesses (two tables ab and cd) only");
    static_assert(std::is_same_v<OffsetType, SlopeType>,
                  "npusim aie_api: aie::lut with separate slope and offset types (aie::linear_approx) is not "
                  "supported by the host layer");
    using value_type = OffsetType;
    static constexpr unsigned parallel_accesses = ParallelAccesses;
    static constexpr unsigned chunk_elems = 16 / sizeof(OffsetType);

    lut(unsigned LUT_elems, const OffsetType* LUT_ab, const OffsetType* LUT_cd)
        : elems_(LUT_elems), ab_(LUT_ab), cd_(LUT_cd) {}

    unsigned size() const { return elems_; }
    /// Logical entry `idx` (0 <= idx < size()) as lane `lane` of a parallel fetch reads it.
    OffsetType entry(unsigned idx, unsigned lane) const {
        const OffsetType* table = ((lane / 2) % 2) == 0 ? ab_ : cd_;
        const unsigned pos = (idx / chunk_elems) * 2 * chunk_elems + idx % chunk_elems + (lane % 2) * chunk_elems;
        return table[pos];
    }

private:
    unsigned elems_;
    const OffsetType* ab_;
    const OffsetType* cd_;
};

template <typename IndexType, typename LutType, lut_oor_policy Policy = lut_oor_policy::saturate>
struct parallel_lookup {
    static_assert(detail::is_int_elem<IndexType>, "npusim aie_api: aie::parallel_lookup indices are integers");
    using value_type = typename LutType::value_type;

    explicit parallel_lookup(const LutType& l, unsigned step_bits = 0) : lut_(l), step_(step_bits) {}

    template <unsigned N>
    vector<value_type, N> fetch(const vector<IndexType, N>& idx) const {
        vector<value_type, N> r;
        const std::int64_t elems = lut_.size();
        for (unsigned i = 0; i < N; ++i) {
            const std::int64_t raw = static_cast<std::int64_t>(idx[i]) >> step_;
            std::int64_t k;
            if constexpr (Policy == lut_oor_policy::truncate)
                k = raw & (elems - 1);
            else
                k = raw < 0 ? 0 : (raw >= elems ? elems - 1 : raw);
            r[i] = lut_.entry(static_cast<unsigned>(k), i);
        }
        return r;
    }

private:
    const LutType& lut_;
    unsigned step_;
};

} // namespace aie

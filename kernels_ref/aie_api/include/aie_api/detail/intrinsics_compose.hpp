#pragma once
// Raw AIE-ML / AIE2P intrinsics that build registers from parts and take parts out of them (the
// intrinsics user guides' "vector set", "insert" and "extract" groups), as magika's kernels write
// them (layer norm: set_v32bfloat16(0, x), insert(x, 1, y), extract_v16bfloat16(x, 1)). Part idx of
// a register cut into parts of M lanes is lanes idx * M .. idx * M + M - 1. The lanes a set_ leaves
// undefined are zero on the host, as undef_ registers are.
#include "accum.hpp"
#include "intrinsics.hpp"
#include "vector.hpp"

#include <stdexcept>
#include <string>

namespace aie::detail {
// The lane offset of part idx of a register of N lanes cut into parts of M lanes; a part outside the
// register is a kernel error (the hardware decodes idx modulo the part count, which no source means).
template <unsigned M, unsigned N>
inline unsigned part_offset(int idx, const char* what) {
    static_assert(M < N && N % M == 0, "npusim aie_api: a part must be a proper divisor of the register");
    if (idx < 0 || static_cast<unsigned>(idx) >= N / M)
        throw std::out_of_range(std::string("npusim aie_api: ") + what + ": part " + std::to_string(idx) +
                                " of a register of " + std::to_string(N / M) + " parts");
    return static_cast<unsigned>(idx) * M;
}
} // namespace aie::detail

// insert(v, idx, part): v with part idx replaced by `part` (M lanes, fewer than v's N).
template <typename T, unsigned N, unsigned M>
requires(M < N) inline aie::vector<T, N> insert(aie::vector<T, N> v, int idx, const aie::vector<T, M>& part) {
    const unsigned at = aie::detail::part_offset<M, N>(idx, "insert");
    for (unsigned i = 0; i < M; ++i) v[at + i] = part[i];
    return v;
}

// set_v<N><T>(idx, part): a register with part idx set from `part` and the other lanes undefined
// (zero here); extract_v<M><T>(v, idx): part idx of v.
#define NPUSIM_AIE_SET(T, N, M)                                                                                        \
    inline v##N##T set_v##N##T(int idx, const v##M##T& part) { return insert(v##N##T{}, idx, part); }
#define NPUSIM_AIE_EXTRACT(T, M)                                                                                       \
    template <unsigned N>                                                                                              \
    requires(M < N) inline v##M##T extract_v##M##T(const aie::vector<T, N>& v, int idx) {                              \
        const unsigned at = aie::detail::part_offset<M, N>(idx, "extract_v" #M #T);                                    \
        v##M##T r;                                                                                                     \
        for (unsigned i = 0; i < M; ++i) r[i] = v[at + i];                                                             \
        return r;                                                                                                      \
    }
NPUSIM_AIE_SET(bfloat16, 32, 16)
NPUSIM_AIE_SET(bfloat16, 64, 32)
NPUSIM_AIE_SET(int16, 32, 16)
NPUSIM_AIE_SET(uint16, 32, 16)
NPUSIM_AIE_SET(int32, 16, 8)
NPUSIM_AIE_SET(int8, 64, 32)
NPUSIM_AIE_SET(uint8, 64, 32)
NPUSIM_AIE_SET(float, 16, 8)
NPUSIM_AIE_EXTRACT(bfloat16, 8)
NPUSIM_AIE_EXTRACT(bfloat16, 16)
NPUSIM_AIE_EXTRACT(bfloat16, 32)
NPUSIM_AIE_EXTRACT(int16, 16)
NPUSIM_AIE_EXTRACT(uint16, 16)
NPUSIM_AIE_EXTRACT(int32, 8)
NPUSIM_AIE_EXTRACT(int32, 16)
NPUSIM_AIE_EXTRACT(int8, 32)
NPUSIM_AIE_EXTRACT(uint8, 32)
NPUSIM_AIE_EXTRACT(float, 8)
#undef NPUSIM_AIE_SET
#undef NPUSIM_AIE_EXTRACT

// broadcast_zero_to_v32int16(): all lanes 0. broadcast_to_v16accfloat(x): every lane x (exact: a
// float accumulator lane holds a float). undef_v16accfloat(): undefined (zero here).
inline v32int16 broadcast_zero_to_v32int16() { return v32int16{}; }
inline v16accfloat broadcast_to_v16accfloat(float x) {
    v16accfloat a;
    a.from_vector(aie::broadcast<float, 16>(x), 0);
    return a;
}
inline v16accfloat undef_v16accfloat() { return v16accfloat{}; }

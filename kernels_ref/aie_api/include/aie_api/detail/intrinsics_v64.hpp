#pragma once
// The AIE-ML 64-bit native vector types (v4bfloat16, v4int16, v4uint16, v2int32, v2uint32, v8int8,
// v8uint8, v2float) and the intrinsics that move them in and out of registers. AIE-API's aie::vector
// starts at 128 bits, so these are their own small type here: 8 bytes, trivially copyable, so a kernel
// can step a `v4bfloat16 *` through memory 8 bytes at a time (mlir-aie's magika group2.cc reads its
// bias that way). Intrinsics (AI Engine-ML Intrinsics User Guide, UG1583, Vector Conversions):
//   extract_v<M><T>(v, idx)      part idx (lanes idx*M .. idx*M+M-1) of a register, as a 64-bit vector
//   insert(v, idx, part)         v with that part replaced
//   broadcast_to_v32bfloat16(p)  / broadcast_to_v32int16(p): the 64-bit pattern repeated over 512 bits
//                                (magika's bias broadcast: lane 4r + c holds p[c])
#include "intrinsics.hpp"
#include "intrinsics_compose.hpp"
#include "vector.hpp"

#include <cstring>
#include <type_traits>

namespace npusim::aie_api {
// A 64-bit register of N elements of T (N * sizeof(T) == 8). Default-constructed lanes are zero.
template <typename T, unsigned N>
struct native64 {
    static_assert(sizeof(T) * N == 8, "npusim aie_api: a 64-bit native vector holds 8 bytes");
    using value_type = T;
    static constexpr unsigned size() { return N; }
    alignas(8) T lanes[N]{};

    T& operator[](unsigned i) { return lanes[i]; }
    const T& operator[](unsigned i) const { return lanes[i]; }
    // The same 64 bits as another 64-bit native type (a native cast, v4int16(v4bfloat16)).
    template <typename U, unsigned M>
    requires(!std::is_same_v<U, T>) explicit native64(const native64<U, M>& o) {
        std::memcpy(static_cast<void*>(lanes), static_cast<const void*>(o.lanes), 8);
    }
    native64() = default;
    friend bool operator==(const native64& a, const native64& b) {
        return std::memcmp(static_cast<const void*>(a.lanes), static_cast<const void*>(b.lanes), 8) == 0;
    }
};
} // namespace npusim::aie_api

using v8int8 = npusim::aie_api::native64<int8, 8>;
using v8uint8 = npusim::aie_api::native64<uint8, 8>;
using v4int16 = npusim::aie_api::native64<int16, 4>;
using v4uint16 = npusim::aie_api::native64<uint16, 4>;
using v4bfloat16 = npusim::aie_api::native64<bfloat16, 4>;
using v2int32 = npusim::aie_api::native64<int32, 2>;
using v2uint32 = npusim::aie_api::native64<uint32, 2>;
using v2float = npusim::aie_api::native64<float, 2>;

// insert(v, idx, part): v with the 64-bit part idx replaced (magika group2_copy: insert(a, 3,
// extract_v4bfloat16(b, 0)) writes lanes 12..15).
template <typename T, unsigned N, unsigned M>
inline aie::vector<T, N> insert(aie::vector<T, N> v, int idx, const npusim::aie_api::native64<T, M>& part) {
    const unsigned at = aie::detail::part_offset<M, N>(idx, "insert");
    for (unsigned i = 0; i < M; ++i) v[at + i] = part[i];
    return v;
}

#define NPUSIM_AIE_EXTRACT64(T, M)                                                                                     \
    template <unsigned N>                                                                                              \
    inline npusim::aie_api::native64<T, M> extract_v##M##T(const aie::vector<T, N>& v, int idx) {                      \
        const unsigned at = aie::detail::part_offset<M, N>(idx, "extract_v" #M #T);                                    \
        npusim::aie_api::native64<T, M> r;                                                                             \
        for (unsigned i = 0; i < M; ++i) r[i] = v[at + i];                                                             \
        return r;                                                                                                      \
    }
NPUSIM_AIE_EXTRACT64(bfloat16, 4)
NPUSIM_AIE_EXTRACT64(int16, 4)
NPUSIM_AIE_EXTRACT64(uint16, 4)
NPUSIM_AIE_EXTRACT64(int32, 2)
NPUSIM_AIE_EXTRACT64(uint32, 2)
NPUSIM_AIE_EXTRACT64(int8, 8)
NPUSIM_AIE_EXTRACT64(uint8, 8)
NPUSIM_AIE_EXTRACT64(float, 2)
#undef NPUSIM_AIE_EXTRACT64

// broadcast_to_v32bfloat16(p) / broadcast_to_v32int16(p): the 64-bit pattern p in every 64-bit
// element of a 512-bit register. [est] UG1583's Broadcast group documents scalar broadcasts; this
// overload's meaning is the one magika's group2_mmul needs: its bias of 4 output channels
// (`broadcast_to_v32bfloat16(*pb++)` with `v4bfloat16 *pb`) seeds a 4x4 output whose lane 4r + c is
// channel c. The example's reference output (data/g2.txt) is met to -56.9 dB EVM this way.
inline v32bfloat16 broadcast_to_v32bfloat16(const v4bfloat16& p) {
    v32bfloat16 r;
    for (unsigned i = 0; i < 32; ++i) r[i] = p[i % 4];
    return r;
}
inline v32int16 broadcast_to_v32int16(const v4int16& p) {
    v32int16 r;
    for (unsigned i = 0; i < 32; ++i) r[i] = p[i % 4];
    return r;
}

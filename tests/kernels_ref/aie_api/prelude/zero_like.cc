// A kernel source written to be #included after <aie_api/aie.hpp> (as mlir-aie's aie2/zero.cc is by
// mm.cc and mv.cc): it names aie::vector and event0() without including anything of the AIE API.
// It compiles on its own only when the build force-includes npusim_aie_prelude.hpp, the host
// layer's counterpart of the intrinsics header Peano's driver force-includes.
#include <cstdint>

template <typename T, int M, int N>
void zero_like(T* __restrict c) {
    constexpr int r = 256 / (sizeof(T) * 8);
    const aie::vector<T, r> z = aie::zeros<T, r>();
    event0();
    for (int i = 0; i < M * N; i += r) aie::store_v(c + i, z);
    event1();
}

extern "C" void zero_like_i16(int16_t* c) { zero_like<int16_t, 4, 16>(c); }

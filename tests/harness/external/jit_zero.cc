// A source shaped like mlir-aie's aie_kernels/aie2/zero.cc: templates that use aie:: without including
// aie_api/aie.hpp, meant to be included by a source that has included it (KernelCompiler_test).
#ifndef JIT_ZERO_CC
#define JIT_ZERO_CC

#include <cstdint>

template <typename T, int N>
void jit_zero_vectorized(T* __restrict c) {
    constexpr int r = 256 / (sizeof(T) * 8);
    const aie::vector<T, r> zeros = aie::zeros<T, r>();
    for (int i = 0; i < N; i += r) aie::store_v(c + i, zeros);
}

#endif

// Includes jit_zero.cc after aie_api/aie.hpp, as mlir-aie's mm.cc includes zero.cc (KernelCompiler_test).
#include <aie_api/aie.hpp>

#include "jit_zero.cc"

extern "C" {
// out[0..63] = 0, then out[i] += in[i]
void jit_zero_then_copy(const int32_t* in, int32_t* out) {
    jit_zero_vectorized<int32_t, 64>(out);
    for (int i = 0; i < 64; ++i) out[i] += in[i];
}
}

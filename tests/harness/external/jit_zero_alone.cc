// jit_zero.cc compiled as a translation unit of its own, with an entry point: fails as it does under
// Peano, since nothing declares aie:: (KernelCompiler_test).
#include "jit_zero.cc"

extern "C" void jit_zero_alone(int32_t* out) { jit_zero_vectorized<int32_t, 64>(out); }

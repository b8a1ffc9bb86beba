#pragma once
// Force-included prelude for AIE kernel sources built against the host layer: pass
// `-include npusim_aie_prelude.hpp` (with -I kernels_ref/aie_api/include) to every kernel TU.
//
// Peano's driver force-includes its intrinsics header into every AIE source (clang -include
// aiev2intrin.h for aie2, aie2pintrin.h for aie2p; llvm-aie clang/lib/Driver/ToolChains/AIE.cpp),
// so native types, intrinsics, event0() and `restrict` exist before the first line of a kernel.
// The host layer's intrinsics are written on top of aie::vector, so its prelude is the whole
// AIE API. That lets a source such as mlir-aie's aie2/zero.cc, which uses aie::vector and event0()
// without including <aie_api/aie.hpp> (it is meant to be #included by mm.cc and mv.cc after
// aie.hpp), compile on its own as well; a source that includes aie.hpp itself is unaffected
// (#pragma once).
#include <aie_api/aie.hpp>

#pragma once
// What every AIE kernel source has before its first line, without the AIE API: Peano's driver
// force-includes its intrinsics header (aiev2intrin.h / aie2pintrin.h; llvm-aie
// clang/lib/Driver/ToolChains/AIE.cpp), which includes aiebase_typedefs.h (<stdint.h> and the scalar
// names int8 .. uint32) and aiebase_chess.h (the chess_* loop and storage spellings, empty). The
// run-time kernel compiler (harness/KernelCompiler) force-includes this header the same way, so a
// source whose first include uses int16_t or chess_storage (mlir-aie's magika lut_group2.h) compiles
// as under Peano; aie:: and the native vector types still need <aie_api/aie.hpp>, as there.
#include <stdint.h>

// The generation macro that Peano's intrinsics header defines with __AIE_ARCH__ (llvm-aie
// clang/lib/Headers/aiev2/aiev2_defines.h: __AIE2__ and 20; aie2p_defines.h: __AIE2P__ and 21).
// The run-time kernel compiler passes __AIE_ARCH__; sources that test the name instead take the
// generation's branch from it (mlir-aie's aie2/rgba2hue.cc l.170 at 3ca0193 runs its vector path
// only under __AIE2__).
#if defined(__AIE_ARCH__) && __AIE_ARCH__ == 20 && !defined(__AIE2__)
#define __AIE2__
#elif defined(__AIE_ARCH__) && __AIE_ARCH__ == 21 && !defined(__AIE2P__)
#define __AIE2P__
#endif

// AIE scalar type names (the AIE compilers predefine these).
using int8 = int8_t;
using uint8 = uint8_t;
using int16 = int16_t;
using uint16 = uint16_t;
using int32 = int32_t;
using uint32 = uint32_t;
using int64 = int64_t;
using uint64 = uint64_t;

// Chess-compiler spellings written directly in kernel sources.
#ifndef chess_prepare_for_pipelining
#define chess_prepare_for_pipelining
#endif
#ifndef chess_no_prepare_for_pipelining
#define chess_no_prepare_for_pipelining
#endif
#ifndef chess_loop_range
#define chess_loop_range(...)
#endif
#ifndef chess_loop_count
#define chess_loop_count(...)
#endif
#ifndef chess_unroll_loop
#define chess_unroll_loop(...)
#endif
#ifndef chess_flatten_loop
#define chess_flatten_loop
#endif
#ifndef chess_no_hw_loop
#define chess_no_hw_loop
#endif
#ifndef chess_modulo_scheduling_budget_ratio
#define chess_modulo_scheduling_budget_ratio(...)
#endif
#ifndef chess_peel_pipelined_loop
#define chess_peel_pipelined_loop(...)
#endif
#ifndef chess_storage
#define chess_storage(...)
#endif
#ifndef chess_copy
#define chess_copy(x) (x)
#endif
#ifndef chess_protect_access
#define chess_protect_access
#endif
#ifndef chess_manifest
#define chess_manifest(x) false
#endif

// Data-memory resource annotations on pointer types (`v16int16 __aie_dm_resource_a *p`): scheduling
// hints to the AIE compilers, no meaning on the host.
#ifndef __aie_dm_resource_a
#define __aie_dm_resource_a
#endif
#ifndef __aie_dm_resource_b
#define __aie_dm_resource_b
#endif
#ifndef __aie_dm_resource_c
#define __aie_dm_resource_c
#endif
#ifndef __aie_dm_resource_d
#define __aie_dm_resource_d
#endif

#pragma once
// Shared pieces of the reference kernels: precondition checking and the architectural figures the
// per-kernel cost estimates are built from. Every figure carries its source tag:
//   [HW] row N  = docs/hardware-sources.md "Kernel figures", row N (measured on NPU1)
//   [TH] row N  = same table, theoretical / derived entry
//   [doc]       = AMD documentation (AM020 AIE-ML architecture manual, mlir-aie programming guide)
//   [est]       = our own estimate, not calibrated against hardware
// All cost estimates are for NPU1 (AIE-ML / AIE2) core cycles. A measured call is event0 -> event1
// as the mlir-aie trace flow does; it includes the fixed call overhead below, which the simulator
// adds once per call (TimingParams::kernel_call_overhead_cycles, 8 on AIE2). The *_cycles functions
// therefore return the kernel's body only: body + overhead = the measured figure.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace npusim::kernels {

// Fixed per-call cost (function entry/exit, loop preamble/postamble) of a pipelined vector kernel:
// the default of TimingParams::kernel_call_overhead_cycles on AIE2, not added by the *_cycles
// functions (one place for the call overhead).
// [HW] row 4 minus [TH] row 7: the int16 vector_scalar_mul call measures 72 cycles, of which
// 1024/32 iterations x 2 store-bound cycles = 64 are the loop; the remaining 8 are overhead.
inline constexpr std::uint64_t kKernelCallOverheadCycles = 8;

// [doc] AM020 "Interfaces" / hardware-figures.md section 2 (programming_guide section-4c L197-205):
// the AIE-ML core has 2 x 256-bit load units and 1 x 256-bit store unit.
inline constexpr std::uint64_t kStoreBytesPerCycle = 32;
inline constexpr std::uint64_t kLoadBytesPerCycle = 64;

// Per-element cost of a plain (non-pipelined) scalar loop on the core.
// [HW] row 1: the scalar int32 vector_scalar_mul takes ~12,297 cycles for 1024 elements, i.e.
// (12,297 - 8 overhead) / 1024 = 12.0 cycles per element. Reused [est] for other scalar loops.
inline constexpr std::uint64_t kScalarLoopCyclesPerElement = 12;

constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

namespace detail {

/// Throws std::invalid_argument("<kernel>: <what>"). Kernels call this for every violated
/// precondition instead of touching memory out of bounds.
[[noreturn]] inline void fail(const char* kernel, const std::string& what) {
    throw std::invalid_argument(std::string(kernel) + ": " + what);
}

inline void require_non_null(const void* p, const char* kernel, const char* arg) {
    if (p == nullptr) fail(kernel, std::string("pointer argument '") + arg + "' is null");
}

inline void require_non_negative(std::int64_t v, const char* kernel, const char* arg) {
    if (v < 0) fail(kernel, std::string(arg) + " must be >= 0 (got " + std::to_string(v) + ")");
}

inline void require_positive(std::int64_t v, const char* kernel, const char* arg) {
    if (v <= 0) fail(kernel, std::string(arg) + " must be > 0 (got " + std::to_string(v) + ")");
}

inline void require_multiple(std::int64_t v, std::int64_t of, const char* kernel, const char* arg, const char* why) {
    if (v % of != 0)
        fail(kernel, std::string(arg) + " must be a multiple of " + std::to_string(of) + " (got " + std::to_string(v) +
                         "; " + why + ")");
}

inline void require_at_least(std::int64_t v, std::int64_t min, const char* kernel, const char* arg, const char* why) {
    if (v < min)
        fail(kernel,
             std::string(arg) + " must be >= " + std::to_string(min) + " (got " + std::to_string(v) + "; " + why + ")");
}

} // namespace detail
} // namespace npusim::kernels

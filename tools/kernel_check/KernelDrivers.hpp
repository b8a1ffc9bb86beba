#pragma once
// Drivers of mlir-aie's upstream aie_kernels entry points for tools/check-upstream-kernels.sh: each
// calls one extern "C" function of a library built by the run-time kernel compiler on generated
// inputs and compares every output byte with a plain C++ reference computed here, from the
// semantics the function's source states and AIE-API documents (not from npusim's host layer).
#include <string>
#include <vector>

namespace npusim::kernel_check {

/// What a library's build was given that changes an entry point's types (-DBIT_WIDTH=...).
struct BuildFacts {
    int bit_width = 32; ///< the sources' #else branch when BIT_WIDTH is not given
};

/// The result of driving one entry point: empty when every output matched, else the first difference.
struct Driven {
    std::string name;
    std::string mismatch;
};

/// Drive every entry point of `handle` (a dlopen handle) this file knows; `reset_modes` puts the
/// library's core modes at the hardware's reset values before each call.
std::vector<Driven> drive_all(void* handle, const BuildFacts& facts, void (*reset_modes)());

} // namespace npusim::kernel_check

#pragma once
// The run-time kernel compiler: builds a kernel source (C/C++ or AIE-API) for the host when the
// program runs, the way IRON's ExternalFunction has Peano build it for the core when the design is
// compiled (mlir-aie python/utils/compile/utils.py compile_cxx_core_function).
//
// A source is compiled by $CXX (else the compiler npusim was built with, else g++) with the AIE-API
// host layer on the include path and the flags Peano's build gets (-std=c++20 -O2 -DNDEBUG
// -D__AIE_API_AIE_ADF_HPP__, utils.py:312-330), plus the generation's __AIE_ARCH__ (20 for aie2 /
// npu1, 21 for aie2p / npu2: what the AIE API reads to select the architecture), then the design's
// include dirs and compile flags, into a shared library that is loaded with dlopen. The source is
// compiled as its own translation unit, as Peano compiles it: nothing is included before it, so a
// source that uses aie:: without including aie_api/aie.hpp (upstream zero.cc, which mm.cc and mv.cc
// include after aie.hpp) fails on its own exactly as it does under Peano.
//
// Libraries are cached by content under kernel_cache_dir(): the key hashes the source text (and the
// source file's path: its own #include "..." resolve from its folder), the names, flags, include
// dirs, generation, host-layer include path and the compiler's identity (path and --version); each
// entry records every file the compiler read (its -MD list) with a hash of its contents, and an
// entry whose files changed is rebuilt. Entries are written to a temporary folder and renamed into
// place, so processes sharing the cache never see a partial entry.
//
// npusim.hpp includes this header, which installs compile_external_function as the ExternalFunction
// run-time compiler (frontend/ExternalFunctionRegistry.hpp) for every program that includes it.
#include "npusim/frontend/ExternalFunctionRegistry.hpp"
#include "npusim/model/DeviceSpec.hpp"

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::harness {

/// Where compiled kernels are cached: $NPUSIM_CACHE_DIR, else $XDG_CACHE_HOME/npusim, else
/// ~/.cache/npusim (kernels go to its kernels/ folder).
std::filesystem::path kernel_cache_dir();

/// The compiler command: $CXX (split on spaces: "ccache g++" works), else the C++ compiler npusim was
/// built with when it still exists, else g++.
std::vector<std::string> host_compiler_command();

/// The flags every host build of a kernel source gets for a generation, before the host layer's
/// include path and the design's own include dirs and flags.
std::vector<std::string> host_kernel_flags(model::Arch arch);

/// The AIE-API host layer's include directories ($NPUSIM_AIE_API_INCLUDE, ':'-separated, else the
/// source tree npusim was built from, else the installed headers).
std::vector<std::filesystem::path> aie_api_include_dirs();

/// One source to build.
struct HostKernelSpec {
    std::optional<std::filesystem::path> source_file{};
    std::optional<std::string> source_string{}; ///< used without source_file; written to source_string.cc
    /// Functions to export through npusim's calling wrapper (npusim_jit_invoke_<name>); empty: the
    /// library exports only what the source does (a driver then finds extern "C" names with dlsym).
    std::vector<std::string> names{};
    /// The C++ parameter types a name is declared with (from the ExternalFunction's arg_types:
    /// "bfloat16*", "int32_t"). Used only when the source overloads the name, as a kernel with a
    /// template beside its extern "C" entry does (mlir-aie's aie2p/rms_norm.cc): the wrapper then
    /// takes the overload of exactly that type.
    std::map<std::string, std::vector<std::string>> signatures{};
    std::vector<std::string> include_dirs{};
    std::vector<std::string> compile_flags{};
    model::Arch arch = model::Arch::AIE2P;
};

/// A built (or failed) library.
struct HostKernelLibrary {
    bool ok = false;
    std::filesystem::path library{}; ///< the .so (when ok)
    void* handle = nullptr; ///< dlopen handle (when ok); never closed
    bool from_cache = false; ///< found in the cache: not compiled by this call
    std::string output{}; ///< the compiler's output (when compiled), temporary paths replaced
    std::string first_error{}; ///< "file:line:col: error: message" (when not ok)
    std::string missing_piece{}; ///< the AIE-API piece the host layer lacks, when the output shows one
};

/// Build (or find in the cache) and load. Never throws for a source that does not compile (the result
/// says why); throws std::runtime_error when no compiler can be run or the cache cannot be written.
HostKernelLibrary build_host_kernel(const HostKernelSpec& spec);

/// How many libraries build_host_kernel compiled, and how many requests the cache or this process's
/// own table answered (for tests: a second use must not compile again).
struct KernelCompilerStats {
    std::size_t compiles = 0;
    std::size_t cache_hits = 0;
};
KernelCompilerStats kernel_compiler_stats();

/// The first error of a compiler's output ("file:line:col: error: message"), without the context
/// lines ("In file included from ..."); the first line of the output when it has no error line.
std::string first_compiler_error(std::string_view output);
/// The AIE-API piece a compiler's output shows missing ("aie::tanh", "getTanhBf16", a host-layer
/// "npusim aie_api: ..." refusal, an accum-to-vector conversion ...); empty when it shows none.
std::string missing_aie_piece(std::string_view output);

/// The ExternalFunction run-time compiler: builds request.name from its source and returns the build
/// (its parameters read from the compiled function). A source that does not compile throws a
/// DesignError naming the function, the compiler's first error with file and line, and the missing
/// AIE-API piece when there is one.
const iron::ExternalBuild* compile_external_function(const iron::ExternalCompileRequest& request);

/// Install compile_external_function as ExternalFunction's run-time compiler.
void install_kernel_compiler();
/// Every program that includes this header has the compiler installed before main.
inline const bool kernel_compiler_installed = (install_kernel_compiler(), true);

} // namespace npusim::harness

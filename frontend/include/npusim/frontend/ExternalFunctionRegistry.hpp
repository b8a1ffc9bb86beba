#pragma once
// The registry behind ExternalFunction: every kernel source compiled at build time by
// npusim_add_external_function() (cmake/NpusimExternalFunction.cmake) registers each of its
// functions here before main, with the source, flags and include directories it was built with
// and the C++ parameter list of the compiled function, so ExternalFunction("fn", ...) finds the
// build that matches its arguments and checks its arg_types against the real signature.
//
// Sources not linked that way (source_string, or a source_file no linked build matches) go to the
// run-time kernel compiler when one is installed (set_external_compiler). frontend/ runs no
// compiler itself: npusim::harness installs one (harness/KernelCompiler.hpp, which npusim/npusim.hpp
// includes) that builds the source for the host against the AIE-API host layer.
#include "npusim/frontend/Kernel.hpp"
#include "npusim/model/DeviceSpec.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace npusim::iron {

/// One parameter of a compiled kernel function.
struct ExternalParam {
    bool is_pointer = false;
    std::size_t bytes = 0; ///< pointee size of a pointer (0 for void*), the size of a scalar
    bool is_floating = false; ///< a floating-point scalar
};

/// One registered build of one function.
struct ExternalBuild {
    std::string name; ///< the symbol name the design uses
    std::string source_file; ///< absolute path of the source compiled
    std::vector<std::string> compile_flags; ///< as given to the helper
    std::vector<std::string> include_dirs; ///< absolute paths
    std::vector<ExternalParam> params; ///< the compiled function's parameters
    /// A fresh invoker for one ExternalFunction object (AIE-API sources get their own core modes).
    std::function<Kernel::Invoker()> make_invoker;
};

/// What ExternalFunction asks the run-time compiler to build: one function `name` of a source.
struct ExternalCompileRequest {
    std::string name;
    std::optional<std::string> source_file{}; ///< as the design gave it (relative: to the working directory)
    std::optional<std::string> source_string{}; ///< used when there is no source_file (IRON's order)
    std::vector<std::string> include_dirs{};
    std::vector<std::string> compile_flags{};
    model::Arch arch = model::Arch::AIE2P; ///< the generation whose defines the build gets
    /// The C++ parameter types arg_types declare ("bfloat16*", "int32_t"): which overload to take
    /// when the source overloads `name` (a template beside its extern "C" entry).
    std::vector<std::string> param_types{};
};
/// Builds a request (or throws a DesignError saying why it cannot); the build stays valid for the
/// life of the process.
using ExternalCompiler = std::function<const ExternalBuild*(const ExternalCompileRequest&)>;
/// Install the run-time compiler (an empty function removes it); returns the previous one.
ExternalCompiler set_external_compiler(ExternalCompiler compiler);
/// The installed run-time compiler (empty when none is).
ExternalCompiler external_compiler();
/// The generation an ExternalFunction without an explicit `arch` is compiled for (AIE2P, npu2, unless
/// changed: the Python front door sets it from --device).
model::Arch default_external_arch();
void set_default_external_arch(model::Arch arch);

/// Register a build (called by the generated registration source); returns true.
bool register_external_function(ExternalBuild build);
/// Every registered build of `name`, in registration order.
std::vector<const ExternalBuild*> external_builds(const std::string& name);

namespace detail {
template <class P>
ExternalParam external_param() {
    if constexpr (std::is_pointer_v<P>) {
        using T = std::remove_cv_t<std::remove_pointer_t<P>>;
        if constexpr (std::is_void_v<T>)
            return {true, 0, false};
        else
            return {true, sizeof(T), false};
    } else {
        return {false, sizeof(P), std::is_floating_point_v<P>};
    }
}
} // namespace detail

/// The parameter list of a native function.
template <class R, class... P>
std::vector<ExternalParam> external_params(R (*)(P...)) {
    static_assert((detail::kernel_param_ok<P>() && ...),
                  "npusim ExternalFunction: parameters must be pointers or arithmetic");
    return {detail::external_param<P>()...};
}

/// An invoker calling a native function with converted arguments.
template <class R, class... P>
Kernel::Invoker external_invoker(R (*fn)(P...)) {
    return [fn](std::span<const KernelArg> a) {
        [&]<std::size_t... I>(std::index_sequence<I...>) { fn(detail::convert_kernel_arg<P>(a[I])...); }
        (std::index_sequence_for<P...>{});
    };
}

} // namespace npusim::iron

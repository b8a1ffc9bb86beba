#pragma once
// The one entry point the Python ExternalFunction goes through: "make me a build of this source
// with these flags". It is iron::ExternalFunction's own lookup: a build registered at build time
// (npusim_add_external_function) that matches source, flags and include dirs is used as is; anything
// else (source_string, or a source_file no linked build matches) goes to the run-time kernel compiler
// (harness/KernelCompiler.hpp), which the module installs when it is imported (install()), so a
// Python design's kernel sources are built exactly as a C++ design's are. Without an installed
// compiler such a request is refused with NotImplementedError naming the call.
#include "npusim/frontend/ExternalFunction.hpp"
#include "npusim/model/DeviceSpec.hpp"

#include <optional>
#include <string>
#include <vector>

namespace npusim::python {

struct ExternalBuildRequest {
    std::string name;
    std::optional<std::string> source_file;
    std::optional<std::string> source_string;
    std::vector<std::string> include_dirs;
    std::vector<std::string> compile_flags;
    std::vector<iron::ArgType> arg_types;
    /// The generation the source is compiled for (the run's device); unset: default_external_arch().
    std::optional<model::Arch> arch{};
};

/// Install the harness's run-time kernel compiler as ExternalFunction's (called at module import).
void install_runtime_compiler();
bool has_runtime_compiler();

/// A registered build matching the request; else the run-time compiler's (a source that does not
/// compile is a DesignError with the compiler's first error); else NotImplementedError (a pybind11
/// error_already_set) naming the ExternalFunction call.
iron::ExternalFunction make_external_function(const ExternalBuildRequest& request);

} // namespace npusim::python

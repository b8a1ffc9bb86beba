#pragma once
// The one entry point the Python ExternalFunction goes through: "make me a build of this source
// with these flags". A build already registered (npusim_add_external_function) is used as is;
// anything else needs the run-time compiler, which registers a build (an ExternalBuild) and says
// how to find it. Until one is installed (set_runtime_compiler), such a request is refused with
// NotImplementedError naming the call.
#include "npusim/frontend/ExternalFunction.hpp"

#include <functional>
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
};

/// Compiles the request's source for the host, registers the build (iron::register_external_function)
/// and returns the options that make iron::ExternalFunction find it.
using RuntimeCompiler = std::function<iron::ExternalFunctionOptions(const ExternalBuildRequest&)>;
void set_runtime_compiler(RuntimeCompiler compiler);
bool has_runtime_compiler();

/// A registered build matching the request; else the run-time compiler's; else NotImplementedError
/// (a pybind11 error_already_set) naming the ExternalFunction call.
iron::ExternalFunction make_external_function(const ExternalBuildRequest& request);

} // namespace npusim::python

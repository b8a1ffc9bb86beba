#pragma once
// `npusim python FILE [ARGS...]`: run an IRON Python design file unchanged on the simulator. The
// command starts the Python interpreter npusim was built with on `-m npusim FILE ARGS...`, with
// npusim's Python package first on its path (the build tree's, or the installed one next to this
// executable); the package serves IRON's module names to that process only (docs/python.md).
#include "CliOptions.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace npusim::tools {

/// Registers `python`. Its run returns the interpreter's exit code (2 when npusim was built
/// without its Python module or the interpreter cannot be started).
Command add_python_command(CLI::App& app, std::ostream& out, std::ostream& err);

/// Runs `python3 -m npusim ARGS...` as `npusim python` does; returns its exit code.
int run_python(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// The directory holding npusim's Python package for the executable at `exe` ("" if none).
std::string python_package_dir(const std::string& exe);

} // namespace npusim::tools

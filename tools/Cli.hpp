#pragma once
// The npusim command line (contract in README.md and docs/errors.md). Returns the process exit code:
// 0 ran and matched, 1 output mismatch, 2 design or usage error, 3 deadlock, 4 limit reached,
// 5 internal error (a simulator invariant broke).
#include <exception>
#include <iosfwd>
#include <string>
#include <vector>

namespace npusim::tools {

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// How the CLI reports an exception that ends a command: its exit code, the `status` of --json and
/// the kind it prints ("npusim: <kind>: <message>"). The one mapping run_cli uses (also for the
/// error catalog, docs/errors.md).
struct ErrorClass {
    int code = 2;
    std::string status; ///< "usage_error", "design_error", "file_error", "deadlock", "limit", "internal_error", "error"
    std::string kind; ///< "usage error", "design error", "file error", "deadlock", "limit reached", ...
};
ErrorClass classify_error(const std::exception& e);

} // namespace npusim::tools

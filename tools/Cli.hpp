#pragma once
// The npusim command line (contract in README.md and docs/errors.md). Returns the process exit code:
// 0 ran and matched, 1 output mismatch, 2 design or usage error, 3 deadlock, 4 limit reached,
// 5 internal error (a simulator invariant broke).
#include <exception>
#include <stdexcept>
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
/// The message run_cli prints for `e`: its what(), except for std::bad_alloc (what ran out and how
/// much memory this process may use).
std::string error_message(const std::exception& e);

/// An error classified elsewhere (another MPI rank's, sent to rank 0): reported with its class.
struct ClassifiedError : std::runtime_error {
    ClassifiedError(ErrorClass c, const std::string& message) : std::runtime_error(message), cls(std::move(c)) {}
    ErrorClass cls;
};

} // namespace npusim::tools

#pragma once
// The npusim command line (contract in README.md and docs/errors.md). Returns the process exit code:
// 0 ran and matched, 1 output mismatch, 2 design or usage error, 3 deadlock, 4 limit reached.
#include <iosfwd>
#include <string>
#include <vector>

namespace npusim::tools {

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace npusim::tools

// guard_fault: a registered test design whose kernel misbehaves natively (tests of the CLI's run
// guards, tools/RunGuard.hpp), and the CLI run in a child process, since the guards end the process
// they run in. Shared by tools_tests and unsanitized_tests (the crashes AddressSanitizer reports
// itself).
#pragma once

#include "CliRun.hpp"

#include <string>
#include <vector>

namespace npusim::test {

// `npusim ARGS...` in a child process with guard_fault registered: its exit code, and stdout and
// stderr together (in .err).
Out guard_fault_cli(std::vector<std::string> args);

} // namespace npusim::test

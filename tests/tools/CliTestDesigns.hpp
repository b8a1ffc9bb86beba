// The test designs of the CLI tests (Cli_test.cpp, CliFailures_test.cpp): a design that deadlocks,
// one that hits the cycle limit, kernels that misbehave, a queue flood. Registered once per process.
#pragma once

namespace npusim::test {

void register_test_designs();

} // namespace npusim::test

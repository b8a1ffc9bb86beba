// A FileCheck subset for tests that compare printed MLIR with mlir-aie's lit CHECK lines.
#pragma once

#include <string>
#include <vector>

namespace npusim::test {

// The lines of `s`, without their newlines.
std::vector<std::string> lines_of(const std::string& s);

// CHECK / CHECK-LABEL (in order, anywhere after the previous match), CHECK-NEXT (the line after the
// previous match), CHECK-DAG (anywhere), {{regex}}, [[VAR:regex]] and [[VAR]]; runs of spaces are
// squeezed as FileCheck canonicalizes horizontal whitespace. Returns "" when every check matches,
// else the first check that does not.
std::string file_check(const std::string& output, const std::vector<std::string>& checks);

} // namespace npusim::test

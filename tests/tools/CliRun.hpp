#pragma once
// The CLI tests' way to run `npusim ARGS...` in-process: exit code, stdout and stderr.
#include "Cli.hpp"

#include <sstream>
#include <string>
#include <vector>

namespace npusim::test {

struct Out {
    int code;
    std::string out, err;
};

inline Out cli(std::vector<std::string> args) {
    std::ostringstream o, e;
    const int c = tools::run_cli(args, o, e);
    return {c, o.str(), e.str()};
}

} // namespace npusim::test

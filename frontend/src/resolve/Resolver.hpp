#pragma once
// Resolver: lowers a Program to a netlist, pass by pass (see docs/resolve.md). The passes share
// a ResolveContext; each lives in its own file under resolve/.
#include "npusim/frontend/Program.hpp"
#include "npusim/model/Netlist.hpp"

namespace npusim::iron::detail {

class Resolver {
public:
    Resolver(const Program& program, const ResolveOptions& opts);
    model::Netlist run();

private:
    const Program& program_;
    ResolveOptions opts_;
};

} // namespace npusim::iron::detail

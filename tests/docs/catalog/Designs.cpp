#include "Designs.hpp"

namespace npusim::errcat {

void copy(F in, F out) { test::copy_one(in, out); }

void fill_drain(RuntimeData a, RuntimeData b, F in, F out) { test::fill_drain(a, b, in, out); }

Program passthrough(Pass p) {
    p.program = "t";
    return test::passthrough(p);
}

model::Netlist resolve(const Program& p, ResolveOptions o) { return p.resolve(o); }

void simulate(const Program& p, sim::SimOptions o) {
    const auto net = p.resolve();
    o.timing = model::TimingParams::for_arch(p.device().arch);
    std::vector<std::vector<std::uint8_t>> host;
    for (const auto& t : net.host_tensors) host.emplace_back(t.bytes, 0);
    sim::simulate(net, host, o);
}

} // namespace npusim::errcat

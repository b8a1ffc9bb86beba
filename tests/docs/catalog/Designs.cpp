#include "Designs.hpp"

#include <algorithm>

namespace npusim::errcat {

void copy(F in, F out) {
    auto a = in.acquire(1);
    auto b = out.acquire(1);
    std::copy_n(a.data(), std::min(a.single().bytes(), b.single().bytes()), b.data());
    in.release(1);
    out.release(1);
}

void fill_drain(RuntimeData a, RuntimeData b, F in, F out) {
    in.fill(a);
    out.drain(b, {.wait = true});
}

Program passthrough(const Pass& p) {
    ObjectFifo in(p.type, "in", p.depth, p.in), out(p.type, "out", p.depth, p.out);
    Worker w([body = p.body](F i, F o, const std::vector<Buffer>&) { body(i, o); },
             fn_args(in.cons(), out.prod(), p.buffers), p.worker);
    TensorType host = p.type;
    host.shape = {p.host_elements ? p.host_elements : p.type.elements() * 4};
    Runtime rt(p.seq, fn_args(host, host, in.prod(), out.cons()));
    return Program(p.device, rt, {w}, "t");
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

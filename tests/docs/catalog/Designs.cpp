#include "Designs.hpp"

namespace npusim::errcat {

void copy(F in, F out) { test::copy_one(in, out); }

void fill_drain(RuntimeData a, RuntimeData b, F in, F out) { test::fill_drain(a, b, in, out); }

Program passthrough(Pass p) {
    p.program = "t";
    return test::passthrough(p);
}

model::Netlist resolve(const Program& p, ResolveOptions o) { return p.resolve(o); }

model::Netlist barrier_design(int init, int wait, int release, int set) {
    ObjectFifo in(i32(16), "in"), out(i32(16), "out");
    WorkerRuntimeBarrier b(init, "phase");
    Worker w(
        [wait, release](F i, F o, WorkerRuntimeBarrier x) {
            x.wait_for_value(wait);
            i.acquire(1);
            o.acquire(1);
            i.release(1);
            o.release(1);
            x.release_with_value(release);
        },
        fn_args(in.cons(), out.prod(), b), {.name = "w"});
    Runtime rt(
        [b, set](RuntimeData x, RuntimeData y, F i, F o) {
            b.set(set);
            i.fill(x);
            o.drain(y, {.wait = true});
        },
        fn_args(i32(16), i32(16), in.prod(), out.cons()));
    return resolve(Program("npu1_1col", rt, {w}, "t"));
}

void simulate(const Program& p, sim::SimOptions o) {
    const auto net = p.resolve();
    o.timing = model::TimingParams::for_arch(p.device().arch);
    std::vector<std::vector<std::uint8_t>> host;
    for (const auto& t : net.host_tensors) host.emplace_back(t.bytes, 0);
    sim::simulate(net, host, o);
}

} // namespace npusim::errcat

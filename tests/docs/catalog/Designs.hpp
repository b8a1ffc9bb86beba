#pragma once
// Small designs the triggers of the error catalog build on (docs/errors.head.md describes them).
#include "ErrorCatalog.hpp"

#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"

#include <functional>
#include <string>

namespace npusim::errcat {

using namespace npusim::iron;
using F = ObjectFifoHandle;
using Seq = std::function<void(RuntimeData, RuntimeData, F, F)>;

/// i32[n]
inline TensorType i32(std::int64_t n) { return tensor<std::int32_t>({n}); }

/// A worker body: acquire one object of each fifo, copy, release both.
void copy(F in, F out);
/// A runtime sequence: fill 'in' from a, drain 'out' into b and wait.
void fill_drain(RuntimeData a, RuntimeData b, F in, F out);

/// shim -> worker 'w' -> shim through fifos 'in' and 'out' (type, depth); the runtime tensors a and
/// b hold 4 objects each (or host_elements elements). `buffers` are passed to the worker too (the
/// body reaches them through its captures).
struct Pass {
    std::vector<Buffer> buffers = {};
    TensorType type = i32(256);
    int depth = 2;
    std::function<void(F, F)> body = copy;
    Seq seq = fill_drain;
    FifoOptions in = {};
    FifoOptions out = {};
    std::int64_t host_elements = 0;
    // Last: GCC 12 warns (-Wmaybe-uninitialized, falsely) about the strings of members that come
    // before a member whose initialisation may throw.
    WorkerOptions worker = {.name = "w"};
    std::string device = "npu1_1col";
};
Program passthrough(const Pass& p = {});

/// Program::resolve.
model::Netlist resolve(const Program& p, ResolveOptions o = {});
/// Resolve and simulate with zero host tensors (the device's timing; o.timing is replaced).
void simulate(const Program& p, sim::SimOptions o = {});

} // namespace npusim::errcat

#pragma once
// Small designs the triggers of the error catalog build on (docs/errors.head.md describes them).
#include "ErrorCatalog.hpp"
#include "support/Passthrough.hpp"

#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"

#include <functional>
#include <string>

namespace npusim::errcat {

using namespace npusim::iron;
using F = ObjectFifoHandle;
using Seq = test::PassSequence;

/// The tiles of column 0 the hand-placed triggers pin their objects to.
inline const Tile kShim(0, 0), kMem(0, 1), kCore(0, 2);

/// i32[n]
inline TensorType i32(std::int64_t n) { return tensor<std::int32_t>({n}); }

/// A worker body: acquire one object of each fifo, copy, release both.
void copy(F in, F out);
/// A runtime sequence: fill 'in' from a, drain 'out' into b and wait.
void fill_drain(RuntimeData a, RuntimeData b, F in, F out);

/// shim -> worker 'w' -> shim through fifos 'in' and 'out' (tests/support/Passthrough.hpp), in a
/// Program named 't'.
using Pass = test::Passthrough;
Program passthrough(Pass p = {});

/// Program::resolve.
model::Netlist resolve(const Program& p, ResolveOptions o = {});
/// A worker 'w' that waits for `wait` on barrier 'phase' (initial `init`) and releases it by
/// `release`; the sequence sets it to `set` and passes one tile through; resolved (Program 't').
model::Netlist barrier_design(int init, int wait, int release, int set);
/// Resolve and simulate with zero host tensors (the device's timing; o.timing is replaced).
void simulate(const Program& p, sim::SimOptions o = {});

} // namespace npusim::errcat

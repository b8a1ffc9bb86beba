#pragma once
// npusim in one include: what a program that builds its own design and simulates it uses (the
// README's example; CMake target npusim::npusim, pkg-config npusim):
//   - the IRON-style design API and resolve (npusim/iron.hpp: ObjectFifo, Worker, Kernel, Runtime,
//     Program, ...), in namespace npusim::iron;
//   - the reference kernels (npusim::kernels, e.g. kernels::passThroughLine_u8);
//   - the simulator, npusim::sim::simulate(netlist, host tensors, SimOptions);
//   - the harness's design registry and parameter checks, for a design file that registers itself
//     with NPUSIM_REGISTER_DESIGN (docs/adding-a-design.md);
//   - the run-time kernel compiler, installed for ExternalFunction sources not linked at build time
//     (npusim/harness/KernelCompiler.hpp).
#include "npusim/harness/DesignParams.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/KernelCompiler.hpp"
#include "npusim/iron.hpp"
#include "npusim/kernels/kernels.hpp"
#include "npusim/sim/Simulator.hpp"

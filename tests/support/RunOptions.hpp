#pragma once
// Simulator and run options for a device: its architecture's timing, a seed and a kernel set.
// Header-only: for the suites that link the harness.
#include "npusim/harness/DesignRunner.hpp"

#include <cstdint>
#include <string>

namespace npusim::test {

/// The simulator's options with `device`'s timing.
inline sim::SimOptions sim_opts(const std::string& device) {
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::device_by_name(device).arch);
    return o;
}

/// A run on `device` (its timing), inputs seeded by `seed`, with the kernel set `kernels`.
inline harness::RunOptions run_opts(const std::string& device, std::uint64_t seed = 1,
                                    harness::KernelSet kernels = harness::KernelSet::reference) {
    harness::RunOptions o;
    o.seed = seed;
    o.kernels = kernels;
    o.sim = sim_opts(device);
    return o;
}

} // namespace npusim::test

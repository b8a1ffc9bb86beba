#pragma once
// Build a registered design for a device, resolve it, simulate it and check its outputs.
#include "npusim/examples/DesignRegistry.hpp"
#include "npusim/sim/Simulator.hpp"

namespace npusim::examples {

struct RunReport {
    std::string design;
    std::string device;
    Params params;
    std::vector<model::TileCoord> tiles_used;
    std::size_t workers = 0;
    sim::SimResult result;
    std::vector<OutputCheck> checks;
    bool all_match = false;
    double resolve_seconds = 0;
    double simulate_seconds = 0;
};

/// Throws DesignError (bad design, unsupported device, bad parameter) or SimulationError.
RunReport run_design(const DesignSpec& spec, const std::string& device, const Params& overrides, std::uint64_t seed,
                     const sim::SimOptions& base);

} // namespace npusim::examples

#include "npusim/examples/DesignRunner.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>

namespace npusim::examples {

RunReport run_design(const DesignSpec& spec, const std::string& device, const Params& overrides, std::uint64_t seed,
                     const sim::SimOptions& base) {
    const auto& dev = model::device_by_name(device);
    if (!spec.supports(dev.name))
        throw DesignError(fmt::format("design '{}' does not run on {} (devices: {})", spec.name, dev.name,
                                      fmt::join(spec.devices, ", ")));
    RunReport rep;
    rep.design = spec.name;
    rep.device = dev.name;
    rep.params = spec.resolve_params(overrides);
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    DesignInstance inst = spec.build(dev, rep.params, seed);
    const model::Netlist net = inst.program.resolve();
    const auto t1 = clock::now();
    rep.tiles_used = net.tiles_used();
    rep.workers = net.cores.size();
    rep.result = sim::simulate(net, inst.host, base);
    const auto t2 = clock::now();
    rep.resolve_seconds = std::chrono::duration<double>(t1 - t0).count();
    rep.simulate_seconds = std::chrono::duration<double>(t2 - t1).count();
    rep.checks = inst.check(rep.result.host);
    rep.all_match = std::all_of(rep.checks.begin(), rep.checks.end(), [](const OutputCheck& c) { return c.match; });
    return rep;
}

} // namespace npusim::examples

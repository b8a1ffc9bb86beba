#pragma once
// `npusim run DESIGN --device D1,D2,...`: the same design, parameters and seed on each device, and
// their cycles and output digests side by side (text, or one run_devices document with --json).
#include "RunArgs.hpp"

#include <iosfwd>

namespace npusim::tools {

/// Runs `r` on each device of its --device list (in the order given, each once) and reports them.
/// UsageError for an empty name in the list or an option that writes one run's files (--trace,
/// --vcd, --dot, --html, --save-outputs), --what-if or --netlist; DesignError for an unknown device.
/// Returns the worst exit code of the runs (0 when every device ran and matched).
int run_on_devices(const RunArgs& r, std::ostream& out);

} // namespace npusim::tools

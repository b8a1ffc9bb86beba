#pragma once
// `npusim run DESIGN --device D1,D2,...`: the same design, parameters and seed on each device, and
// their cycles and output digests side by side (text, or one run_devices document with --json).
#include "RunArgs.hpp"

#include <iosfwd>

namespace npusim::tools {

/// Runs `r` on each device of its --device list (in the order given, each once) and reports them.
/// UsageError for an empty name in the list or an option that writes one run's files (--trace,
/// --vcd, --dot, --html, --save-outputs), --what-if or --netlist; DesignError for an unknown device.
/// Returns the worst exit code of the runs (0 when every device ran and matched). Each run has the
/// options and guards of the single run (run_options, guarded_run: --timeout per device,
/// --core-stack, --kernel-threads, --progress on `err`, the crash reporter and the watchdog).
int run_on_devices(const RunArgs& r, std::ostream& out, std::ostream& err);

} // namespace npusim::tools

#pragma once
// `npusim sweep DESIGN --param K=a,b,c ... [--device d1,d2]`: the design at every point of the
// parameter grid (harness::Sweep), in worker processes one per core; started by mpirun, the
// points are split over the ranks and rank 0 prints the gathered table (text, --json, --csv FILE).
// See docs/performance.md "Sweeps".
#include "CliOptions.hpp"

#include <iosfwd>
#include <string>

namespace npusim::tools {

/// Registers `sweep` and its options on the App. Its run throws UsageError for a bad command line,
/// DesignError for an unknown design, device or parameter; returns batch_exit_code of the points
/// (0 when at least one ran and matched; each point's status is reported).
Command add_sweep_command(CLI::App& app, std::ostream& out, std::ostream& err);

} // namespace npusim::tools

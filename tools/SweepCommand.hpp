#pragma once
// `npusim sweep DESIGN --param K=a,b,c ... [--device d1,d2]`: the design at every point of the
// parameter grid (harness::Sweep), in worker processes one per core; started by mpirun, the
// points are split over the ranks and rank 0 prints the gathered table (text, --json, --csv FILE).
// See docs/performance.md "Sweeps".
#include <iosfwd>
#include <string>
#include <vector>

namespace npusim::tools {

/// `args` starts with "sweep". UsageError for a bad command line, DesignError for an unknown
/// design, device or parameter; returns 0 once every point ran (each point's status is reported).
int cmd_sweep(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace npusim::tools

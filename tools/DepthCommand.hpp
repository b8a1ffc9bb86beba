#pragma once
// `npusim depth DESIGN [...]`: ObjectFifo depth analysis (harness::DepthAnalysis) - per endpoint
// the smallest depth that runs and matches, its memory, and simulated cycles against depth, as an
// aligned table, one JSON object (--json) or CSV rows (--csv FILE). See docs/depth.md.
#include "CliOptions.hpp"

#include <iosfwd>
#include <string>

namespace npusim::tools {

/// Registers `depth` and its options on the App. Its run throws UsageError for a bad command line
/// (exit 2 in run_cli) and DesignError when the design does not resolve; returns batch_exit_code of
/// its configurations (0 when at least one ran and matched).
Command add_depth_command(CLI::App& app, std::ostream& out, std::ostream& err);

} // namespace npusim::tools

#pragma once
// `npusim calibrate DESIGN --trace hw.json [--trace [DESIGN[,K=V...]:]more.json ...]
// [--npu-time-us [DESIGN[,K=V...]:]US ...] [--device D] [--param K=V ...] [--timing FILE|NAME]
// [--fit NAME,...] [-o profile.json] [--json]`: fits the timing parameters to traces captured on an
// NPU in mlir-aie's format (parse.py's JSON) and writes a timing profile --timing reads. Each
// --trace is of DESIGN with --param, or of the design and parameters written before a ':'; several
// traces (of several designs) fit one profile. Calibration.hpp says how;
// docs/calibration-from-trace.md gives the workflow.
#include "CliOptions.hpp"

#include <iosfwd>

namespace npusim::tools {

/// Registers `calibrate`. Its run throws UsageError for a bad command line, DesignError for a trace
/// of another design or device (and anything a run throws), FileError for -o; returns 0.
Command add_calibrate_command(CLI::App& app, std::ostream& out, std::ostream& err);

} // namespace npusim::tools

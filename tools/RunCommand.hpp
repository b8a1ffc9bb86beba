#pragma once
// `npusim run DESIGN [options]` (and `npusim golden`, the same command under another name): the
// design simulated on one device and every output checked against its golden reference, with the
// files it asks for (trace, waveform, wait-for graph, HTML report, saved tensors), --what-if reruns
// (WhatIf.hpp); a --device list goes to CompareDevices.hpp. See README.md and docs/errors.md.
#include "CliOptions.hpp"
#include "RunArgs.hpp"

#include <iosfwd>
#include <map>
#include <string>

namespace npusim::tools {

/// Registers `run` or `golden` (`name`) and its options on the App. Its run throws UsageError for a
/// bad command line, and what cmd_run throws; returns cmd_run's exit code.
Command add_run_command(CLI::App& app, const std::string& name, std::ostream& out, std::ostream& err);

/// Runs `r` and prints its summary on `out` (or its run document with --json), progress and the
/// files written on `err`. Returns 0 when every output matched, 1 on a mismatch; a failure throws
/// (DesignError, SimulationError, ...) after noting the files it wrote in failed_run_files().
int cmd_run(const RunArgs& r, std::ostream& out, std::ostream& err);

/// The files the failed run wrote up to its failure (key "trace", "vcd", "html" or "dot": path),
/// for the error document's "files". Only cmd_run adds to them; run_cli clears them before each
/// command.
const std::map<std::string, std::string>& failed_run_files();
void clear_failed_run_files();

} // namespace npusim::tools

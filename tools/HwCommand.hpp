#pragma once
// `npusim hw` and `npusim compare`: the design on a real NPU through XRT (hw/XrtRunner), checked
// against its golden reference, and side by side with its simulation (docs/hardware.md).
#include "CliOptions.hpp"

#include "npusim/harness/OutputCheck.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace npusim::tools {

/// Registers `hw`: DESIGN --xclbin F --insts F [--device D] [--param K=V ...] [--seed N]
/// [--input NAME=FILE ...] [--iters N] [--warmup W] [--kernel NAME] [--json]. Runs throw
/// UsageError, DesignError (files, design) or hw::HardwareError (no device: exit 6).
Command add_hw_command(CLI::App& app, std::ostream& out);
/// Registers `compare`: the simulation and the hardware with the same inputs and --iters; the
/// hardware side from XRT (--xclbin/--insts) or recorded (--hw-outputs DIR [--hw-times FILE]).
Command add_compare_command(CLI::App& app, std::ostream& out);

/// Measured times of the hardware runs, in microseconds.
struct TimeSummary {
    std::size_t runs = 0;
    double min_us = 0, avg_us = 0, max_us = 0;
};
TimeSummary summarize_times(const std::vector<double>& us);

/// Times recorded in a file: numbers in microseconds separated by white space or commas ('#'
/// starts a comment). DesignError naming the file and the offending text.
std::vector<double> read_times_file(const std::string& path);

/// The comparison report's text: per output its elements, mismatches and largest error, the
/// mismatches described; the simulated times beside the measured ones and their ratio.
std::string comparison_text(const std::vector<harness::OutputCheck>& checks, double sim_array_us, double sim_npu_us,
                            const TimeSummary& hw);

} // namespace npusim::tools

#pragma once
// Timing profiles shipped with npusim: JSON files of timing parameters (the --timing format,
// model::TimingParams::apply_json) under tools/profiles/ in the source tree, installed to
// <datadir>/npusim/profiles. `--timing NAME` (a name of letters, digits, '-' and '_', no such file
// in the working directory) means <profiles>/NAME.json: `--timing npu2-public`. Their contents and
// how they were made: docs/calibration.md, "Shipped profiles".
#include <string>
#include <vector>

namespace npusim::harness {

/// The folder the shipped profiles are read from: the installed one when it exists, else the
/// source tree's.
std::string timing_profiles_dir();
/// The names of the shipped profiles (their file names without .json), sorted.
std::vector<std::string> timing_profile_names();
/// What `--timing VALUE` reads: VALUE itself when it names an existing file or is not a profile
/// name, else the shipped profile's file. A profile name with no such profile is a DesignError
/// listing the shipped ones.
std::string timing_profile_path(const std::string& value);

} // namespace npusim::harness

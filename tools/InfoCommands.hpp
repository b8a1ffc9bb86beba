#pragma once
// The commands that tell rather than run: `npusim list` (the designs), `args DESIGN` (a design's
// runtime arguments), `devices`, `timing [--device D]` (the timing model's parameters), `help
// [COMMAND]` and `version`. Each prints an aligned table, or one JSON document with --json.
#include "CliOptions.hpp"

#include <iosfwd>

namespace npusim::tools {

/// Registers `list` on the App (--json). Its run returns 0.
Command add_list_command(CLI::App& app, std::ostream& out);
/// Registers `devices` on the App (--json). Its run returns 0.
Command add_devices_command(CLI::App& app, std::ostream& out);
/// Registers `args` and the design options (RunArgs.hpp) on the App. Its run throws UsageError for
/// a bad command line and DesignError when the design does not build; returns 0.
Command add_args_command(CLI::App& app, std::ostream& out);
/// Registers `timing` (--device D, --json) on the App. Its run throws DesignError for an unknown
/// device; returns 0.
Command add_timing_command(CLI::App& app, std::ostream& out);
/// Registers `help [COMMAND]` on `app`: the whole usage, or COMMAND's (UsageError when it is not
/// one of app's commands). Register it after the commands it names.
Command add_help_command(CLI::App& app, std::ostream& out);
/// Registers `version` on the App: "npusim VERSION".
Command add_version_command(CLI::App& app, std::ostream& out);

} // namespace npusim::tools

#pragma once
// What a command reports when something ends the process before the command returns: a crash in
// native design code (tools/CrashReporter.cpp), the --timeout watchdog, an interrupt (SIGINT,
// SIGTERM). Such a report is what run_cli would have printed - the error document on stdout with
// --json, else "npusim: KIND: MESSAGE" on stderr - noting the output files that were not written,
// and unfinished temporary files (traces::OutputFile) are removed.
#include <string>
#include <utility>
#include <vector>

namespace npusim::tools::exit_report {

/// The command starting now prints JSON (--json) or text; no output is pending.
void begin(bool json);
/// The outputs (option, path) the command will write, which a report names as not written.
void set_pending_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);
/// The outputs are written (or the command is over): a report names none.
void clear_pending_outputs();
/// "; not written: --trace 'x.json', --vcd 'w.vcd' (files of those names are left as they were)", or
/// "" when nothing is pending.
std::string unwritten_note();

/// Ends the process with `code` after the report: removes unfinished temporary files, then writes
/// the error document (with `status`, `kind`, `message` and the note of unwritten outputs) on file
/// descriptor 1 with --json, else "npusim: KIND: MESSAGE" on descriptor 2. Uses only write(2),
/// unlink(2) and _exit(2): callable from a signal handler.
[[noreturn]] void fatal_exit(int code, const char* status, const char* kind, const char* message) noexcept;

/// SIGINT and SIGTERM end the process with this report (kind "interrupted"), then by the signal
/// itself (its default action), so the shell sees an interrupted command.
void install_interrupt_handlers();

} // namespace npusim::tools::exit_report

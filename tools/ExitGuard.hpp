#pragma once
// ExitGuard: native design code (a worker body or kernel) that calls exit() or quick_exit() while a
// simulation runs would end the process with the status it chose and no result (exit(0) would look
// like a passed golden test). While armed, the guard's handlers (on_exit/atexit and at_quick_exit,
// registered once) name the worker and kernel through a report sink and end the process with exit
// code 2 instead. _Exit and _exit cannot be caught. Used by RunGuard (npusim run) and by the Python
// module around each simulation. Arming does not nest: one simulation runs at a time.
#include <functional>
#include <string>

namespace npusim::tools {

class ExitGuard {
public:
    /// Writes the report (message without the "npusim: kernel error: " prefix) and flushes it.
    using Sink = std::function<void(const std::string& message)>;

    /// Registers the handlers with the C library (once per process; later calls do nothing).
    static void install();
    /// Installs the handlers and arms them for one simulation: `context` names it in the message
    /// ("" for none, "on npu2", "in the what-if rerun 'x'"), `sink` prints the report.
    static void arm(std::string context, Sink sink);
    /// Disarms them (the simulation returned or threw); exit() then ends the process as it asks.
    static void disarm();
};

/// Arms the ExitGuard for its lifetime.
class ExitGuardScope {
public:
    ExitGuardScope(std::string context, ExitGuard::Sink sink) { ExitGuard::arm(std::move(context), std::move(sink)); }
    ~ExitGuardScope() { ExitGuard::disarm(); }
    ExitGuardScope(const ExitGuardScope&) = delete;
    ExitGuardScope& operator=(const ExitGuardScope&) = delete;
};

} // namespace npusim::tools

#pragma once
// RunGuard: what protects each simulation `npusim run` makes - the single run, each device of a
// --device list and each --what-if rerun alike - against native design code (a worker body or
// kernel) that crashes, never returns or ends the process:
//  - the CrashReporter: a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) raised in native
//    code names its worker and kernel (exit 2);
//  - a Watchdog, with a --timeout: one deadline per simulation, --timeout + 1 s after it starts
//    (the simulation itself stops at --timeout when it gets control back); when native code keeps
//    it from returning, the watchdog names that code and ends the process (exit 4);
//  - the ExitGuard: native code that calls exit() or quick_exit() while a simulation runs would
//    end the process with that status and no result (exit(0) would pass a golden test); the guard
//    names the worker and kernel and ends the process with exit code 2 instead.
// Guards do not nest: one simulation runs at a time.
#include "RunArgs.hpp"
#include "Watchdog.hpp"

#include "npusim/harness/DesignRunner.hpp"

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

namespace npusim::tools {

/// With --json, the document a guard prints when it ends the process, given the run's status
/// ("limit", "error"), the error's kind and message. Empty: the plain `error` document. A
/// --device list gives one that keeps the rows of the devices already run.
using GuardDocument = std::function<std::string(const char* status, const char* kind, const std::string& message)>;

class RunGuard {
public:
    /// Arms the guards for one simulation of `r`. `context` names it in the watchdog's and the exit
    /// guard's message ("" for the single run, "on npu2" for a device of a list, "in the what-if
    /// rerun 'free-kernels'"). The reports go to `out` as a JSON error document with --json, else
    /// to `err`; `doc`, when given, makes that JSON document instead.
    RunGuard(const RunArgs& r, std::string context, std::ostream& out, std::ostream& err, GuardDocument doc = {});
    /// Disarms them (the simulation returned or threw).
    ~RunGuard();
    RunGuard(const RunGuard&) = delete;
    RunGuard& operator=(const RunGuard&) = delete;

private:
    std::optional<Watchdog> watchdog_;
};

/// harness::run_design(spec, device, r.params, ro) under a RunGuard: how every simulation of
/// `npusim run` (and `golden`) is made.
harness::RunReport guarded_run(const RunArgs& r, const harness::DesignSpec& spec, const std::string& device,
                               const harness::RunOptions& ro, const std::string& context, std::ostream& out,
                               std::ostream& err, GuardDocument doc = {});

} // namespace npusim::tools

#include "ExitGuard.hpp"

#include "ExitReport.hpp"

#include "npusim/model/NativeActivity.hpp"
#include "npusim/traces/OutputFile.hpp"

#include <atomic>
#include <cstdlib>
#include <fmt/format.h>
#include <mutex>
#include <unistd.h>

namespace npusim::tools {

namespace {

// The simulation the exit guard watches: set while armed. The handlers read it when native code
// ends the process; a plain struct behind an atomic flag (no locking in exit()).
struct ExitGuardArmed {
    std::string context;
    ExitGuard::Sink sink;
};
ExitGuardArmed g_exit_guard_armed;
std::atomic<bool> g_exit_guard_flag{false};

// exit() or quick_exit() called while a simulation runs: the run has no result, so the process
// must not end with the status the code chose (exit(0) would look like a pass).
void exit_guard_on_process_end(const std::string& how) {
    if (!g_exit_guard_flag.exchange(false)) return; // not during a simulation, or reported already
    const std::string who = model::NativeActivity::describe();
    const std::string msg = fmt::format("{} ended the process ({}) before the run finished{}; the run has no result{}",
                                        who.empty() ? std::string("the simulation") : who + " and it", how,
                                        g_exit_guard_armed.context.empty() ? "" : " (" + g_exit_guard_armed.context + ")",
                                        exit_report::unwritten_note());
    traces::OutputFile::remove_unfinished();
    if (g_exit_guard_armed.sink) g_exit_guard_armed.sink(msg);
    ::_exit(2);
}

#if defined(__GLIBC__)
void exit_guard_on_exit_status(int status, void*) { exit_guard_on_process_end(fmt::format("exit status {}", status)); }
#else
void exit_guard_on_exit_any() { exit_guard_on_process_end("exit"); }
#endif
void exit_guard_on_quick_exit() { exit_guard_on_process_end("quick_exit"); }

} // namespace

void ExitGuard::install() {
    static std::once_flag once;
    std::call_once(once, [] {
#if defined(__GLIBC__)
        ::on_exit(exit_guard_on_exit_status, nullptr); // glibc passes the status given to exit()
#else
        std::atexit(exit_guard_on_exit_any);
#endif
        std::at_quick_exit(exit_guard_on_quick_exit);
    });
}

void ExitGuard::arm(std::string context, Sink sink) {
    install();
    g_exit_guard_flag.store(false);
    g_exit_guard_armed = ExitGuardArmed{std::move(context), std::move(sink)};
    g_exit_guard_flag.store(true);
}

void ExitGuard::disarm() { g_exit_guard_flag.store(false); }

} // namespace npusim::tools

#include "RunGuard.hpp"

#include "CrashReporter.hpp"
#include "ExitReport.hpp"
#include "JsonDocument.hpp"

#include "npusim/model/NativeActivity.hpp"
#include "npusim/traces/OutputFile.hpp"

#include <atomic>
#include <cstdlib>
#include <fmt/format.h>
#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <unistd.h>

namespace npusim::tools {

namespace {

// The simulation the exit guard watches: set while a RunGuard lives. The handlers read it when
// native code ends the process; a plain struct behind an atomic flag (no locking in exit()).
struct Armed {
    std::ostream* out = nullptr;
    std::ostream* err = nullptr;
    bool json = false;
    std::string context;
    GuardDocument doc;
};
Armed g_armed;
std::atomic<bool> g_armed_flag{false};

// Prints the JSON error document (with --json) or "npusim: KIND: MESSAGE" and flushes both streams.
void report(std::ostream& out, std::ostream& err, bool json, const GuardDocument& doc, const char* status,
            const char* kind, const std::string& msg) {
    if (json && doc)
        out << doc(status, kind, msg) << "\n";
    else if (json)
        out << json_document("error", {{"status", status}, {"error", {{"kind", kind}, {"message", msg}}}}).dump(2)
            << "\n";
    else
        err << "npusim: " << kind << ": " << msg << "\n";
    out.flush();
    err.flush();
}

// exit() or quick_exit() called while a simulation runs: the run has no result, so the process
// must not end with the status the code chose (exit(0) would look like a pass).
void on_process_end(const std::string& how) {
    if (!g_armed_flag.exchange(false)) return; // not during a simulation, or reported already
    const std::string who = model::NativeActivity::describe();
    const std::string msg = fmt::format("{} ended the process ({}) before the run finished{}; the run has no result{}",
                                        who.empty() ? std::string("the simulation") : who + " and it", how,
                                        g_armed.context.empty() ? "" : " (" + g_armed.context + ")",
                                        exit_report::unwritten_note());
    traces::OutputFile::remove_unfinished();
    report(*g_armed.out, *g_armed.err, g_armed.json, g_armed.doc, "error", "kernel error", msg);
    ::_exit(2);
}

#if defined(__GLIBC__)
void on_exit_status(int status, void*) { on_process_end(fmt::format("exit status {}", status)); }
#else
void on_exit_any() { on_process_end("exit"); }
#endif
void on_quick_exit() { on_process_end("quick_exit"); }

void install_exit_guard() {
    static std::once_flag once;
    std::call_once(once, [] {
#if defined(__GLIBC__)
        ::on_exit(on_exit_status, nullptr); // glibc passes the status given to exit()
#else
        std::atexit(on_exit_any);
#endif
        std::at_quick_exit(on_quick_exit);
    });
}

} // namespace

RunGuard::RunGuard(const RunArgs& r, std::string context, std::ostream& out, std::ostream& err, GuardDocument doc) {
    CrashReporter::install(); // a kernel that crashes gets a message naming it, not a bare signal
    install_exit_guard();
    g_armed = Armed{&out, &err, r.json, context, doc};
    g_armed_flag.store(true);
    // Native code that never returns cannot be stopped from inside: a watchdog names it and ends
    // the process a second after the limit (the simulation itself stops at the limit when it can).
    if (r.timeout_seconds > 0)
        watchdog_.emplace(r.timeout_seconds + 1.0, [&out, &err, json = r.json, t = r.timeout_seconds,
                                                    context = std::move(context), doc = std::move(doc)] {
            g_armed_flag.store(false); // std::_Exit runs no exit handlers; the guard stays quiet anyway
            const std::string where = model::NativeActivity::describe();
            const std::string msg = fmt::format(
                "wall-clock limit of {:g} s reached (--timeout){}: {}; it has not returned, so npusim stops here{}", t,
                context.empty() ? "" : " " + context,
                where.empty() ? std::string("the simulator did not return") : where, exit_report::unwritten_note());
            traces::OutputFile::remove_unfinished();
            report(out, err, json, doc, "limit", "limit reached", msg);
            std::_Exit(4);
        });
}

RunGuard::~RunGuard() {
    g_armed_flag.store(false);
    watchdog_.reset();
}

harness::RunReport guarded_run(const RunArgs& r, const harness::DesignSpec& spec, const std::string& device,
                               const harness::RunOptions& ro, const std::string& context, std::ostream& out,
                               std::ostream& err, GuardDocument doc) {
    const RunGuard guard(r, context, out, err, std::move(doc));
    return harness::run_design(spec, device, r.params, ro);
}

} // namespace npusim::tools

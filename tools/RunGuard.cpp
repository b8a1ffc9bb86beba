#include "RunGuard.hpp"

#include "CrashReporter.hpp"
#include "ExitGuard.hpp"
#include "ExitReport.hpp"
#include "JsonDocument.hpp"

#include "npusim/model/NativeActivity.hpp"
#include "npusim/traces/OutputFile.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>

namespace npusim::tools {

namespace {

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

} // namespace

RunGuard::RunGuard(const RunArgs& r, std::string context, std::ostream& out, std::ostream& err, GuardDocument doc) {
    CrashReporter::install(); // a kernel that crashes gets a message naming it, not a bare signal
    // exit() or quick_exit() in native code: reported as a kernel error, exit code 2
    ExitGuard::arm(context, [&out, &err, json = r.json, doc](const std::string& msg) {
        report(out, err, json, doc, "error", "kernel error", msg);
    });
    // Native code that never returns cannot be stopped from inside: a watchdog names it and ends
    // the process a second after the limit (the simulation itself stops at the limit when it can).
    if (r.timeout_seconds > 0)
        watchdog_.emplace(r.timeout_seconds + 1.0, [&out, &err, json = r.json, t = r.timeout_seconds,
                                                    context = std::move(context), doc = std::move(doc)] {
            ExitGuard::disarm(); // std::_Exit runs no exit handlers; the guard stays quiet anyway
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
    ExitGuard::disarm();
    watchdog_.reset();
}

harness::RunReport guarded_run(const RunArgs& r, const harness::DesignSpec& spec, const std::string& device,
                               const harness::RunOptions& ro, const std::string& context, std::ostream& out,
                               std::ostream& err, GuardDocument doc) {
    const RunGuard guard(r, context, out, err, std::move(doc));
    return harness::run_design(spec, device, r.params, ro);
}

} // namespace npusim::tools

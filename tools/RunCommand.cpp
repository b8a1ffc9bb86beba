#include "RunCommand.hpp"

#include "CliSupport.hpp"
#include "CompareDevices.hpp"
#include "ExitReport.hpp"
#include "HelpNotes.hpp"
#include "HtmlReportOutcome.hpp"
#include "JsonDocument.hpp"
#include "NetlistJson.hpp"
#include "OutputPaths.hpp"
#include "ProgressLine.hpp"
#include "RunGuard.hpp"
#include "RunReport.hpp"
#include "WhatIf.hpp"

#include "npusim/model/Error.hpp"
#include "npusim/sim/Diagnosis.hpp"
#include "npusim/traces/HtmlReportSink.hpp"
#include "npusim/traces/MlirAieTraceSink.hpp"
#include "npusim/traces/OutputFile.hpp"
#include "npusim/traces/PerfettoTraceSink.hpp"
#include "npusim/traces/TeeTraceSink.hpp"
#include "npusim/traces/VcdTraceSink.hpp"

#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <unistd.h>
#include <utility>

namespace npusim::tools {

namespace {

std::map<std::string, std::string>& files_of_failed_run() {
    static std::map<std::string, std::string> files;
    return files;
}

} // namespace

const std::map<std::string, std::string>& failed_run_files() { return files_of_failed_run(); }

void clear_failed_run_files() { files_of_failed_run().clear(); }

int cmd_run(const RunArgs& r, std::ostream& out, std::ostream& err) {
    const auto& spec = harness::design_by_name(r.design);
    if (r.device.find(',') != std::string::npos) return run_on_devices(r, out, err);
    const auto& dev = model::device_by_name(r.device);
    std::optional<ProgressLine> progress; // --progress: on stderr, in place on a terminal
    if (r.progress) progress.emplace(err, &err == &std::cerr && ::isatty(STDERR_FILENO));
    harness::RunOptions ro = run_options(r, dev, RunKind::single, progress ? &*progress : nullptr);
    sim::SimOptions& so = ro.sim;
    // Output paths are checked before the run, without touching the files: a bad path fails at once,
    // not after the simulation, and a run that fails later leaves a previous file as it was.
    const std::vector<std::pair<std::string, std::string>> outputs{{"--trace", r.trace_file},
                                                                   {"--vcd", r.vcd_file},
                                                                   {"--dot", r.dot_file},
                                                                   {"--html", r.html_file},
                                                                   {"--save-outputs", r.save_dir}};
    check_distinct_outputs(outputs);
    for (const auto& [opt, path] : outputs)
        if (!path.empty()) opt == "--save-outputs" ? check_output_dir(opt, path) : check_output_file(opt, path);
    exit_report::set_pending_outputs(outputs); // named by a crash report or the watchdog
    exit_report::install_interrupt_handlers();
    std::unique_ptr<traces::PerfettoTraceSink> perfetto;
    std::unique_ptr<traces::MlirAieTraceSink> mlir_aie;
    std::unique_ptr<traces::VcdTraceSink> vcd;
    std::vector<sim::TraceSink*> sinks;
    if (!r.trace_file.empty() && r.mlir_aie_trace)
        sinks.push_back((mlir_aie = std::make_unique<traces::MlirAieTraceSink>(r.trace_file)).get());
    else if (!r.trace_file.empty())
        sinks.push_back((perfetto = std::make_unique<traces::PerfettoTraceSink>(r.trace_file)).get());
    if (!r.vcd_file.empty()) sinks.push_back((vcd = std::make_unique<traces::VcdTraceSink>(r.vcd_file)).get());
    // The report is written once the run's end is known (pass, mismatch or failure), not by finish().
    std::unique_ptr<traces::HtmlReportSink> html;
    if (!r.html_file.empty())
        sinks.push_back((html = std::make_unique<traces::HtmlReportSink>(r.html_file, false)).get());
    traces::TeeTraceSink tee(sinks);
    if (!sinks.empty()) so.trace = &tee;
    nlohmann::json netlist_doc; // --netlist: printed now, or with --json the document's structured field
    if (r.netlist) {
        const RunGuard guard(r, "", out, err); // the bodies' resolve-time trace is native code too
        auto inst = spec.build(dev, spec.resolve_params(r.params), harness::BuildOptions(r.seed, r.kernels));
        const auto net = inst.program.resolve(harness::resolve_options(spec, ro));
        if (r.json)
            netlist_doc = netlist_json(net);
        else
            out << net.dump();
    }
    std::optional<harness::RunReport> run;
    try {
        run = guarded_run(r, spec, dev.name, ro, "", out, err);
    } catch (const SimulationError& e) {
        // The simulator wrote the trace and waveform up to the failure (blocked spans open there).
        if (html) {
            // A report that cannot be written is noted; the failure's report and exit code stay.
            try {
                html->write(html_outcome(e));
                err << "  report written to " << r.html_file << " (up to the failure; open in a browser)\n";
                files_of_failed_run()["html"] = r.html_file;
            } catch (const std::exception& w) {
                err << "  --html: " << w.what() << "; the report follows\n";
            }
        }
        if (!r.trace_file.empty()) {
            err << "  trace written to " << r.trace_file << " (up to the failure)\n";
            files_of_failed_run()["trace"] = r.trace_file;
        }
        if (!r.vcd_file.empty()) {
            err << "  waveform written to " << r.vcd_file << " (up to the failure)\n";
            files_of_failed_run()["vcd"] = r.vcd_file;
        }
        if (!r.dot_file.empty()) {
            if (const auto* d = sim::diagnosis_of(e)) {
                // A graph that cannot be written is noted; the deadlock report and exit code stay.
                try {
                    traces::OutputFile f(r.dot_file, "wait-for graph");
                    f.write(d->to_dot());
                    f.close();
                    err << "  wait-for graph written to " << r.dot_file << " (render: dot -Tsvg " << r.dot_file
                        << " -o graph.svg)\n";
                    files_of_failed_run()["dot"] = r.dot_file;
                } catch (const traces::OutputFileError& w) {
                    err << "  --dot: cannot write '" << r.dot_file << "': " << w.reason << "; the report follows\n";
                }
            }
        }
        exit_report::clear_pending_outputs();
        throw;
    } catch (const std::exception& e) {
        // Before the simulation (a design error) or after it (--save-outputs cannot write): the
        // report shows the error, and the run when there was one.
        if (html) {
            try {
                auto o = html_outcome(e);
                o.design = r.design;
                o.device = dev.name;
                html->write(o);
                err << "  report written to " << r.html_file << " (open in a browser)\n";
            } catch (const std::exception&) { // the error being reported matters more
            }
        }
        throw;
    }
    exit_report::clear_pending_outputs();
    if (!r.dot_file.empty()) {
        err << "  --dot: the run finished, so there is no wait-for graph to draw (" << r.dot_file << " not written)\n";
    }
    const auto& rep = *run;
    // The reruns get the run's own options and guards (RunKind::what_if: all but --save-outputs).
    auto what_if_options = [&] { return run_options(r, dev, RunKind::what_if, progress ? &*progress : nullptr); };
    if (html) html->write(html_outcome(rep));
    if (r.json) {
        auto j = json_document("run", run_report_json(rep, so.timing));
        if (r.netlist) j["netlist"] = std::move(netlist_doc);
        j["files"] = nlohmann::json::object(); // the files this run wrote
        for (const auto& [key, path] : {std::pair<const char*, const std::string*>{"trace", &r.trace_file},
                                        {"vcd", &r.vcd_file},
                                        {"html", &r.html_file},
                                        {"save_outputs", &r.save_dir}})
            if (!path->empty()) j["files"][key] = *path;
        if (!r.what_if.empty()) run_what_ifs(r, spec, what_if_options(), rep, out, err, &j);
        out << j.dump(2) << "\n";
    } else {
        print_run_summary(out, rep, so.timing);
        if (!r.what_if.empty()) run_what_ifs(r, spec, what_if_options(), rep, out, err, nullptr);
    }
    if (!r.trace_file.empty() && !r.json)
        out << "  trace written to " << r.trace_file
            << (r.mlir_aie_trace ? " (mlir-aie format: open in ui.perfetto.dev, summarise with get_trace_summary.py)\n"
                                 : " (open in ui.perfetto.dev)\n");
    if (!r.vcd_file.empty() && !r.json) out << "  waveform written to " << r.vcd_file << " (open with GTKWave)\n";
    if (!r.html_file.empty() && !r.json) out << "  report written to " << r.html_file << " (open in a browser)\n";
    return rep.all_match ? 0 : 1;
}

Command add_run_command(CLI::App& app, const std::string& name, std::ostream& out, std::ostream& err) {
    auto* sub = add_command(app,
        name, name == "run" ? "  npusim run DESIGN [options]    simulate a design and check every output against its "
                              "golden\n                                 reference (the design's C++ reference on the "
                              "same inputs)"
                            : "  npusim golden DESIGN [options] the same as run (for golden-model test scripts)", kNpyNote);
    auto r = std::make_shared<RunArgs>();
    auto o = std::make_shared<CliOptions>(*sub, name, "run options (golden takes the same)");
    add_design_options(*o, *r, true);
    add_run_options(*o, *r);
    return {sub, [r, o, name, &out, &err] {
                o->apply();
                if (r->design.empty()) throw UsageError(fmt::format("{}: which design? (see `npusim list`)", name));
                if (r->mlir_aie_trace && r->trace_file.empty())
                    throw UsageError("--trace-format mlir-aie needs --trace FILE.json");
                r->check_memory = !r->no_memory_check;
                return cmd_run(*r, out, err);
            }};
}

} // namespace npusim::tools

#include "CalibrateCommand.hpp"

#include "Calibration.hpp"
#include "CliSupport.hpp"
#include "JsonDocument.hpp"
#include "OutputPaths.hpp"

#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/TimingProfiles.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <ostream>

namespace npusim::tools {

namespace {

struct CalibrateArgs {
    RunArgs run;
    std::vector<std::string> traces, npu_times, fit;
    std::string output;
};

/// "[DESIGN[,K=V...]:]VALUE": the design and parameters a measurement is of (DESIGN's own when
/// there is no registered design name before a ':'), and the value.
std::pair<CalibrationTarget, std::string> split_spec(const std::string& spec, const RunArgs& r, const char* opt) {
    CalibrationTarget t{r.design, r.params, {}, {}};
    const auto colon = spec.find(':');
    if (colon != std::string::npos) {
        const std::string head = spec.substr(0, colon);
        const std::string name = head.substr(0, head.find(','));
        const auto& all = harness::all_designs();
        if (std::any_of(all.begin(), all.end(), [&](const harness::DesignSpec& d) { return d.name == name; })) {
            t.design = name;
            t.params.clear();
            for (auto pos = head.find(','); pos != std::string::npos;) {
                const auto next = head.find(',', pos + 1);
                parse_param(head.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1),
                            t.params);
                pos = next;
            }
            const std::string value = spec.substr(colon + 1);
            if (value.empty()) throw UsageError(fmt::format("{} '{}' names no file or value after ':'", opt, spec));
            return {t, value};
        }
    }
    if (spec.empty()) throw UsageError(fmt::format("{} needs a value", opt));
    return {t, spec};
}

/// The targets, one per distinct design and parameters, in the order given.
std::vector<CalibrationTarget> collect_targets(const CalibrateArgs& a) {
    std::vector<CalibrationTarget> out;
    auto target_for = [&](const CalibrationTarget& like) -> CalibrationTarget& {
        for (auto& t : out)
            if (t.design == like.design && t.params == like.params) return t;
        out.push_back(like);
        return out.back();
    };
    for (const auto& s : a.traces) {
        auto [t, file] = split_spec(s, a.run, "--trace");
        target_for(t).trace_files.push_back(file);
    }
    for (const auto& s : a.npu_times) {
        auto [t, value] = split_spec(s, a.run, "--npu-time-us");
        double us = 0;
        auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), us);
        if (ec != std::errc() || p != value.data() + value.size() || !(us > 0) || !std::isfinite(us))
            throw UsageError(fmt::format("--npu-time-us expects a positive number of microseconds, got '{}'", value));
        target_for(t).npu_time_us.push_back(us);
    }
    return out;
}

void print_result(const CalibrationResult& res, std::ostream& out) {
    out << fmt::format("calibrated on {} ({}), {} simulated run(s)\n", res.device, model::arch_name(res.fitted.arch),
                       grouped(static_cast<std::uint64_t>(res.evaluations)));
    out << fmt::format("  {:<32} {:>8} {:>12} {:>12} {:>9}  {}\n", "parameter", "unit", "before", "after", "change",
                       "source");
    for (const auto& p : res.parameters) {
        if (!p.fitted) continue;
        const std::string change =
            p.before != 0 ? fmt::format("{:+.1f}%", 100 * (p.after - p.before) / p.before) : std::string("-");
        out << fmt::format("  {:<32} {:>8} {:>12g} {:>12g} {:>9}  {}\n", p.name, p.unit, p.before, p.after, change,
                           p.source_tag);
    }
    std::string kept;
    for (const auto& p : res.parameters)
        if (!p.fitted && p.held.starts_with("no ")) kept += (kept.empty() ? "" : ", ") + p.name;
    for (const auto& p : res.parameters)
        if (!p.fitted && !p.held.starts_with("no ") && p.held != "not in --fit")
            out << fmt::format("  {:<32} {:>8} {:>12g} {:>12}  held: {}\n", p.name, p.unit, p.before, "-", p.held);
    // Each combined degree of freedom: a fitted parameter and those held with it, or fitted
    // parameters that are collinear at the fitted values.
    for (const auto& root : res.parameters) {
        if (!root.fitted) continue;
        std::string with;
        for (const auto& p : res.parameters)
            if (!p.fitted && p.combined_with == root.name) with += " + " + p.name;
        if (!with.empty())
            out << "  one degree of freedom in these traces: " << root.name << with << " (fitted through "
                << root.name << "; the others keep their values)\n";
    }
    for (const auto& comb : res.combinations) {
        std::string group;
        for (const auto& n : comb.names) group += (group.empty() ? "" : " + ") + n;
        out << fmt::format("  one degree of freedom in these traces: {} (condition number {:.3g} at the fitted "
                           "values): the traces fix a combination of them; along what they cannot see the table's "
                           "split is kept\n",
                           group, comb.condition);
    }
    if (!kept.empty()) out << "  not fitted (no traced event or NPU time moves with them): " << kept << "\n";
    std::string unasked;
    for (const auto& p : res.parameters)
        if (!p.fitted && p.held == "not in --fit") unasked += (unasked.empty() ? "" : ", ") + p.name;
    if (!unasked.empty()) out << "  kept (not in --fit): " << unasked << "\n";
    out << fmt::format("  {:<32} {:>8} {:>12} {:>12} {:>9}\n", "residual (rms)", "count", "before", "after", "unit");
    for (const auto& c : res.residuals)
        out << fmt::format("  {:<32} {:>8} {:>12.2f} {:>12.2f} {:>9}\n", traces::observation_kind_name(c.kind), c.count,
                           c.rms_before, c.rms_after, traces::observation_kind_unit(c.kind));
}

int run_calibrate(const CalibrateArgs& a, std::ostream& out, std::ostream& err) {
    if (a.run.design.empty()) throw UsageError("calibrate: which design? (see `npusim list`)");
    if (a.traces.empty() && a.npu_times.empty())
        throw UsageError("calibrate: give the measurements to fit: --trace FILE (mlir-aie trace JSON) and/or "
                         "--npu-time-us US");
    if (!a.output.empty()) check_output_file("-o", a.output);
    const auto targets = collect_targets(a);
    const auto& dev = model::device_by_name(a.run.device);
    auto start = model::TimingParams::for_arch(dev.arch);
    if (!a.run.timing_file.empty()) start.apply_json_file(harness::timing_profile_path(a.run.timing_file));
    const auto res = calibrate(a.run, targets, start, a.fit, out, err);
    const auto profile = calibration_profile(res, targets);
    if (!a.output.empty()) {
        std::ofstream f(a.output);
        f << profile.dump(2) << "\n";
        f.close();
        if (!f) throw FileError(fmt::format("cannot write -o '{}': {}", a.output, std::strerror(errno)));
    }
    if (a.run.json) {
        nlohmann::json j{{"device", res.device}, {"profile", profile}, {"simulated_runs", res.evaluations}};
        j["parameters"] = nlohmann::json::array();
        for (const auto& p : res.parameters)
            j["parameters"].push_back({{"name", p.name},
                                       {"unit", p.unit},
                                       {"source", p.source_tag},
                                       {"before", p.before},
                                       {"after", p.after},
                                       {"fitted", p.fitted},
                                       {"held", p.fitted ? nlohmann::json() : nlohmann::json(p.held)},
                                       {"combined_with", p.combined_with.empty() ? nlohmann::json()
                                                                                 : nlohmann::json(p.combined_with)},
                                       {"condition", p.combined_with.empty() || std::isinf(p.condition)
                                                         ? nlohmann::json()
                                                         : nlohmann::json(p.condition)}});
        j["output"] = a.output.empty() ? nlohmann::json() : nlohmann::json(a.output);
        out << json_document("calibrate", std::move(j)).dump(2) << "\n";
        return 0;
    }
    print_result(res, out);
    if (!a.output.empty()) out << "  profile written to " << a.output << " (use it with --timing " << a.output << ")\n";
    return 0;
}

} // namespace

Command add_calibrate_command(CLI::App& app, std::ostream& out, std::ostream& err) {
    auto* sub = add_command(
        app, "calibrate",
        "  npusim calibrate DESIGN --trace hw.json [--trace ...] [-o profile.json]\n"
        "                                 fit the timing parameters to traces captured on an NPU (mlir-aie's\n"
        "                                 parse.py JSON) and write a profile for --timing (docs/calibration.md)");
    auto a = std::make_shared<CalibrateArgs>();
    auto o = std::make_shared<CliOptions>(*sub, "calibrate", "calibrate options");
    add_design_options(*o, a->run, false);
    o->repeated("--trace", "[DESIGN[,K=V...]:]FILE",
                "a trace captured on the NPU, in the JSON mlir-aie's parse.py writes (repeatable): of DESIGN with "
                "--param, or of the design and parameters before the ':'",
                [a](const std::string& v) { a->traces.push_back(v); });
    o->repeated("--npu-time-us", "[DESIGN[,K=V...]:]US",
                "the NPU time per run the host measured (mlir-aie's test programs print it as 'Avg NPU time'), "
                "host invocation included: fits host_invocation_latency_us (repeatable)",
                [a](const std::string& v) { a->npu_times.push_back(v); });
    o->value("--timing", "FILE|NAME", "the timing profile to start from (default: the generation's table)",
             [a](const std::string& v) { a->run.timing_file = v; });
    o->value("--fit", "NAME[,NAME...]",
             "fit these parameters only (default: every parameter a traced event or NPU time moves with)",
             [a](const std::string& v) {
                 a->fit.clear();
                 for (std::size_t pos = 0; pos <= v.size();) {
                     const auto next = std::min(v.find(',', pos), v.size());
                     if (next == pos) throw UsageError(fmt::format("--fit expects NAME[,NAME...], got '{}'", v));
                     a->fit.push_back(v.substr(pos, next - pos));
                     pos = next + 1;
                 }
             });
    o->value("-o", "FILE", "write the fitted timing profile (JSON) to FILE",
             [a](const std::string& v) { a->output = output_name("-o", v); });
    return {sub, [a, o, &out, &err] {
                o->apply();
                return run_calibrate(*a, out, err);
            }};
}

} // namespace npusim::tools

#include "Calibration.hpp"

#include "CliSupport.hpp"
#include "OutputPaths.hpp"
#include "RunGuard.hpp"

#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/TrustReport.hpp"
#include "npusim/model/Error.hpp"
#include "npusim/traces/MlirAieTraceSink.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sstream>

namespace npusim::tools {

namespace {

using traces::ObservationKind;

/// A folder for the simulated traces, removed with its contents at the end.
class ScratchDir {
public:
    ScratchDir() {
        std::string templ = (std::filesystem::temp_directory_path() / "npusim-calibrate-XXXXXX").string();
        if (!::mkdtemp(templ.data())) throw FileError("calibrate: cannot create a temporary folder for its traces");
        path_ = templ;
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    std::string file(std::size_t i) const { return (path_ / fmt::format("run{}.json", i)).string(); }

private:
    std::filesystem::path path_;
};

/// A target with its measurements read and checked.
struct Prepared {
    const harness::DesignSpec* spec = nullptr;
    harness::Params params;
    std::string what; ///< "design 'x' (N=4096) on npu1_1col", for refusals
    std::vector<traces::MlirAieTraceFile> traces;
    std::vector<std::vector<traces::Observation>> observed;
    std::vector<double> npu_time_us;
};

std::string describe_target(const CalibrationTarget& t, const std::string& device) {
    std::vector<std::string> ps;
    for (const auto& [k, v] : t.params) ps.push_back(fmt::format("{}={}", k, v));
    return fmt::format("design '{}'{} on {}", t.design, ps.empty() ? "" : fmt::format(" ({})", fmt::join(ps, ", ")),
                       device);
}

/// A trace unit on a tile the device does not have: the trace is of another device.
void check_device(const traces::MlirAieTraceFile& t, const model::DeviceSpec& dev) {
    for (const auto& u : t.units)
        if (!dev.contains(u.tile))
            throw DesignError(fmt::format(
                "trace file {} is of another device: it traces {}_trace for tile{},{} (column {}, row {}), and {} has "
                "{} column(s) of {} rows; calibrate with the --device the trace was captured on",
                t.origin, model::trace_unit_type_name(u.type), u.tile.row, u.tile.col, u.tile.col, u.tile.row, dev.name,
                dev.cols, dev.rows));
}

/// The simulated counterpart of every measurement: per evaluation, one run per target.
class Simulator {
public:
    Simulator(const RunArgs& r, const model::DeviceSpec& dev, std::vector<Prepared>& targets, std::ostream& out,
              std::ostream& err)
        : r_(r), dev_(dev), targets_(targets), out_(out), err_(err) {}

    /// Measured minus simulated, every target's traces then its NPU times (in cycles of the
    /// table's clock, so a us weighs as its cycles do); `kinds` gets each one's kind.
    std::vector<double> residuals(const model::TimingParams& timing, std::vector<ObservationKind>* kinds = nullptr) {
        ++runs_;
        std::vector<double> res;
        for (std::size_t t = 0; t < targets_.size(); ++t) {
            auto& tg = targets_[t];
            auto ro = run_options(r_, dev_, RunKind::what_if);
            ro.sim.timing = timing;
            ro.iters = 1;
            ro.warmup = 0;
            traces::MlirAieTraceSink sink(scratch_.file(t));
            ro.sim.trace = &sink;
            auto args = r_; // the target's design and parameters (guarded_run runs r.params)
            args.design = tg.spec->name;
            args.params = tg.params;
            const auto rep =
                guarded_run(args, *tg.spec, dev_.name, ro, "in a calibration run of " + tg.what, out_, err_);
            const auto sim_trace = traces::read_mlir_aie_trace(sink.path());
            for (std::size_t i = 0; i < tg.traces.size(); ++i) {
                const auto sim = traces::align_observations(tg.traces[i], tg.observed[i], sim_trace, tg.what);
                for (std::size_t k = 0; k < sim.size(); ++k) {
                    res.push_back(tg.observed[i][k].value - sim[k]);
                    if (kinds) kinds->push_back(tg.observed[i][k].kind);
                }
            }
            const double us =
                static_cast<double>(rep.result.cycles) / timing.clock_mhz + timing.host_invocation_latency_us;
            for (double m : tg.npu_time_us) {
                res.push_back((m - us) * timing.clock_mhz);
                if (kinds) kinds->push_back(ObservationKind::NpuTime);
            }
        }
        return res;
    }
    int runs() const { return runs_; }

private:
    const RunArgs& r_;
    const model::DeviceSpec& dev_;
    std::vector<Prepared>& targets_;
    std::ostream& out_;
    std::ostream& err_;
    ScratchDir scratch_;
    int runs_ = 0;
};

std::vector<CalibrationResidual> per_kind(const std::vector<ObservationKind>& kinds, const std::vector<double>& before,
                                          const std::vector<double>& after, double clock_mhz) {
    std::vector<CalibrationResidual> out;
    for (int k = 0; k < traces::kObservationKinds; ++k) {
        CalibrationResidual c;
        c.kind = static_cast<ObservationKind>(k);
        double sb = 0, sa = 0;
        for (std::size_t i = 0; i < kinds.size(); ++i)
            if (kinds[i] == c.kind) {
                ++c.count;
                sb += before[i] * before[i];
                sa += after[i] * after[i];
            }
        if (c.count == 0) continue;
        const double unit = c.kind == ObservationKind::NpuTime ? clock_mhz : 1.0; // back to us
        c.rms_before = std::sqrt(sb / static_cast<double>(c.count)) / unit;
        c.rms_after = std::sqrt(sa / static_cast<double>(c.count)) / unit;
        out.push_back(c);
    }
    return out;
}

} // namespace

double sensitivity_value(const model::TimingParamRow& row, double v, double factor) {
    double x = v * factor;
    if (std::holds_alternative<std::uint32_t model::TimingParams::*>(row.member)) x = std::floor(x);
    return x;
}

CalibrationResult calibrate(const RunArgs& r, const std::vector<CalibrationTarget>& targets,
                            const model::TimingParams& start, const std::vector<std::string>& fit, std::ostream& out,
                            std::ostream& err) {
    const auto& dev = model::device_by_name(r.device);
    std::vector<Prepared> prepared;
    for (const auto& t : targets) {
        Prepared p;
        p.spec = &harness::design_by_name(t.design);
        if (std::find(p.spec->devices.begin(), p.spec->devices.end(), dev.name) == p.spec->devices.end())
            throw DesignError(fmt::format("design '{}' does not run on {} (devices: {})", t.design, dev.name,
                                          fmt::join(p.spec->devices, ", ")));
        p.params = t.params;
        p.what = describe_target(t, dev.name);
        for (const auto& f : t.trace_files) {
            p.traces.push_back(traces::read_mlir_aie_trace(f));
            check_device(p.traces.back(), dev);
            p.observed.push_back(traces::trace_observations(p.traces.back()));
            if (p.observed.back().empty())
                throw DesignError(fmt::format("trace file {} has no event calibrate can use (kernel calls, "
                                              "lock stalls, DMA activity)",
                                              p.traces.back().origin));
        }
        p.npu_time_us = t.npu_time_us;
        prepared.push_back(std::move(p));
    }
    Simulator sim(r, dev, prepared, out, err);
    CalibrationResult res;
    res.device = dev.name;
    res.start = start;
    std::vector<ObservationKind> kinds;
    const auto base = sim.residuals(start, &kinds);

    // The parameters to fit: named, or those an observation moves with.
    std::vector<const model::TimingParamRow*> rows;
    for (const auto& name : fit) {
        const auto* row = model::find_timing_param(name);
        if (!row || !harness::timing_row_fittable(*row))
            throw UsageError(fmt::format("calibrate: --fit '{}' is {}", name,
                                         row ? "not fitted (a trace is in cycles; the clock converts them)"
                                             : "not a timing parameter (`npusim timing` lists them)"));
        rows.push_back(row);
    }
    if (fit.empty())
        for (const auto& row : model::timing_param_table()) {
            if (!harness::timing_row_fittable(row)) continue;
            const auto p = harness::timing_fit_parameter(row, start);
            double x = sensitivity_value(row, std::max(p.start, p.integer ? 1.0 : 0.0), 2.0);
            if (p.start == 0) x = p.integer ? 4 : 1;
            if (x > p.upper) x = sensitivity_value(row, p.start, 0.5);
            if (x == p.start) continue;
            auto t = start;
            row.set(t, x);
            if (sim.residuals(t) != base) rows.push_back(&row);
        }
    if (rows.empty())
        throw DesignError("calibrate: no timing parameter moves any traced event or NPU time of these runs: "
                          "nothing to fit (trace the kernel calls, locks and DMA ports, or give --npu-time-us)");
    std::vector<harness::FitParameter> params;
    for (const auto* row : rows) params.push_back(harness::timing_fit_parameter(*row, start));
    auto with = [&](const std::vector<double>& x) {
        auto t = start;
        for (std::size_t i = 0; i < rows.size(); ++i) rows[i]->set(t, x[i]);
        return t;
    };
    const auto outcome =
        harness::fit_least_squares(params, [&](const std::vector<double>& x) { return sim.residuals(with(x)); });
    res.fitted = with(outcome.values);
    res.residuals = per_kind(kinds, base, outcome.residuals, start.clock_mhz);
    res.evaluations = sim.runs();
    for (const auto& row : model::timing_param_table()) {
        if (!harness::timing_row_fittable(row)) continue;
        CalibratedParameter c{row.name,
                              model::timing_unit_name(row.unit),
                              harness::source_tag(row.source_for(start.arch)),
                              row.get(start),
                              row.get(res.fitted),
                              false,
                              fit.empty() ? "no traced event or NPU time moves with it" : "not in --fit"};
        const auto at = std::find(rows.begin(), rows.end(), &row);
        if (at != rows.end()) {
            const int held = outcome.held[static_cast<std::size_t>(at - rows.begin())];
            c.fitted = held == harness::kFitted;
            if (held >= 0) {
                const double cond = outcome.condition[static_cast<std::size_t>(at - rows.begin())];
                c.combined_with = rows[static_cast<std::size_t>(held)]->name;
                c.condition = cond;
                c.held = std::isinf(cond)
                             ? fmt::format("moves as {} does in these traces (one degree of freedom with it)",
                                           c.combined_with)
                             : fmt::format("moves as {} does in these traces (one degree of freedom with it: "
                                           "condition number {:.0f})",
                                           c.combined_with, cond);
            }
        }
        res.parameters.push_back(std::move(c));
    }
    // Fitted parameters collinear at the fitted values: one degree of freedom; each member names
    // the others (of its first such group).
    for (std::size_t g = 0; g < outcome.combined.size(); ++g) {
        CalibrationResult::Combination comb;
        comb.condition = outcome.combined_condition[g];
        for (const auto& c : res.parameters)
            for (const int member : outcome.combined[g])
                if (c.name == rows[static_cast<std::size_t>(member)]->name) comb.names.push_back(c.name);
        for (auto& c : res.parameters) {
            if (!c.combined_with.empty() ||
                std::find(comb.names.begin(), comb.names.end(), c.name) == comb.names.end())
                continue;
            for (const auto& other : comb.names)
                if (other != c.name) c.combined_with += (c.combined_with.empty() ? "" : " + ") + other;
            c.condition = comb.condition;
        }
        res.combinations.push_back(std::move(comb));
    }
    return res;
}

nlohmann::json calibration_profile(const CalibrationResult& res, const std::vector<CalibrationTarget>& targets) {
    nlohmann::json j = nlohmann::json::object();
    const auto table = model::TimingParams::for_arch(res.fitted.arch);
    nlohmann::json meta{{"generation", model::arch_name(res.fitted.arch)}, {"device", res.device}};
    meta["fitted"] = nlohmann::json::array();
    for (const auto& p : res.parameters)
        if (p.fitted) meta["fitted"].push_back(p.name);
    meta["runs"] = nlohmann::json::array();
    for (const auto& t : targets) {
        nlohmann::json run{{"design", t.design}, {"params", nlohmann::json::object()}, {"traces", t.trace_files}};
        for (const auto& [k, v] : t.params) run["params"][k] = v;
        if (!t.npu_time_us.empty()) run["npu_time_us"] = t.npu_time_us;
        meta["runs"].push_back(std::move(run));
    }
    meta["residuals"] = nlohmann::json::array();
    for (const auto& c : res.residuals)
        meta["residuals"].push_back({{"kind", traces::observation_kind_name(c.kind)},
                                     {"unit", traces::observation_kind_unit(c.kind)},
                                     {"count", c.count},
                                     {"rms_before", c.rms_before},
                                     {"rms_after", c.rms_after}});
    j["calibration"] = std::move(meta);
    for (const auto& row : model::timing_param_table()) {
        const double v = row.get(res.fitted);
        const bool fitted = std::any_of(res.parameters.begin(), res.parameters.end(),
                                        [&](const CalibratedParameter& p) { return p.fitted && p.name == row.name; });
        // Rates and times to 6 significant digits: a fit is no more precise, and the file stays readable.
        if (fitted || v != row.get(table)) j[row.name] = std::stod(fmt::format("{:.6g}", v));
    }
    return j;
}

} // namespace npusim::tools

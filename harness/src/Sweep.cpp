#include "npusim/harness/Sweep.hpp"

#include "npusim/harness/ForkPool.hpp"
#include "npusim/model/Error.hpp"

#include <chrono>
#include <fmt/format.h>
#include <set>
#include <sstream>

namespace npusim::harness {

std::vector<SweepPoint> sweep_points(const DesignSpec& spec, const std::vector<std::string>& devices,
                                     const std::vector<SweepAxis>& axes, std::size_t max_points) {
    if (devices.empty()) throw DesignError(fmt::format("sweep of '{}': no device given", spec.name));
    std::set<std::string> seen;
    std::size_t total = devices.size();
    for (const auto& [name, values] : axes) {
        if (!seen.insert(name).second)
            throw DesignError(fmt::format("sweep of '{}': parameter '{}' is swept twice", spec.name, name));
        if (values.empty())
            throw DesignError(fmt::format("sweep of '{}': parameter '{}' has no values", spec.name, name));
        if (total > max_points / values.size())
            throw DesignError(
                fmt::format("sweep of '{}': more than {} points; sweep fewer values", spec.name, max_points));
        total *= values.size();
    }
    std::vector<SweepPoint> points;
    points.reserve(total);
    for (const auto& device : devices) {
        const auto& dev = model::device_by_name(device); // DesignError for an unknown device
        if (!spec.supports(dev.name))
            throw DesignError(fmt::format("design '{}' does not run on {}", spec.name, dev.name));
        std::vector<std::size_t> at(axes.size(), 0); // an odometer over the axes
        for (;;) {
            Params p;
            for (std::size_t a = 0; a < axes.size(); ++a) p[axes[a].first] = axes[a].second[at[a]];
            points.push_back({dev.name, spec.resolve_params(p)}); // DesignError for an unknown parameter
            std::size_t a = axes.size();
            while (a > 0 && ++at[a - 1] == axes[a - 1].second.size()) at[--a] = 0;
            if (a == 0) break;
        }
    }
    return points;
}

namespace {

RunOutcome run_point(const DesignSpec& spec, const SweepPoint& p, const SweepOptions& opts) {
    RunOptions ro;
    ro.seed = opts.seed;
    ro.kernels = opts.kernels;
    ro.sim.timing = model::TimingParams::for_arch(model::device_by_name(p.device).arch);
    ro.sim.max_cycles = opts.max_cycles;
    return outcome_of(spec, p.device, p.params, ro);
}

} // namespace

std::vector<SweepResult> run_sweep(const DesignSpec& spec, const std::vector<SweepPoint>& points,
                                   const SweepOptions& opts) {
    std::vector<SweepResult> out(points.size());
    std::size_t done = 0;
    if (opts.fork_workers) {
        ForkPool(opts.jobs, opts.timeout_seconds)
            .run(
                points.size(), [&](std::size_t i) { return run_point(spec, points[i], opts); },
                [&](std::size_t i, const RunOutcome& o, double s) {
                    out[i] = {o, s};
                    if (opts.progress) opts.progress(++done, points.size());
                });
        return out;
    }
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        out[i].outcome = run_point(spec, points[i], opts);
        out[i].seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (opts.progress) opts.progress(++done, points.size());
    }
    return out;
}

std::string encode(const SweepResult& r) { return fmt::format("{:.9g}\n{}", r.seconds, encode(r.outcome)); }

std::optional<SweepResult> decode_sweep_result(const std::string& s) {
    const auto nl = s.find('\n');
    if (nl == std::string::npos) return std::nullopt;
    SweepResult r;
    std::istringstream in(s.substr(0, nl));
    if (!(in >> r.seconds) || !in.eof()) return std::nullopt;
    const auto o = decode(s.substr(nl + 1));
    if (!o) return std::nullopt;
    r.outcome = *o;
    return r;
}

} // namespace npusim::harness

#include "Sensitivity.hpp"

#include "Cli.hpp"
#include "CliSupport.hpp"
#include "RunGuard.hpp"

#include "npusim/harness/TrustReport.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <vector>

namespace npusim::tools {

namespace {

struct Point {
    double value = 0;
    std::optional<std::uint64_t> cycles; ///< per invocation, as the baseline's
    double npu_time_us = 0;
    std::string error;
};
struct Param {
    std::string name, unit, source;
    double value = 0;
    Point half, twice;
};

/// Cycles per invocation: what npu_time_us is built from.
double per_invocation(const harness::RunReport& rep) {
    const auto n = rep.invocations.empty() ? std::size_t{1} : rep.invocations.size();
    return static_cast<double>(rep.result.cycles) / static_cast<double>(n);
}
double npu_us(double cycles, const model::TimingParams& t) {
    return cycles / t.clock_mhz + t.host_invocation_latency_us;
}

} // namespace

void run_sensitivity(const RunArgs& r, const harness::DesignSpec& spec, const harness::RunOptions& base,
                     const harness::RunReport& baseline, std::ostream& out, std::ostream& err, nlohmann::json* json) {
    const auto& timing = base.sim.timing;
    std::vector<Param> params;
    for (const auto& row : model::timing_param_table()) {
        if (harness::source_tag(row.source_for(timing.arch)) != "[est]") continue;
        const double v = row.get(timing);
        if (v <= 0) continue; // half and double of nothing is nothing
        Param p{row.name, model::timing_unit_name(row.unit), row.source_for(timing.arch), v, {}, {}};
        for (auto [point, factor] : {std::pair{&p.half, 0.5}, std::pair{&p.twice, 2.0}}) {
            double x = v * factor;
            if (std::holds_alternative<std::uint32_t model::TimingParams::*>(row.member)) x = std::floor(x);
            point->value = x;
            auto ro = base;
            row.set(ro.sim.timing, x);
            try {
                const auto rep = guarded_run(r, spec, baseline.device, ro,
                                             fmt::format("in the sensitivity rerun {} = {}", row.name, x), out, err);
                const double c = per_invocation(rep);
                point->cycles = static_cast<std::uint64_t>(std::llround(c));
                point->npu_time_us = npu_us(c, ro.sim.timing);
            } catch (const std::exception& e) {
                const auto c = classify_error(e);
                point->error = fmt::format("{}: {}", c.kind, e.what());
            }
        }
        params.push_back(std::move(p));
    }
    const double base_cycles = per_invocation(baseline);
    const double base_us = npu_us(base_cycles, timing);
    double lo_c = base_cycles, hi_c = base_cycles, lo_us = base_us, hi_us = base_us;
    for (const auto& p : params)
        for (const auto* pt : {&p.half, &p.twice})
            if (pt->cycles) {
                lo_c = std::min(lo_c, static_cast<double>(*pt->cycles));
                hi_c = std::max(hi_c, static_cast<double>(*pt->cycles));
                lo_us = std::min(lo_us, pt->npu_time_us);
                hi_us = std::max(hi_us, pt->npu_time_us);
            }
    if (json) {
        auto point = [](const Point& pt) {
            nlohmann::json j{{"value", pt.value}};
            if (pt.cycles) {
                j["cycles"] = *pt.cycles;
                j["npu_time_us"] = pt.npu_time_us;
            } else {
                j["error"] = pt.error;
            }
            return j;
        };
        auto& s = (*json)["sensitivity"] = nlohmann::json::object();
        s["baseline"] = {{"cycles", static_cast<std::uint64_t>(std::llround(base_cycles))}, {"npu_time_us", base_us}};
        s["range"] = {{"cycles_min", static_cast<std::uint64_t>(std::llround(lo_c))},
                      {"cycles_max", static_cast<std::uint64_t>(std::llround(hi_c))},
                      {"npu_time_us_min", lo_us},
                      {"npu_time_us_max", hi_us}};
        s["parameters"] = nlohmann::json::array();
        for (const auto& p : params)
            s["parameters"].push_back({{"name", p.name},
                                       {"unit", p.unit},
                                       {"value", p.value},
                                       {"source", p.source},
                                       {"half", point(p.half)},
                                       {"double", point(p.twice)}});
        return;
    }
    out << fmt::format("  sensitivity: each [est] parameter of {} at half and double its value, alone (cycles per "
                       "invocation; outputs checked on every run)\n",
                       model::arch_name(timing.arch));
    out << fmt::format("  {:<32} {:>10} {:>14} {:>14} {:>21}\n", "parameter", "value", "at half", "at double",
                       "npu time (us)");
    out << fmt::format("  {:<32} {:>10} {:>14} {:>14} {:>21.1f}\n", "baseline", "-",
                       grouped(static_cast<std::uint64_t>(std::llround(base_cycles))), "-", base_us);
    auto cell = [](const Point& pt) { return pt.cycles ? grouped(*pt.cycles) : std::string("error"); };
    for (const auto& p : params)
        out << fmt::format("  {:<32} {:>10g} {:>14} {:>14} {:>10.1f} .. {:>7.1f}\n", p.name, p.value, cell(p.half),
                           cell(p.twice), std::min(p.half.npu_time_us, p.twice.npu_time_us),
                           std::max(p.half.npu_time_us, p.twice.npu_time_us));
    out << fmt::format("  range: {} .. {} cycles ({:+.1f}% .. {:+.1f}%), npu time {:.1f} .. {:.1f} us\n",
                       grouped(static_cast<std::uint64_t>(std::llround(lo_c))),
                       grouped(static_cast<std::uint64_t>(std::llround(hi_c))),
                       base_cycles > 0 ? 100 * (lo_c - base_cycles) / base_cycles : 0.0,
                       base_cycles > 0 ? 100 * (hi_c - base_cycles) / base_cycles : 0.0, lo_us, hi_us);
    for (const auto& p : params)
        for (const auto* pt : {&p.half, &p.twice})
            if (!pt->cycles) out << fmt::format("  {} = {:g}: {}\n", p.name, pt->value, pt->error);
}

} // namespace npusim::tools

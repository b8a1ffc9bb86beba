#include "WhatIf.hpp"

#include "Cli.hpp"
#include "CliSupport.hpp"
#include "RunGuard.hpp"
#include "Sensitivity.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>
#include <optional>
#include <ostream>
#include <utility>

namespace npusim::tools {

namespace {

/// A --what-if ablation: the same run with one part of the cost model switched off.
struct Ablation {
    const char* name;
    const char* what;
    void (*apply)(sim::SimOptions&);
};
const Ablation kAblations[] = {
    {"free-kernels", "kernels cost no cycles (their call overhead included); they still compute",
     [](sim::SimOptions& o) { o.free_kernels = true; }},
    {"unlimited-ddr", "host memory bandwidth unlimited (ddr_bytes_per_cycle 1e12); shim channels keep their rate",
     [](sim::SimOptions& o) { o.timing.ddr_bytes_per_cycle = 1e12; }},
    {"ideal-locks", "lock acquire and release take no cycles (lock_acquire_cycles = lock_release_cycles = 0)",
     [](sim::SimOptions& o) { o.timing.lock_acquire_cycles = o.timing.lock_release_cycles = 0; }},
    {"zero-host-latency", "no host invocation latency (host_invocation_latency_us = 0): npu time only",
     [](sim::SimOptions& o) { o.timing.host_invocation_latency_us = 0; }},
};

std::string ablation_names() {
    std::string s;
    for (const auto& a : kAblations) s += (s.empty() ? "" : ", ") + std::string(a.name);
    return s;
}

} // namespace

// --what-if LIST: names separated by commas, or `all`; repeatable, each name once.
void parse_what_if(const std::string& v, std::vector<std::string>& into) {
    std::size_t pos = 0;
    for (;;) {
        const auto comma = v.find(',', pos);
        const std::string name = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (name == "sensitivity") {
            if (std::find(into.begin(), into.end(), name) == into.end()) into.push_back(name);
        } else if (name == "all") {
            for (const auto& a : kAblations)
                if (std::find(into.begin(), into.end(), a.name) == into.end()) into.push_back(a.name);
        } else {
            const bool known = std::any_of(std::begin(kAblations), std::end(kAblations),
                                           [&](const Ablation& a) { return name == a.name; });
            if (!known)
                throw UsageError(fmt::format("--what-if: unknown ablation '{}' (one of: {}, all, sensitivity)", name,
                                             ablation_names()));
            if (std::find(into.begin(), into.end(), name) == into.end()) into.push_back(name);
        }
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
}

// --what-if: each ablation alone, the same design, inputs and checks as the baseline, side by side.
void run_what_ifs(const RunArgs& r, const harness::DesignSpec& spec, const harness::RunOptions& base,
                  const harness::RunReport& baseline, std::ostream& out, std::ostream& err, nlohmann::json* json) {
    const auto& timing = base.sim.timing;
    const auto npu_us = [](const harness::RunReport& rep, const model::TimingParams& t) {
        return static_cast<double>(rep.result.cycles) / t.clock_mhz +
               t.host_latency_us(rep.cold);
    };
    struct Row {
        std::string name, what;
        std::optional<harness::RunReport> rep;
        model::TimingParams timing;
        std::string error;
    };
    std::vector<Row> rows;
    for (const auto& name : r.what_if) {
        if (name == "sensitivity") continue; // run_sensitivity, below
        const auto& a = *std::find_if(std::begin(kAblations), std::end(kAblations),
                                      [&](const Ablation& x) { return name == x.name; });
        auto ro = base;
        a.apply(ro.sim);
        Row row{a.name, a.what, std::nullopt, ro.sim.timing, {}};
        try {
            row.rep =
                guarded_run(r, spec, baseline.device, ro, fmt::format("in the what-if rerun '{}'", a.name), out, err);
        } catch (const std::exception& e) {
            const auto c = classify_error(e);
            row.error = fmt::format("{}: {}", c.kind, e.what());
        }
        rows.push_back(std::move(row));
    }
    const auto base_cycles = static_cast<double>(baseline.result.cycles);
    auto change = [&](std::uint64_t c) {
        return base_cycles > 0 ? 100.0 * (static_cast<double>(c) - base_cycles) / base_cycles : 0.0;
    };
    if (json) {
        auto& arr = (*json)["what_if"] = nlohmann::json::array();
        for (const auto& row : rows) {
            nlohmann::json j{{"name", row.name}, {"what", row.what}};
            if (row.rep) {
                j["cycles"] = row.rep->result.cycles;
                j["change_percent"] = change(row.rep->result.cycles);
                j["npu_time_us"] = npu_us(*row.rep, row.timing);
                j["match"] = row.rep->all_match;
            } else {
                j["error"] = row.error;
            }
            arr.push_back(std::move(j));
        }
        if (std::find(r.what_if.begin(), r.what_if.end(), "sensitivity") != r.what_if.end())
            run_sensitivity(r, spec, base, baseline, out, err, json);
        return;
    }
    if (rows.empty()) {
        run_sensitivity(r, spec, base, baseline, out, err, nullptr);
        return;
    }
    out << "  what-if: each ablation alone against the baseline (same inputs; outputs checked on every run)\n";
    out << fmt::format("  {:<19} {:>14} {:>9} {:>12}  {}\n", "scenario", "cycles", "change", "npu time", "outputs");
    out << fmt::format("  {:<19} {:>14} {:>9} {:>9.1f} us  {}\n", "baseline", grouped(baseline.result.cycles), "-",
                       npu_us(baseline, timing), baseline.all_match ? "match" : "MISMATCH");
    for (const auto& row : rows) {
        if (!row.rep) {
            out << fmt::format("  {:<19} {}\n", row.name, row.error);
            continue;
        }
        out << fmt::format("  {:<19} {:>14} {:>8.1f}% {:>9.1f} us  {}\n", row.name, grouped(row.rep->result.cycles),
                           change(row.rep->result.cycles), npu_us(*row.rep, row.timing),
                           row.rep->all_match ? "match" : "MISMATCH");
    }
    for (const auto& row : rows) out << fmt::format("  {:<19} {}\n", row.name + ":", row.what);
    if (std::find(r.what_if.begin(), r.what_if.end(), "sensitivity") != r.what_if.end())
        run_sensitivity(r, spec, base, baseline, out, err, nullptr);
}

} // namespace npusim::tools

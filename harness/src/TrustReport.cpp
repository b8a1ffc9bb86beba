#include "npusim/harness/TrustReport.hpp"

#include <algorithm>
#include <map>

namespace npusim::harness {

std::string source_tag(const std::string& source) {
    if (source.empty() || source.front() != '[') return {};
    const auto close = source.find(']');
    return close == std::string::npos ? std::string() : source.substr(0, close + 1);
}

CriticalPathShare critical_path_share(const sim::CriticalPath& path, const model::TimingParams& t) {
    CriticalPathShare cp;
    cp.cycles = static_cast<double>(path.total);
    if (path.total == 0) return cp;
    for (std::size_t i = 0; i < sim::kPathCosts; ++i) {
        const auto cost = static_cast<sim::PathCost>(i);
        if (path[cost] == 0) continue;
        std::string tag;
        if (sim::path_cost_is_parameter(cost)) {
            const auto* row = model::find_timing_param(sim::path_cost_name(cost));
            tag = row ? source_tag(row->source_for(t.arch)) : std::string();
        } else if (cost != sim::PathCost::Unattributed) {
            tag = "[model]";
        }
        const double cycles = static_cast<double>(path[cost]);
        const double share = cycles / cp.cycles;
        cp.charges.push_back({sim::path_cost_name(cost), tag, cycles, share});
        if (tag == "[est]")
            cp.est_share += share;
        else if (tag == "[model]")
            cp.model_share += share;
        else if (tag.empty())
            cp.unattributed_share += share;
        else
            cp.measured_share += share;
    }
    std::stable_sort(cp.charges.begin(), cp.charges.end(),
                     [](const ParamCharge& a, const ParamCharge& b) { return a.cycles > b.cycles; });
    return cp;
}

TrustReport trust_report(const sim::SimResult& r, const model::DeviceSpec& dev, const model::TimingParams& t) {
    std::map<std::string, double> charged; // parameter -> unit cycles
    const auto add = [&](const char* name, double cycles) {
        if (cycles > 0) charged[name] += cycles;
    };
    double calls = 0, kernel_cycles = 0, body_cycles = 0;
    for (const auto& c : r.cores) {
        calls += static_cast<double>(c.kernel_calls);
        kernel_cycles += static_cast<double>(c.kernel_cycles);
        body_cycles += static_cast<double>(c.body_cycles);
    }
    const double overhead = std::min(kernel_cycles, calls * t.kernel_call_overhead_cycles);
    add("kernel_call_overhead_cycles", overhead);
    double shim_channels_used = 0;
    for (const auto& ch : r.channels) {
        const bool shim = dev.kind_at(ch.channel.tile) == model::TileKind::Shim;
        const double own = shim ? t.shim_dma_bytes_per_cycle : t.tile_dma_bytes_per_cycle;
        add(t.stream_bytes_per_cycle <= own ? "stream_bytes_per_cycle"
            : shim                          ? "shim_dma_bytes_per_cycle"
                                            : "tile_dma_bytes_per_cycle",
            static_cast<double>(ch.active_cycles));
        const double bds = static_cast<double>(ch.bds);
        if (shim) {
            if (ch.bds) ++shim_channels_used;
            add(ch.channel.dir == model::Direction::MM2S ? "shim_mm2s_task_overhead_cycles"
                                                         : "shim_s2mm_task_overhead_cycles",
                bds * (ch.channel.dir == model::Direction::MM2S ? t.shim_mm2s_task_overhead_cycles
                                                                : t.shim_s2mm_task_overhead_cycles));
        } else {
            add("bd_setup_cycles", bds * t.bd_setup_cycles);
        }
    }
    add("shim_task_dispatch_cycles", static_cast<double>(r.shim_tasks) * t.shim_task_dispatch_cycles);
    if (t.shim_cold_task_dispatch_cycles > t.shim_task_dispatch_cycles)
        add("shim_cold_task_dispatch_cycles",
            shim_channels_used * (t.shim_cold_task_dispatch_cycles - t.shim_task_dispatch_cycles));
    for (const auto& p : r.shared_paths)
        add(p.label.rfind("host memory", 0) == 0 ? "ddr_bytes_per_cycle" : "memtile_memory_bytes_per_cycle",
            static_cast<double>(p.delay_cycles));

    TrustReport rep;
    for (const auto& [name, cycles] : charged) {
        const auto* row = model::find_timing_param(name);
        rep.charges.push_back({name, row ? source_tag(row->source_for(t.arch)) : std::string("[model]"), cycles, 0});
    }
    if (kernel_cycles - overhead > 0)
        rep.charges.push_back({"kernel cost models", "[model]", kernel_cycles - overhead, 0});
    if (body_cycles > 0) rep.charges.push_back({"worker body cycles", "[model]", body_cycles, 0});
    for (const auto& c : rep.charges) rep.charged_cycles += c.cycles;
    for (auto& c : rep.charges) {
        c.share = rep.charged_cycles > 0 ? c.cycles / rep.charged_cycles : 0;
        if (c.tag == "[est]")
            rep.est_share += c.share;
        else if (c.tag == "[model]")
            rep.model_share += c.share;
        else
            rep.measured_share += c.share;
    }
    std::stable_sort(rep.charges.begin(), rep.charges.end(),
                     [](const ParamCharge& a, const ParamCharge& b) { return a.cycles > b.cycles; });
    const double invocations = r.invocations.empty() ? 1.0 : static_cast<double>(r.invocations.size());
    const double array_us = static_cast<double>(r.cycles) / invocations / t.clock_mhz;
    const double npu_us = array_us + t.host_invocation_latency_us;
    rep.host_share_of_npu_time = npu_us > 0 ? t.host_invocation_latency_us / npu_us : 0;
    const auto* host = model::find_timing_param("host_invocation_latency_us");
    rep.host_tag = host ? source_tag(host->source_for(t.arch)) : std::string();
    rep.critical = critical_path_share(r.critical_path, t);
    return rep;
}

} // namespace npusim::harness

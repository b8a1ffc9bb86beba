#include "Breakdown.hpp"

#include "CliSupport.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace npusim::tools {

namespace {

std::string pct(std::uint64_t part, std::uint64_t whole) {
    if (!whole) return "-";
    return fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

} // namespace

void print_breakdown(std::ostream& out, const harness::RunBreakdown& b) {
    if (b.tiles.empty() || !b.cycles) return;
    // Cores: share of the run. DMA: mean share per channel of the tile.
    out << fmt::format("  time by tile, % of the run's {} cycles (DMA: mean over the tile's channels)\n",
                       grouped(b.cycles));
    // The cascade-wait column appears when some core waited on a cascade.
    const bool cascades = std::any_of(b.tiles.begin(), b.tiles.end(),
                                      [](const harness::TileTime& t) { return t.core_cascade_stall_cycles > 0; });
    auto cascade_col = [&](const std::string& v) { return cascades ? fmt::format(" {:>12}", v) : std::string(); };
    out << fmt::format("  {:<7} {:<8} {:<16} {:>7} {:>7} {:>9}{} {:>3} {:>9} {:>11} {:>9}\n", "tile", "kind", "worker",
                       "kernel", "body", "lock wait", cascade_col("cascade wait"), "ch", "streaming", "stream wait",
                       "lock wait");
    for (const auto& t : b.tiles) {
        const bool core = !t.worker.empty();
        const std::uint64_t ch_cycles = b.cycles * static_cast<std::uint64_t>(std::max(t.channels, 1));
        out << fmt::format("  {:<7} {:<8} {:<16} {:>7} {:>7} {:>9}{} {:>3} {:>9} {:>11} {:>9}\n",
                           model::to_string(t.tile), model::tile_kind_name(t.kind), core ? t.worker : "-",
                           core ? pct(t.kernel_cycles, b.cycles) : "-", core ? pct(t.body_cycles, b.cycles) : "-",
                           core ? pct(t.core_lock_stall_cycles, b.cycles) : "-",
                           cascade_col(core ? pct(t.core_cascade_stall_cycles, b.cycles) : "-"), t.channels,
                           t.channels ? pct(t.dma_active_cycles, ch_cycles) : "-",
                           t.channels ? pct(t.dma_stream_stall_cycles, ch_cycles) : "-",
                           t.channels ? pct(t.dma_lock_stall_cycles, ch_cycles) : "-");
    }
    if (b.macs) {
        const double per_core_peak = b.peak_macs_per_cycle / b.mac_cores;
        out << fmt::format("  {:<13}{} MACs on {} core{}: {:.1f} MAC/cycle over the run ({:.1f}% of their "
                           "{:g} MAC/cycle peak); {:.1f} MAC/cycle per core while in kernels ({:.1f}% of {:g})\n",
                           "compute", grouped(b.macs), b.mac_cores, b.mac_cores == 1 ? "" : "s", b.macs_per_cycle(),
                           100.0 * b.macs_per_cycle() / b.peak_macs_per_cycle, b.peak_macs_per_cycle,
                           b.macs_per_kernel_cycle(), 100.0 * b.macs_per_kernel_cycle() / per_core_peak, per_core_peak);
    }
    // A unit busy most of the run bounds throughput; otherwise the run waits more than it works
    // (latency and hand-offs) and the busiest unit is only where to look first.
    if (b.bound.kind != harness::Bottleneck::Kind::None) {
        if (b.bound.busy_fraction >= harness::kBoundBusyFraction)
            out << fmt::format("  {:<13}{}: {}\n", "bound by", b.bound.name, b.bound.why);
        else
            out << fmt::format("  {:<13}{}: {}; no unit is busy for {:.0f}% of the run, so waits (the lock and "
                               "stream columns above), not one unit's throughput, set the time\n",
                               "busiest", b.bound.name, b.bound.why, 100 * harness::kBoundBusyFraction);
    }
}

nlohmann::json breakdown_json(const harness::RunBreakdown& b) {
    nlohmann::json tiles = nlohmann::json::array();
    for (const auto& t : b.tiles) {
        nlohmann::json j{{"tile", model::to_string(t.tile)},
                         {"kind", model::tile_kind_name(t.kind)},
                         {"channels", t.channels},
                         {"dma_active_cycles", t.dma_active_cycles},
                         {"dma_stream_stall_cycles", t.dma_stream_stall_cycles},
                         {"dma_lock_stall_cycles", t.dma_lock_stall_cycles},
                         {"dma_bytes", t.dma_bytes}};
        if (!t.worker.empty()) {
            j["worker"] = t.worker;
            j["kernel_cycles"] = t.kernel_cycles;
            j["body_cycles"] = t.body_cycles;
            j["lock_stall_cycles"] = t.core_lock_stall_cycles;
            j["cascade_stall_cycles"] = t.core_cascade_stall_cycles;
        }
        tiles.push_back(std::move(j));
    }
    const char* kinds[] = {"none", "core", "channel", "shared_path"};
    nlohmann::json j{{"tiles", tiles},
                     {"bound",
                      {{"kind", kinds[static_cast<int>(b.bound.kind)]},
                       {"name", b.bound.name},
                       {"busy_fraction", b.bound.busy_fraction},
                       {"bounds_throughput", b.bound.busy_fraction >= harness::kBoundBusyFraction},
                       {"why", b.bound.why}}}};
    if (b.macs)
        j["compute"] = {{"macs", b.macs},
                        {"cores", b.mac_cores},
                        {"macs_per_cycle", b.macs_per_cycle()},
                        {"peak_macs_per_cycle", b.peak_macs_per_cycle},
                        {"macs_per_kernel_cycle_per_core", b.macs_per_kernel_cycle()}};
    return j;
}

} // namespace npusim::tools

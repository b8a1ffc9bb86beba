#include "npusim/harness/RunBreakdown.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace npusim::harness {

namespace {

std::string bytes_text(std::uint64_t b) {
    if (b >= (1u << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(b) / (1u << 20));
    if (b >= (1u << 10)) return fmt::format("{:.1f} KiB", static_cast<double>(b) / (1u << 10));
    return fmt::format("{} B", b);
}

double share(std::uint64_t part, std::uint64_t whole) {
    return whole ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

} // namespace

RunBreakdown run_breakdown(const sim::SimResult& res, const model::DeviceSpec& device) {
    RunBreakdown b;
    b.cycles = res.cycles;
    std::map<model::TileCoord, TileTime> tiles;
    auto tile = [&](model::TileCoord t) -> TileTime& {
        auto& tt = tiles[t];
        tt.tile = t;
        tt.kind = device.kind_at(t);
        return tt;
    };
    auto consider = [&](Bottleneck::Kind kind, std::string name, std::uint64_t busy, std::string why) {
        const double f = share(busy, res.cycles);
        if (b.bound.kind == Bottleneck::Kind::None || f > b.bound.busy_fraction)
            b.bound = {kind, std::move(name), f, std::move(why)};
    };
    for (const auto& c : res.cores) {
        auto& t = tile(c.tile);
        t.worker = c.worker;
        t.kernel_cycles += c.kernel_cycles;
        t.body_cycles += c.body_cycles;
        t.core_lock_stall_cycles += c.stall_cycles - c.cascade_stall_cycles;
        t.core_cascade_stall_cycles += c.cascade_stall_cycles;
        if (c.macs) {
            b.macs += c.macs;
            b.peak_macs_per_cycle += c.peak_macs_per_cycle;
            b.mac_kernel_cycles += c.kernel_cycles;
            ++b.mac_cores;
        }
        consider(Bottleneck::Kind::Core, fmt::format("core {} {}", model::to_string(c.tile), c.worker), c.busy_cycles,
                 c.cascade_stall_cycles
                     ? fmt::format("busy {:.0f}% of the run ({} kernel calls, {:.0f}% waiting on locks, {:.0f}% on "
                                   "cascades)",
                                   100 * share(c.busy_cycles, res.cycles), c.kernel_calls,
                                   100 * share(c.stall_cycles - c.cascade_stall_cycles, res.cycles),
                                   100 * share(c.cascade_stall_cycles, res.cycles))
                     : fmt::format("busy {:.0f}% of the run ({} kernel calls, {:.0f}% waiting on locks)",
                                   100 * share(c.busy_cycles, res.cycles), c.kernel_calls,
                                   100 * share(c.stall_cycles, res.cycles)));
    }
    for (const auto& ch : res.channels) {
        auto& t = tile(ch.channel.tile);
        ++t.channels;
        t.dma_active_cycles += ch.active_cycles;
        t.dma_stream_stall_cycles += ch.stream_stall_cycles;
        t.dma_lock_stall_cycles += ch.lock_stall_cycles;
        t.dma_bytes += ch.bytes;
        if (!ch.bytes) continue;
        const double achieved = share(ch.bytes, ch.active_cycles);
        consider(Bottleneck::Kind::Channel, fmt::format("{} ({})", model::to_string(ch.channel), ch.label),
                 ch.active_cycles,
                 fmt::format("moving data {:.0f}% of the run: {} at {:.2f} B/cycle while active (its peak {:g})",
                             100 * share(ch.active_cycles, res.cycles), bytes_text(ch.bytes), achieved,
                             ch.peak_bytes_per_cycle));
    }
    for (const auto& p : res.shared_paths) {
        const auto busy = static_cast<std::uint64_t>(static_cast<double>(p.bytes) / p.bytes_per_cycle);
        consider(
            Bottleneck::Kind::SharedPath, p.label, busy,
            fmt::format("serving {} at its {:g} B/cycle {:.0f}% of the run; transfers waited {} cycles for it beyond "
                        "their streams' time (summed over its channels)",
                        bytes_text(p.bytes), p.bytes_per_cycle, 100 * share(busy, res.cycles), p.delay_cycles));
    }
    for (auto& [coord, t] : tiles) b.tiles.push_back(t);
    return b;
}

} // namespace npusim::harness

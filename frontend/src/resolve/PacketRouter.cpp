#include "resolve/PacketRouter.hpp"

#include "resolve/LowLevelLowering.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <tuple>

namespace npusim::iron::detail {

using model::Direction;
using model::StreamEndpoint;
using model::TileCoord;
using model::TileKind;

namespace {

constexpr int kMaxPacketId = 31; // AIETargetModel.h getMaxPacketId (AIE2, AIE2P)
constexpr int kSlaveSlots = 4; // AIETargetModel.h getNumSlaveSlots (AIE2, AIE2P)
constexpr int kIdBits = 5;

void check_channel(const ResolveContext& ctx, const StreamEndpoint& e, const std::string& who) {
    const int n = ctx.dev.dma_channels(e.tile, e.dir);
    if (e.channel < 0 || e.channel >= n)
        throw DesignError(fmt::format("{}: {} tile {} has {} {} DMA channels (0..{})", who,
                                      model::tile_kind_name(ctx.dev.kind_at(e.tile)), model::to_string(e.tile), n,
                                      model::direction_name(e.dir), n - 1));
}

// Best cover size of `need` (bitmask over ids) with `cubes` (each a bitmask of the ids it covers).
void min_cover(const std::vector<std::uint32_t>& cubes, std::uint32_t need, int used, int& best) {
    if (need == 0) {
        best = std::min(best, used);
        return;
    }
    if (used + 1 >= best) return;
    const int first = std::countr_zero(need); // some cube must cover the lowest uncovered id
    for (auto c : cubes)
        if (c & (1u << first)) min_cover(cubes, need & ~c, used + 1, best);
}

} // namespace

int packet_rule_cover_size(const std::vector<int>& match, const std::vector<int>& avoid) {
    constexpr int n = 1 << kIdBits;
    auto hits_avoid = [&](int mask, int value) {
        return std::any_of(avoid.begin(), avoid.end(), [&](int o) { return (o & mask) == value; });
    };
    std::vector<std::uint32_t> primes;
    std::uint32_t need = 0;
    for (int id : match) need |= 1u << id;
    for (int mask = 0; mask < n; ++mask)
        for (int value = 0; value < n; ++value) {
            if ((value & mask) != value || hits_avoid(mask, value)) continue;
            std::uint32_t cov = 0;
            for (int id : match)
                if ((id & mask) == value) cov |= 1u << id;
            if (!cov) continue;
            bool prime = true;
            for (int b = 0; b < kIdBits && prime; ++b)
                if (((mask >> b) & 1) && !hits_avoid(mask & ~(1 << b), value & ~(1 << b))) prime = false;
            if (prime) primes.push_back(cov);
        }
    int best = static_cast<int>(match.size()) + 1;
    min_cover(primes, need, 0, best);
    return best;
}

void lower_packet_flows(ResolveContext& ctx) {
    std::map<std::tuple<int, int, int, int>, std::size_t> by_source_id; // (col, row, ch, id) -> index
    std::set<std::tuple<int, int, int>> shim_dests, by_source_port;
    for (const auto& f : ctx.program.runtime().state()->packet_flows) {
        const std::string who = f->describe();
        // AIECreatePathFindFlows.cpp: "packet id <id> exceeds the maximum of 31" (a negative id has
        // no header encoding either).
        if (f->pkt_id < 0 || f->pkt_id > kMaxPacketId)
            throw DesignError(fmt::format("{}: packet id {} exceeds the maximum of {}", who, f->pkt_id, kMaxPacketId));
        const StreamEndpoint src{low_level_tile(ctx, f->src, who), Direction::MM2S, f->opts.src_channel};
        std::vector<StreamEndpoint> dsts{{low_level_tile(ctx, f->dst, who), Direction::S2MM, f->opts.dst_channel}};
        for (const auto& d : f->opts.extra_dsts)
            dsts.push_back({low_level_tile(ctx, d.tile, who), Direction::S2MM, d.channel});
        check_channel(ctx, src, who);
        for (const auto& d : dsts) check_channel(ctx, d, who);
        // A DMA port is wired either to a circuit (aie.flow) or through packet rules: a circuit
        // end cannot also be a packet end.
        for (const auto& cf : ctx.net.flows) {
            std::vector<StreamEndpoint> ends = cf.dests;
            ends.push_back(cf.source);
            for (const auto& e : ends)
                if (e == src || std::find(dsts.begin(), dsts.end(), e) != dsts.end())
                    throw DesignError(fmt::format("{}: {} is already an end of the circuit-switched {}; a DMA port is "
                                                  "either circuit- or packet-switched",
                                                  who, model::to_string(e), cf.prov.object));
        }
        // A shim MM2S source: the runtime sequence's tasks on it send the packets (their header from
        // shim_dma_single_bd_task(packet=...) or npu_writebd's enable_packet; check_shim_packet_tasks).
        const bool shim_src = ctx.dev.kind_at(src.tile) == TileKind::Shim;
        if (shim_src && !by_source_port.count({src.tile.col, src.tile.row, src.channel})) {
            ctx.ledger.claim_channel(src.tile, Direction::MM2S, src.channel, who);
            by_source_port.insert({src.tile.col, src.tile.row, src.channel});
        }
        for (const auto& d : dsts)
            if (ctx.dev.kind_at(d.tile) == TileKind::Shim &&
                shim_dests.insert({d.tile.col, d.tile.row, d.channel}).second)
                ctx.ledger.claim_channel(d.tile, Direction::S2MM, d.channel, who);
        if (!f->opts.shim_symbol.empty()) {
            // flow.py _emit_shim_dma_alloc: MM2S when the shim is the source, S2MM when it is the
            // destination.
            if (!shim_src && ctx.dev.kind_at(dsts[0].tile) != TileKind::Shim)
                throw DesignError(fmt::format("PacketFlow.shim_symbol='{}' requires a shim endpoint, but neither src "
                                              "({}) nor dst ({}) is a shim tile.",
                                              f->opts.shim_symbol, f->src.str(), f->dst.str()));
            const StreamEndpoint alloc = shim_src ? src : dsts[0];
            auto [it, fresh] = ctx.shim_symbols.emplace(f->opts.shim_symbol, alloc);
            if (!fresh && !(it->second == alloc))
                throw DesignError(
                    fmt::format("{}: shim_symbol '{}' is already declared by another flow", who, f->opts.shim_symbol));
        }
        const auto key = std::make_tuple(src.tile.col, src.tile.row, src.channel, f->pkt_id);
        if (auto it = by_source_id.find(key); it != by_source_id.end()) {
            auto& pf = ctx.net.packet_flows[it->second];
            for (const auto& d : dsts)
                if (std::find(pf.dests.begin(), pf.dests.end(), d) == pf.dests.end()) pf.dests.push_back(d);
            pf.keep_pkt_header = pf.keep_pkt_header || f->opts.keep_pkt_header;
            continue;
        }
        model::PacketFlowRoute pf;
        pf.packet_id = f->pkt_id;
        pf.source = src;
        for (const auto& d : dsts)
            if (std::find(pf.dests.begin(), pf.dests.end(), d) == pf.dests.end()) pf.dests.push_back(d);
        pf.keep_pkt_header = f->opts.keep_pkt_header;
        pf.prov = {who, "packet flow"};
        by_source_id[key] = ctx.net.packet_flows.size();
        ctx.net.packet_flows.push_back(std::move(pf));
    }
    // The same id from two sources into one destination port, routed to different destination
    // sets: the switches match a header by its id alone and the toolchain merges the routes of one
    // (port, id) (AIECreatePathFindFlows.cpp packetFlows[(port, flowID)]), so each source's packets
    // would also reach the other's destinations.
    const auto& pfs = ctx.net.packet_flows;
    for (std::size_t a = 0; a < pfs.size(); ++a)
        for (std::size_t b = a + 1; b < pfs.size(); ++b) {
            if (pfs[a].packet_id != pfs[b].packet_id || pfs[a].source == pfs[b].source) continue;
            auto sorted = [](std::vector<StreamEndpoint> v) {
                std::sort(v.begin(), v.end(), [](const auto& x, const auto& y) {
                    return std::tie(x.tile, x.channel) < std::tie(y.tile, y.channel);
                });
                return v;
            };
            for (const auto& d : pfs[a].dests)
                if (std::find(pfs[b].dests.begin(), pfs[b].dests.end(), d) != pfs[b].dests.end() &&
                    sorted(pfs[a].dests) != sorted(pfs[b].dests))
                    throw DesignError(
                        fmt::format("{} and {}: packet id {} is reused on port {} by flows with different "
                                    "destinations; the switch routes a packet by its id alone, so each "
                                    "flow's packets would reach the other's destinations too",
                                    pfs[a].prov.object, pfs[b].prov.object, pfs[a].packet_id, model::to_string(d)));
        }
    // The source DMA port is the first slave port of each of its packet flows: its ids, grouped
    // by their destinations, take packet rules (one subcube cover per group, the port's other
    // ids avoided) out of its 4 slots (AIECreatePathFindFlows.cpp: "slave port packet rules
    // exceed the 4-slot limit (<existing> + <cover>).").
    std::map<std::tuple<int, int, int>, std::vector<std::size_t>> by_port;
    for (std::size_t i = 0; i < pfs.size(); ++i)
        by_port[{pfs[i].source.tile.col, pfs[i].source.tile.row, pfs[i].source.channel}].push_back(i);
    for (const auto& [port, flows] : by_port) {
        std::map<std::vector<std::tuple<int, int, int>>, std::vector<int>> groups; // dest set -> ids
        for (auto i : flows) {
            std::vector<std::tuple<int, int, int>> ds;
            for (const auto& d : pfs[i].dests) ds.emplace_back(d.tile.col, d.tile.row, d.channel);
            std::sort(ds.begin(), ds.end());
            groups[ds].push_back(pfs[i].packet_id);
        }
        int slots = 0;
        for (const auto& [ds, ids] : groups) {
            std::vector<int> avoid;
            for (auto i : flows)
                if (std::find(ids.begin(), ids.end(), pfs[i].packet_id) == ids.end()) avoid.push_back(pfs[i].packet_id);
            const int cover = packet_rule_cover_size(ids, avoid);
            if (slots + cover > kSlaveSlots)
                throw DesignError(fmt::format("{}: slave port packet rules exceed the {}-slot limit ({} + {}).",
                                              model::to_string(pfs[flows.front()].source), kSlaveSlots, slots, cover));
            slots += cover;
        }
    }
}

void check_packet_sources(const ResolveContext& ctx) {
    for (const auto& pf : ctx.net.packet_flows) check_ends_programmed(ctx, pf.prov.object, pf.source, pf.dests);
    for (const auto& ch : ctx.net.channels) {
        if (ch.dir != Direction::MM2S) continue;
        const StreamEndpoint port{ch.tile, ch.dir, ch.channel};
        std::vector<int> ids;
        for (const auto& pf : ctx.net.packet_flows)
            if (pf.source == port) ids.push_back(pf.packet_id);
        if (ids.empty()) continue;
        for (const auto& bd : ch.bds) {
            const std::string who = fmt::format("TileDma '{}' {} {}", bd.prov.object, bd.prov.role, bd.prov.element);
            // A BD without a header of its own sends its data as it is, and the switch takes the
            // data's first word as the packet's header (sim/src/PacketSwitch.hpp): which id that
            // word names is known only at run time, where the simulator checks it; here it needs a
            // word to carry it.
            if (bd.packet_id < 0) {
                if (bd.length_bytes < 4)
                    throw DesignError(fmt::format(
                        "{}: its channel {} is the source of a PacketFlow; the BD sends no packet header of its own, "
                        "so the first word of its data must be one, but it moves {} B; give it packet = "
                        "{{pkt_type, pkt_id}} or data that starts with a packet header",
                        who, model::to_string(port), bd.length_bytes));
                continue;
            }
            if (std::find(ids.begin(), ids.end(), bd.packet_id) == ids.end())
                throw DesignError(fmt::format("{}: its packet id {} matches no PacketFlow from {} (ids {})", who,
                                              bd.packet_id, model::to_string(port), fmt::join(ids, ", ")));
        }
    }
}

void route_packet_flows(ResolveContext& ctx, StreamRouter& router) {
    std::set<std::pair<int, int>> shared; // switch connections packet flows hold
    for (auto& pf : ctx.net.packet_flows) {
        std::vector<TileCoord> tiles;
        std::vector<std::string> to;
        for (const auto& d : pf.dests) {
            tiles.push_back(d.tile);
            to.push_back(model::to_string(d));
        }
        pf.paths =
            router.route_shared(pf.source.tile, tiles, shared, pf.prov.describe(), model::to_string(pf.source), to);
    }
}

} // namespace npusim::iron::detail

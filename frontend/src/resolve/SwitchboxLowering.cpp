#include "resolve/SwitchboxLowering.hpp"

#include "resolve/LowLevelLowering.hpp"
#include "resolve/StreamRouter.hpp"

#include "npusim/model/Error.hpp"
#include "npusim/model/StreamSwitch.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <set>
#include <tuple>

namespace npusim::iron::detail {

namespace {

using model::Direction;
using model::StreamEndpoint;
using model::TileCoord;
using model::WireBundle;

// One aie.connect of a placed switchbox or shim mux.
struct Conn {
    const SwitchboxState* box = nullptr;
    TileCoord tile;
    Connect c;
    std::string who; ///< "switchbox on Tile(0,2): connect<South : 1, DMA : 0>"
    bool reached = false;
};

// An input port of a switch (mux = false) or of a shim mux (mux = true).
using InPort = std::tuple<int, int, bool, int, int>; // col, row, mux, bundle, channel
InPort in_port(TileCoord t, bool mux, WireBundle b, int ch) { return {t.col, t.row, mux, static_cast<int>(b), ch}; }

std::string port_str(WireBundle b, int ch) { return fmt::format("{} : {}", model::wire_bundle_name(b), ch); }

// SwitchboxOp::verify (AIEDialect.cpp L2795-2866 at 3ca0193) for one connect, in its order: a
// destination taken twice, negative indices, indices past the tile's port count of the bundle,
// then AIE2 isLegalTileConnection.
void verify_switch_connect(const ResolveContext& ctx, const Conn& k, std::set<std::pair<int, int>>& dests) {
    const auto& c = k.c;
    if (!dests.insert({static_cast<int>(c.dst_bundle), c.dst_channel}).second)
        throw DesignError(fmt::format("{}: 'aie.connect' op targets same dst as another connect op ({} is taken)",
                                      k.who, port_str(c.dst_bundle, c.dst_channel)));
    auto bound = [&](const char* dir, WireBundle b, int index, int n) {
        if (index < 0)
            throw DesignError(fmt::format("{}: 'aie.connect' op {} index cannot be less than zero", k.who, dir));
        if (index < n) return;
        if (n > 0)
            throw DesignError(fmt::format("{}: 'aie.connect' op index {} for {} bundle {} must be less than {}", k.who,
                                          index, dir, model::wire_bundle_name(b), n));
        throw DesignError(fmt::format("{}: 'aie.connect' op {} bundle {} not supported; index: {}, bound: 0", k.who,
                                      dir, model::wire_bundle_name(b), index));
    };
    bound("source", c.src_bundle, c.src_channel, model::switchbox_sources(ctx.dev, k.tile, c.src_bundle));
    bound("dest", c.dst_bundle, c.dst_channel, model::switchbox_dests(ctx.dev, k.tile, c.dst_bundle));
    if (!model::legal_switch_connection(ctx.dev, k.tile, c.src_bundle, c.src_channel, c.dst_bundle, c.dst_channel))
        throw DesignError(fmt::format("{}: 'aie.connect' op illegal stream switch connection", k.who));
    // What npusim moves: streams between DMA channels through the switches (the toolchain also
    // accepts core, FIFO, trace and control ports, which npusim does not simulate).
    for (const auto b : {c.src_bundle, c.dst_bundle})
        if (b != WireBundle::DMA && !model::bundle_direction(b))
            throw DesignError(fmt::format("{}: npusim simulates switchbox routes between DMA channels only; bundle {} "
                                          "is not modelled",
                                          k.who, model::wire_bundle_name(b)));
}

// ShimMuxOp::verify (AIEDialect.cpp L1735-1761): a destination taken once. The mux joins the shim
// DMA to fixed South ports of the switch (model::shim_mux_port), which is all npusim simulates.
void verify_mux_connect(const ResolveContext& ctx, const Conn& k, std::set<std::pair<int, int>>& dests) {
    const auto& c = k.c;
    if (!dests.insert({static_cast<int>(c.dst_bundle), c.dst_channel}).second)
        throw DesignError(fmt::format("{}: 'aie.connect' op targets same destination {} as another connect operation",
                                      k.who, port_str(c.dst_bundle, c.dst_channel)));
    const int channels = ctx.dev.resources(model::TileKind::Shim).dma_mm2s_channels;
    const bool mm2s = c.src_bundle == WireBundle::DMA && c.dst_bundle == WireBundle::North && c.src_channel >= 0 &&
                      c.src_channel < channels && c.dst_channel == model::shim_mux_port(Direction::MM2S, c.src_channel);
    const bool s2mm = c.src_bundle == WireBundle::North && c.dst_bundle == WireBundle::DMA && c.dst_channel >= 0 &&
                      c.dst_channel < channels && c.src_channel == model::shim_mux_port(Direction::S2MM, c.dst_channel);
    if (!mm2s && !s2mm)
        throw DesignError(fmt::format(
            "{}: a shim mux joins the shim DMA to fixed switch ports: connect<DMA : 0, North : 3>, <DMA : 1, North : "
            "7> "
            "(MM2S) and <North : 2, DMA : 0>, <North : 3, DMA : 1> (S2MM), as the router writes them "
            "(AIECreatePathFindFlows.cpp L116-119, L143-146); npusim simulates no other shim mux connection",
            k.who));
}

class RouteTracer {
public:
    explicit RouteTracer(ResolveContext& ctx) : ctx_(ctx) {}

    void collect() {
        std::set<TileCoord> switch_tiles;
        std::map<TileCoord, std::set<std::pair<int, int>>> mux_dests;
        for (const auto& box : ctx_.program.runtime().state()->switchboxes) {
            const std::string who = box->describe();
            if (!box->tile.pinned())
                throw DesignError(fmt::format("{}: a switchbox configures one physical tile; pin its tile (Tile(col, "
                                              "row)), npusim does not place hand-written switchboxes",
                                              who));
            const TileCoord t = low_level_tile(ctx_, box->tile, who);
            std::set<std::pair<int, int>> dests;
            if (box->shim_mux) {
                if (ctx_.dev.kind_at(t) != model::TileKind::Shim)
                    throw DesignError(
                        fmt::format("{}: 'aie.shim_mux' op failed to verify that op exists in a shim tile "
                                    "(tile {} is a {} tile)",
                                    who, model::to_string(t), model::tile_kind_name(ctx_.dev.kind_at(t))));
            } else if (!switch_tiles.insert(t).second) {
                throw DesignError(fmt::format("{}: 'aie.tile' op can only have one switchbox (tile {} has another)",
                                              who, model::to_string(t)));
            }
            for (const auto& c : box->connects) {
                Conn k{box.get(), t, c, fmt::format("{}: {}", who, c.str())};
                if (box->shim_mux)
                    verify_mux_connect(ctx_, k, mux_dests[t]);
                else
                    verify_switch_connect(ctx_, k, dests);
                conns_.push_back(std::move(k));
            }
        }
        for (auto& k : conns_)
            by_source_[in_port(k.tile, k.box->shim_mux, k.c.src_bundle, k.c.src_channel)].push_back(&k);
    }

    // Every route from a DMA channel (aie-find-flows starts at a tile's DMA and Core ports,
    // AIEFindFlows.cpp L234), followed to its DMA destinations.
    void trace() {
        for (auto& k : conns_) {
            if (k.c.src_bundle != WireBundle::DMA) continue;
            const StreamEndpoint src{k.tile, Direction::MM2S, k.c.src_channel};
            if (std::find(started_.begin(), started_.end(), src) != started_.end()) continue;
            started_.push_back(src);
            model::Flow f;
            f.source = src;
            f.pinned_route = true;
            for (auto* start : by_source_[in_port(k.tile, k.box->shim_mux, WireBundle::DMA, k.c.src_channel)])
                follow(*start, {k.tile}, f);
            std::vector<std::string> to;
            for (const auto& d : f.dests) to.push_back(model::to_string(d));
            f.prov = {fmt::format("switchbox route {} -> {}", model::to_string(src), fmt::join(to, ", ")), "switchbox"};
            flows_.push_back(std::move(f));
        }
        for (const auto& k : conns_)
            if (!k.reached)
                throw DesignError(
                    fmt::format("{}: no DMA channel's stream reaches {} of this switch, so the connection "
                                "carries nothing: the route does not connect (aie-find-flows follows "
                                "routes from DMA ports only, AIEFindFlows.cpp L229-268)",
                                k.who, port_str(k.c.src_bundle, k.c.src_channel)));
    }

    std::vector<model::Flow>& flows() { return flows_; }

private:
    // The connects taking input `port`; a route that reaches a port no connect takes ends there
    // (getConnectionsThroughSwitchbox finds nothing, AIEFindFlows.cpp L84-96).
    const std::vector<Conn*>& takers(const Conn& from, const InPort& port, const std::string& where) {
        auto it = by_source_.find(port);
        if (it == by_source_.end() || it->second.empty())
            throw DesignError(fmt::format("{}: sends to {} {}, but no connect there takes it: the route does not "
                                          "connect (aie-find-flows follows a stream only through connects, "
                                          "AIEFindFlows.cpp L84-96, L181-224)",
                                          from.who, where,
                                          port_str(static_cast<WireBundle>(std::get<3>(port)), std::get<4>(port))));
        return it->second;
    }

    void follow(Conn& k, std::vector<TileCoord> path, model::Flow& f) {
        k.reached = true;
        const auto& c = k.c;
        const TileCoord t = k.tile;
        if (c.dst_bundle == WireBundle::DMA) { // a compute or mem tile's S2MM, or the shim's through its mux
            f.dests.push_back({t, Direction::S2MM, c.dst_channel});
            f.paths.push_back(std::move(path));
            return;
        }
        if (k.box->shim_mux) { // DMA -> North p: into the shim switch at South p
            for (auto* next : takers(k, in_port(t, false, WireBundle::South, c.dst_channel),
                                     fmt::format("the switchbox of {}", model::to_string(t))))
                follow(*next, path, f);
            return;
        }
        if (ctx_.dev.kind_at(t) == model::TileKind::Shim && c.dst_bundle == WireBundle::South) {
            for (auto* next : takers(k, in_port(t, true, WireBundle::North, c.dst_channel),
                                     fmt::format("the shim mux of {}", model::to_string(t))))
                follow(*next, path, f);
            return;
        }
        TileCoord n = t;
        switch (*model::bundle_direction(c.dst_bundle)) {
        case model::Port::North: n.row += 1; break;
        case model::Port::South: n.row -= 1; break;
        case model::Port::East: n.col += 1; break;
        case model::Port::West: n.col -= 1; break;
        }
        path.push_back(n);
        for (auto* next : takers(k, in_port(n, false, model::opposite_bundle(c.dst_bundle), c.dst_channel),
                                 fmt::format("the switchbox of {}", model::to_string(n))))
            follow(*next, path, f);
    }

    ResolveContext& ctx_;
    std::vector<Conn> conns_;
    std::map<InPort, std::vector<Conn*>> by_source_;
    std::vector<StreamEndpoint> started_;
    std::vector<model::Flow> flows_;
};

// A DMA channel feeds or drains one stream: a route may not share an end with a Flow, a fifo's
// flow or another route.
void check_ends_free(const ResolveContext& ctx, const model::Flow& f) {
    std::vector<StreamEndpoint> ends = f.dests;
    ends.push_back(f.source);
    for (const auto& e : ends)
        for (const auto& g : ctx.net.flows) {
            const bool taken = g.source == e || std::find(g.dests.begin(), g.dests.end(), e) != g.dests.end();
            if (taken)
                throw DesignError(fmt::format("{}: {} is already an end of {}; a DMA channel carries one stream",
                                              f.prov.object, model::to_string(e), g.prov.describe()));
        }
}

} // namespace

void lower_switchboxes(ResolveContext& ctx) {
    if (ctx.program.runtime().state()->switchboxes.empty()) return;
    RouteTracer tracer(ctx);
    tracer.collect();
    tracer.trace();
    for (auto& f : tracer.flows()) {
        check_ends_free(ctx, f);
        check_ends_programmed(ctx, f.prov.object, f.source, f.dests);
        if (ctx.dev.kind_at(f.source.tile) == model::TileKind::Shim)
            ctx.ledger.claim_channel(f.source.tile, Direction::MM2S, f.source.channel, f.prov.object);
        for (const auto& d : f.dests)
            if (ctx.dev.kind_at(d.tile) == model::TileKind::Shim)
                ctx.ledger.claim_channel(d.tile, Direction::S2MM, d.channel, f.prov.object);
        ctx.net.flows.push_back(std::move(f));
    }
}

void reserve_pinned_routes(const ResolveContext& ctx, StreamRouter& router) {
    for (const auto& f : ctx.net.flows)
        if (f.pinned_route) router.reserve(f.paths);
}

} // namespace npusim::iron::detail

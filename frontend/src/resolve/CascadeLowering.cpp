#include "resolve/CascadeLowering.hpp"

#include "npusim/model/Error.hpp"

#include <cstdlib>
#include <fmt/format.h>

namespace npusim::iron::detail {

using model::TileCoord;
using model::TileKind;

bool cascade_adjacent(TileCoord src, TileCoord dst) {
    // isSouth(src, dst): dst one row below src (rows grow northwards); isEast: one column east.
    return (src.col == dst.col && dst.row == src.row - 1) || (src.row == dst.row && dst.col == src.col + 1);
}

void verify_cascade_tiles(const model::DeviceSpec& dev, TileCoord src, TileCoord dst, const std::string& what) {
    for (const TileCoord t : {src, dst}) {
        if (!dev.contains(t))
            throw DesignError(fmt::format("{}: tile {} is not on {}", what, model::to_string(t), dev.name));
    }
    // CascadeFlowOp::verify (AIEDialect.cpp l.1203-1206): shim first, then mem, as the toolchain orders them.
    if (dev.kind_at(src) == TileKind::Shim || dev.kind_at(dst) == TileKind::Shim)
        throw DesignError(fmt::format("{}: shimTile row has no cascade stream interface", what));
    if (dev.kind_at(src) == TileKind::Mem || dev.kind_at(dst) == TileKind::Mem)
        throw DesignError(fmt::format("{}: memTile row has no cascade stream interface", what));
    const int dc = dst.col - src.col, dr = dst.row - src.row;
    if (std::abs(dc) + std::abs(dr) != 1) throw DesignError(fmt::format("{}: tiles must be adjacent", what));
    if (!cascade_adjacent(src, dst))
        throw DesignError(fmt::format("{}: source tile must be to the North or West of the destination tile (cascades "
                                      "run north to south or west to east: input from North or West, output to South "
                                      "or East on {})",
                                      what, model::arch_name(dev.arch)));
}

namespace {

std::string flow_text(const WorkerState* src, TileCoord st, const WorkerState* dst, TileCoord dt) {
    return fmt::format("CascadeFlow from worker '{}' on {} to worker '{}' on {}", src->name, model::to_string(st),
                       dst->name, model::to_string(dt));
}

} // namespace

bool cascade_placement_fits(const ResolveContext& ctx, const WorkerState* w, TileCoord tile) {
    for (const auto* v : ctx.workers) {
        for (const auto& weak : v->outgoing_cascades) {
            const auto d = weak.lock();
            if (!d) continue;
            const WorkerState* peer = nullptr;
            bool w_is_src = false;
            if (v == w) {
                peer = d.get();
                w_is_src = true;
            } else if (d.get() == w) {
                peer = v;
            } else {
                continue;
            }
            auto it = ctx.worker_tile.find(const_cast<WorkerState*>(peer));
            if (it == ctx.worker_tile.end()) continue;
            if (!(w_is_src ? cascade_adjacent(tile, it->second) : cascade_adjacent(it->second, tile))) return false;
        }
    }
    return true;
}

void lower_cascades(ResolveContext& ctx) {
    for (auto* src : ctx.workers) {
        for (const auto& weak : src->outgoing_cascades) {
            const auto dst = weak.lock();
            const auto st = ctx.worker_tile.at(src);
            auto dit = dst ? ctx.worker_tile.find(dst.get()) : ctx.worker_tile.end();
            if (dit == ctx.worker_tile.end())
                throw DesignError(fmt::format(
                    "CascadeFlow from worker '{}' on {}: its destination worker{} is not among the Program's workers",
                    src->name, model::to_string(st), dst && !dst->name.empty() ? " '" + dst->name + "'" : ""));
            const auto dt = dit->second;
            const std::string what = flow_text(src, st, dst.get(), dt);
            verify_cascade_tiles(ctx.dev, st, dt, what);
            const int si = ctx.worker_core.at(src), di = ctx.worker_core.at(dst.get());
            auto& sc = ctx.net.cores[static_cast<std::size_t>(si)];
            auto& dc = ctx.net.cores[static_cast<std::size_t>(di)];
            // One cascade input and one output port per core tile: configure_cascade takes a single
            // input and a single output direction (AIEDialect.cpp l.1250-1283; IRON cascadeflow.py
            // l.39-41). AIELowerCascadeFlows keeps only the last flow per port (l.39-57), so a second
            // one would silently win there; npusim refuses it.
            if (sc.cascade_out >= 0) {
                const auto& prev = ctx.net.cascades[static_cast<std::size_t>(sc.cascade_out)];
                throw DesignError(fmt::format("{}: worker '{}' already has a cascade output, to worker '{}' on {}; a "
                                              "tile has one cascade output (South or East)",
                                              what, src->name, prev.dst_worker, model::to_string(prev.dst)));
            }
            if (dc.cascade_in >= 0) {
                const auto& prev = ctx.net.cascades[static_cast<std::size_t>(dc.cascade_in)];
                throw DesignError(fmt::format("{}: worker '{}' already has a cascade input, from worker '{}' on {}; a "
                                              "tile has one cascade input (North or West)",
                                              what, dst->name, prev.src_worker, model::to_string(prev.src)));
            }
            model::CascadeConnection c;
            c.src_core = si;
            c.dst_core = di;
            c.src = st;
            c.dst = dt;
            c.src_worker = src->name;
            c.dst_worker = dst->name;
            sc.cascade_out = dc.cascade_in = static_cast<int>(ctx.net.cascades.size());
            ctx.net.cascades.push_back(std::move(c));
        }
    }
}

} // namespace npusim::iron::detail

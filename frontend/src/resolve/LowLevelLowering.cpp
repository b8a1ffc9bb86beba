#include "resolve/LowLevelLowering.hpp"

#include "resolve/BdEncoding.hpp"
#include "resolve/Padding.hpp"

#include "npusim/model/AddressPattern.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

namespace npusim::iron::detail {

using model::Direction;
using model::TileCoord;
using model::TileKind;

namespace {

std::string lock_who(const LockState& l) { return fmt::format("lock '{}'", l.name); }

// Where a tile DMA may reach memory and locks (mlir-aie AIEDialect.cpp): a compute tile's DMA only
// its own tile (DMABDOp::verify "Core tile DMAs can only access a buffer in the same tile.",
// UseLockOp::verify "can only access a lock in the same tile"); a mem tile's channels 0-3 its own
// and the east/west mem tiles (AIE2TargetModel::isLegalMemAffinity via UsesAreAccessible), channels
// 4 and 5 only its own (MemTileDMAOp::verify "... attempts to access a non-local buffer/lock").
void check_dma_reach(const ResolveContext& ctx, TileCoord dma, int channel, TileCoord res, bool is_lock,
                     const std::string& who, const std::string& what) {
    if (res == dma) return;
    const char* thing = is_lock ? "lock" : "buffer";
    if (ctx.dev.kind_at(dma) == TileKind::Compute)
        throw DesignError(fmt::format("{}: {} is on {}: {}", who, what, model::to_string(res),
                                      is_lock ? "can only access a lock in the same tile"
                                              : "Core tile DMAs can only access a buffer in the same tile."));
    if (channel > 3)
        throw DesignError(fmt::format("{}: {} is on {}: is reachable from DMA channel {} and attempts to access a "
                                      "non-local {}",
                                      who, what, model::to_string(res), channel, thing));
    const bool neighbour =
        ctx.dev.kind_at(res) == TileKind::Mem && res.row == dma.row && std::abs(res.col - dma.col) == 1;
    if (!neighbour)
        throw DesignError(fmt::format("{}: {} in Column {} and Row {} is accessed from an unreachable tile in Column "
                                      "{} and Row {}",
                                      who, what, res.col, res.row, dma.col, dma.row));
}

int lock_value(const ResolveContext& ctx, TileCoord t, int v, const std::string& who) {
    const int max = ctx.dev.resources(t).lock_max_value;
    if (v < 0 || v > max)
        throw DesignError(fmt::format("{}: lock value {} is outside the lock's state 0..{}", who, v, max));
    return v;
}

// A Flow's tile ends are DMA channels the user programs with a TileDma (IRON leaves "arranging
// matching TileDma channels" to the user, flow.py Flow): an end without a BD program would leave
// its channel free for a fifo to take, and nothing would send or take the stream.
void check_flow_ends_programmed(const ResolveContext& ctx) {
    for (const auto& f : ctx.net.flows)
        if (f.prov.role == "flow") check_ends_programmed(ctx, f.prov.object, f.source, f.dests);
}

} // namespace

TileCoord low_level_tile(const ResolveContext& ctx, const Tile& t, const std::string& who) {
    if (!t.pinned()) {
        const auto it = ctx.logical_tile.find(t.logical);
        if (it == ctx.logical_tile.end()) // every unplaced Tile a low-level object names is placed first
            throw DesignError(fmt::format("{}: its tile {} was not placed", who, t.str()));
        return it->second;
    }
    const TileCoord c = t.coord();
    if (!ctx.dev.contains(c))
        throw DesignError(fmt::format("{}: tile {} is not a tile of {}", who, t.str(), ctx.dev.name));
    return c;
}

std::vector<LockState*> all_locks(const ResolveContext& ctx) {
    std::vector<LockState*> out;
    std::set<int> seen;
    auto add = [&](LockState* l) {
        if (seen.insert(l->uid).second) out.push_back(l);
    };
    const auto& rt = *ctx.program.runtime().state();
    for (const auto& l : rt.locks) add(l.get());
    for (auto* w : ctx.workers)
        for (const auto& l : w->locks) add(l.get());
    for (const auto& d : rt.tile_dmas)
        for (const auto& ch : d->channels)
            for (const auto& bd : ch.bds) {
                for (const auto& a : bd.acquires) add(a.lock.state().get());
                for (const auto& r : bd.releases) add(r.lock.state().get());
            }
    return out;
}

void check_ends_programmed(const ResolveContext& ctx, const std::string& object, const model::StreamEndpoint& source,
                           const std::vector<model::StreamEndpoint>& dests) {
    std::vector<model::StreamEndpoint> ends = dests;
    ends.push_back(source);
    for (const auto& e : ends) {
        if (ctx.dev.kind_at(e.tile) == TileKind::Shim) continue;
        const bool programmed = std::any_of(ctx.net.channels.begin(), ctx.net.channels.end(), [&](const auto& ch) {
            return ch.tile == e.tile && ch.dir == e.dir && ch.channel == e.channel;
        });
        if (!programmed)
            throw DesignError(fmt::format("{}: {} has no BD program; add a DmaChannel for it to a TileDma of tile {}",
                                          object, model::to_string(e), model::to_string(e.tile)));
    }
}

void name_unnamed_objects(ResolveContext& ctx) {
    auto number = [](const char* kind, auto& objects) {
        std::set<std::string> taken;
        for (auto* o : objects)
            if (!o->default_name) taken.insert(o->name);
        int k = 0;
        for (auto* o : objects) {
            if (!o->default_name) continue;
            while (taken.count(fmt::format("{}_{}", kind, k))) ++k;
            o->name = fmt::format("{}_{}", kind, k++);
        }
    };
    auto locks = all_locks(ctx);
    number("lock", locks);
    std::vector<TileDmaState*> dmas;
    for (const auto& d : ctx.program.runtime().state()->tile_dmas) dmas.push_back(d.get());
    number("tile_dma", dmas);
    std::vector<BarrierState*> barriers;
    std::set<BarrierState*> seen;
    for (auto* w : ctx.workers)
        for (const auto& b : w->barriers)
            if (seen.insert(b.get()).second) barriers.push_back(b.get());
    number("barrier", barriers);
}

void place_locks(ResolveContext& ctx) {
    const auto locks = all_locks(ctx);
    // AIEAssignLockIDs: explicit ids are kept (a repeated one is an error), then the others take
    // the lowest free id of their tile.
    for (int pass = 0; pass < 2; ++pass)
        for (auto* l : locks) {
            if (l->lock_id.has_value() != (pass == 0)) continue;
            const TileCoord t = low_level_tile(ctx, l->tile, lock_who(*l));
            ctx.lock_of[l->uid] = ctx.ledger.add_lock(t, l->name, l->init, {l->name, "lock"}, l->lock_id);
        }
    for (auto* w : ctx.workers) {
        const TileCoord wt = ctx.worker_tile.at(w);
        for (const auto& l : w->locks) {
            const int idx = ctx.lock_of.at(l->uid);
            const TileCoord lt = ctx.net.locks[static_cast<std::size_t>(idx)].tile;
            // UsesAreAccessible (AIEDialect.cpp): a core's use_lock must reach the lock's tile.
            if (!ctx.dev.contains(lt) || !ctx.dev.core_can_access(wt, lt))
                throw DesignError(fmt::format("worker '{}': lock '{}' in Column {} and Row {} is accessed from an "
                                              "unreachable tile in Column {} and Row {}",
                                              w->name, l->name, lt.col, lt.row, wt.col, wt.row));
            model::CoreLockRef ref{l->uid, idx, true};
            if (const auto it = ctx.user_lock_use.find({w, l->uid}); it != ctx.user_lock_use.end())
                std::tie(ref.acquires, ref.releases) = it->second;
            ctx.core_of(w).locks.push_back(ref);
        }
    }
}

void place_tile_dma_buffers(ResolveContext& ctx) {
    for (const auto& d : ctx.program.runtime().state()->tile_dmas) {
        const TileCoord dt = low_level_tile(ctx, d->tile, fmt::format("TileDma '{}'", d->name));
        for (const auto& ch : d->channels)
            for (const auto& bd : ch.bds) {
                const auto& b = bd.buffer.state();
                if (ctx.buffer_of.count(b->uid)) continue;
                const TileCoord bt = b->tile ? low_level_tile(ctx, *b->tile, fmt::format("buffer '{}'", b->name)) : dt;
                const int idx = ctx.ledger.add_buffer(bt, b->name, b->type.bytes(), {b->name, "buffer"});
                ctx.net.buffers[static_cast<std::size_t>(idx)].init = b->init;
                ctx.buffer_of.emplace(b->uid, idx);
            }
    }
}

void lower_flows(ResolveContext& ctx) {
    std::map<std::tuple<int, int, int>, std::size_t> by_source; // source port -> net.flows index
    std::set<std::tuple<int, int, int>> dests;
    for (const auto& f : ctx.program.runtime().state()->flows) {
        const std::string who = f->describe();
        const TileCoord s = low_level_tile(ctx, f->src, who);
        const TileCoord d = low_level_tile(ctx, f->dst, who);
        const model::StreamEndpoint src{s, Direction::MM2S, f->opts.src_channel};
        const model::StreamEndpoint dst{d, Direction::S2MM, f->opts.dst_channel};
        for (const auto& e : {src, dst})
            if (e.channel < 0 || e.channel >= ctx.dev.dma_channels(e.tile, e.dir))
                throw DesignError(fmt::format("{}: {} tile {} has {} {} DMA channels (0..{})", who,
                                              model::tile_kind_name(ctx.dev.kind_at(e.tile)), model::to_string(e.tile),
                                              ctx.dev.dma_channels(e.tile, e.dir), model::direction_name(e.dir),
                                              ctx.dev.dma_channels(e.tile, e.dir) - 1));
        // One stream into a DMA port: a second flow into it cannot be routed (circuit switching).
        if (!dests.insert({d.col, d.row, dst.channel}).second)
            throw DesignError(fmt::format("{}: another Flow already ends at {}; a circuit-switched destination port "
                                          "takes one flow (use PacketFlow to merge streams)",
                                          who, model::to_string(dst)));
        // The shim ends are claimed here (the runtime drives them); tile ends by their TileDma.
        if (ctx.dev.kind_at(s) == TileKind::Shim && !by_source.count({s.col, s.row, src.channel}))
            ctx.ledger.claim_channel(s, Direction::MM2S, src.channel, who);
        if (ctx.dev.kind_at(d) == TileKind::Shim) ctx.ledger.claim_channel(d, Direction::S2MM, dst.channel, who);
        if (!f->opts.shim_symbol.empty()) {
            // flow.py _emit_shim_dma_alloc: MM2S when the shim is the source, else S2MM.
            model::StreamEndpoint alloc;
            if (ctx.dev.kind_at(s) == TileKind::Shim)
                alloc = src;
            else if (ctx.dev.kind_at(d) == TileKind::Shim)
                alloc = dst;
            else
                throw DesignError(fmt::format("Flow.shim_symbol='{}' requires a shim endpoint, but neither src ({}) "
                                              "nor dst ({}) is a shim tile.",
                                              f->opts.shim_symbol, f->src.str(), f->dst.str()));
            if (!ctx.shim_symbols.emplace(f->opts.shim_symbol, alloc).second)
                throw DesignError(
                    fmt::format("{}: shim_symbol '{}' is already declared by another flow", who, f->opts.shim_symbol));
        }
        const auto key = std::make_tuple(s.col, s.row, src.channel);
        if (auto it = by_source.find(key); it != by_source.end()) {
            ctx.net.flows[it->second].dests.push_back(dst); // aie.flow from one source twice: broadcast
            continue;
        }
        model::Flow nf;
        nf.source = src;
        nf.dests = {dst};
        nf.prov = {who, "flow"};
        by_source[key] = ctx.net.flows.size();
        ctx.net.flows.push_back(std::move(nf));
    }
}

void lower_tile_dmas(ResolveContext& ctx) {
    for (const auto& d : ctx.program.runtime().state()->tile_dmas) {
        const std::string dname = fmt::format("TileDma '{}'", d->name);
        const TileCoord t = low_level_tile(ctx, d->tile, dname);
        const TileKind kind = ctx.dev.kind_at(t);
        if (kind == TileKind::Shim)
            throw DesignError(fmt::format("{}: tile {} is a shim tile; npusim drives shim DMAs from the runtime "
                                          "sequence (shim_dma_single_bd_task), not from a TileDma",
                                          dname, model::to_string(t)));
        const auto& res = ctx.dev.resources(t);
        for (const auto& dc : d->channels) {
            const std::string cname =
                fmt::format("{} {} channel {}", dname, model::direction_name(dc.direction), dc.channel);
            ctx.ledger.claim_channel(t, dc.direction, dc.channel, dname);
            if (dc.bds.empty()) continue;
            model::DmaChannelProgram ch;
            ch.tile = t;
            ch.dir = dc.direction;
            ch.channel = dc.channel;
            ch.prov = {d->name, fmt::format("tile DMA {} {}", model::direction_name(dc.direction), dc.channel)};
            const std::uint32_t pad_word = channel_pad_word(dc, res, kind, cname);
            const int n = static_cast<int>(dc.bds.size());
            for (int i = 0; i < n; ++i) {
                const Bd& b = dc.bds[static_cast<std::size_t>(i)];
                const std::string who = fmt::format("{} Bd {}", cname, i);
                const auto& bs = *b.buffer.state();
                const int buf = ctx.buffer_of.at(bs.uid);
                const auto& nb = ctx.net.buffers[static_cast<std::size_t>(buf)];
                check_dma_reach(ctx, t, dc.channel, nb.tile, false, who, fmt::format("buffer '{}'", bs.name));
                const std::int64_t eb = static_cast<std::int64_t>(model::dtype_bytes(bs.type.dtype));
                const std::int64_t elems = bs.type.elements();
                const std::int64_t len = b.length.value_or(elems);
                if (b.offset < 0 || len < 0 || b.offset + (b.sizes.empty() ? len : 0) > elems)
                    throw DesignError(fmt::format("{}: offset {} + length {} is outside buffer '{}' of {} elements",
                                                  who, b.offset, len, bs.name, elems));
                model::BufferDescriptor bd;
                bd.buffer = buf;
                bd.offset_bytes = static_cast<std::uint32_t>(b.offset * eb);
                bd.length_bytes = static_cast<std::uint32_t>(len * eb);
                // DMABDOp::verify: "transfer length must be multiple of 4 (i.e., represent 4 byte
                // aligned address)"; the BD's base address is in 32-bit words too.
                if (bd.length_bytes % 4 != 0)
                    throw DesignError(fmt::format("{}: {} B: transfer length must be multiple of 4 (i.e., represent "
                                                  "4 byte aligned address)",
                                                  who, bd.length_bytes));
                if (bd.offset_bytes % 4 != 0)
                    throw DesignError(fmt::format("{}: offset {} B is not 4-byte aligned", who, bd.offset_bytes));
                if (b.sizes.size() != b.strides.size())
                    throw DesignError(fmt::format("{}: {} sizes but {} strides; they must have equal length", who,
                                                  b.sizes.size(), b.strides.size()));
                StreamDims dims;
                for (std::size_t k = 0; k < b.sizes.size(); ++k) dims.push_back({b.sizes[k], b.strides[k]});
                bd.dims = to_words(dims, bs.type, res, kind, who);
                encode_bd_padding(bd, b, eb, kind, dc.direction, who);
                if (!bd.pad.empty()) {
                    bd.pad_word = pad_word;
                    check_padded_bd(bd, nb, who);
                } else if (!bd.dims.empty()) {
                    const model::AddressPattern p(0, bd.dims);
                    if (p.total_bytes() != bd.length_bytes || p.min_offset() < 0 ||
                        p.max_offset() + bd.offset_bytes >= nb.bytes)
                        throw DesignError(fmt::format("{}: sizes/strides move {} B within offsets {}..{} from {} B "
                                                      "into a {} B buffer, for a length of {} B",
                                                      who, p.total_bytes(), p.min_offset(), p.max_offset(),
                                                      bd.offset_bytes, nb.bytes, bd.length_bytes));
                }
                // A BD has one lock-acquire and one lock-release field (AIE2 DMA_BDx_5: Lock_Acq_ID /
                // Lock_Acq_Value, Lock_Rel_ID / Lock_Rel_Value).
                if (b.acquires.size() > 1 || b.releases.size() > 1)
                    throw DesignError(fmt::format("{}: {} acquires and {} releases; a BD has one lock acquire and one "
                                                  "lock release",
                                                  who, b.acquires.size(), b.releases.size()));
                for (const auto& a : b.acquires) {
                    bd.acquire_lock = ctx.lock_of.at(a.lock.state()->uid);
                    check_dma_reach(ctx, t, dc.channel, ctx.net.locks[static_cast<std::size_t>(bd.acquire_lock)].tile,
                                    true, who, fmt::format("lock '{}'", a.lock.name()));
                    bd.acquire_value = lock_value(ctx, t, a.value, who);
                    bd.acquire_equal = !a.greater_equal;
                }
                for (const auto& r : b.releases) {
                    bd.release_lock = ctx.lock_of.at(r.lock.state()->uid);
                    check_dma_reach(ctx, t, dc.channel, ctx.net.locks[static_cast<std::size_t>(bd.release_lock)].tile,
                                    true, who, fmt::format("lock '{}'", r.lock.name()));
                    bd.release_value = lock_value(ctx, t, r.value, who);
                }
                if (b.packet) {
                    // DMABDOp::verify (AIEDialect.cpp): "Packet type field can only hold 3 bits.",
                    // "Packet ID field can only hold 5 bits." (id above getMaxPacketId, 31).
                    if (b.packet->pkt_type < 0 || b.packet->pkt_type > 7)
                        throw DesignError(fmt::format("{}: packet type {}: Packet type field can only hold 3 bits.",
                                                      who, b.packet->pkt_type));
                    if (b.packet->pkt_id < 0 || b.packet->pkt_id > 31)
                        throw DesignError(fmt::format("{}: packet id {}: Packet ID field can only hold 5 bits.", who,
                                                      b.packet->pkt_id));
                    // The BD's packet header is inserted by an MM2S channel only (AIE2 DMA_BDx_1
                    // Packet_ID: "Value of inserted Packet ID field in packet header (MM2S only)").
                    if (dc.direction != Direction::MM2S)
                        throw DesignError(fmt::format("{}: a packet header is inserted by an MM2S channel only; an "
                                                      "S2MM BD takes no packet",
                                                      who));
                    bd.packet_id = b.packet->pkt_id;
                    bd.packet_type = b.packet->pkt_type;
                }
                if (b.next == Bd::self)
                    bd.next = i;
                else if (b.next == Bd::none)
                    bd.next = -1;
                else if (b.next >= 0 && b.next < n)
                    bd.next = b.next;
                else // tile_dma.py TileDma.resolve
                    throw DesignError(
                        fmt::format("{}: Bd.next index {} out of range for channel with {} BDs", who, b.next, n));
                bd.prov = {d->name, fmt::format("{} channel {} Bd", model::direction_name(dc.direction), dc.channel),
                           i};
                ch.bds.push_back(std::move(bd));
            }
            ctx.ledger.add_channel(std::move(ch), cname);
        }
    }
    check_flow_ends_programmed(ctx);
}

} // namespace npusim::iron::detail

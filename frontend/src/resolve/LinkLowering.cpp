#include "resolve/LinkLowering.hpp"

#include "resolve/BdEncoding.hpp"
#include "resolve/RingBuilder.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace npusim::iron::detail {

using model::Direction;
using model::TileCoord;

namespace {

// What a link is made of, worked out once.
struct LinkShape {
    LinkState* link = nullptr;
    TileCoord tile;
    bool join = false;
    FifoState* owner = nullptr; ///< the fifo whose link-side copy is the pool
    EndpointState* owner_ep = nullptr; ///< the owner fifo's endpoint on the link
    std::vector<FifoState*> subs; ///< the other side: n sub-fifos
    std::string pool; ///< name prefix of the pool's buffers and locks
    int repeat = 1; ///< repeat_count of the outputs
    int iters = 0; ///< set_iter_count (0: forever)
    /// The endpoint whose depth sizes the pool, and the pool's object size. owner_ep and the
    /// owner's object size, except for a forward to a larger object type (below).
    EndpointState* pool_ep = nullptr;
    std::uint32_t pool_bytes = 0;
    /// Bytes a forward's output BD moves: pool_bytes, or the padded output object when the pool
    /// holds the smaller input (link_shape).
    std::uint32_t sub_bytes = 0;
};

LinkShape link_shape(const LinkPlan& plan) {
    LinkShape s;
    s.link = plan.link;
    s.tile = plan.tile;
    auto* link = plan.link;
    s.join = link->kind == LinkState::Kind::Join;
    s.owner = s.join ? link->outputs[0].get() : link->inputs[0];
    if (s.join)
        s.subs = link->inputs;
    else
        for (auto& o : link->outputs) s.subs.push_back(o.get());
    if (s.join)
        s.owner_ep = s.owner->prod.get();
    else
        for (auto& c : s.owner->cons)
            if (c->owner == OwnerKind::Link && c->link == link) s.owner_ep = c.get();
    s.pool = s.join ? s.owner->name : s.owner->name + "_cons";
    s.pool_ep = s.owner_ep;
    s.pool_bytes = static_cast<std::uint32_t>(s.owner->obj_type.bytes());
    s.sub_bytes = s.pool_bytes;
    // A forward whose output object is larger: the toolchain creates the link's buffers from the
    // output fifo (AIEObjectFifoStatefulTransform.cpp:944-968 createObjectFifoElements: "check
    // which objectfifo of the link has bigger size"), and both mem-tile channels move the larger
    // object per BD (createMemTileDMA, :1498-1508: the non-target side takes lenOut = targetLen
    // when targetLen >= its own). The stream carries the bytes; the smaller side's BDs on the other
    // tile take them in several objects (ml/conv2d: 2-row objects in the mem tile, 1-row objects in
    // the core). When that larger output pads (pad_dimensions), the buffers are the input's
    // (:957-963: "MemTile buffer should use input (smaller) size - padding is applied on-the-fly by
    // DMA"): the input side moves its own object, the output side its own padded one
    // (:1502-1507: a smaller target leaves op's own element count).
    if (link->kind == LinkState::Kind::Forward) {
        FifoState* out = link->outputs[0].get();
        if (out->obj_type.bytes() > s.owner->obj_type.bytes() && !out->pad_dimensions.empty()) {
            s.sub_bytes = static_cast<std::uint32_t>(out->obj_type.bytes());
        } else {
            if (out->obj_type.bytes() > s.owner->obj_type.bytes()) {
                s.pool_ep = out->prod.get();
                s.pool = out->name;
            }
            s.pool_bytes = static_cast<std::uint32_t>(std::max(out->obj_type.bytes(), s.owner->obj_type.bytes()));
            s.sub_bytes = s.pool_bytes;
        }
    }
    s.repeat = link_repeat_count(*link);
    s.iters = s.owner->iter_count;
    for (auto* f : link->inputs) s.iters = std::max(s.iters, f->iter_count);
    for (auto& f : link->outputs) s.iters = std::max(s.iters, f->iter_count);
    return s;
}

// Sub-fifo f's endpoint on the link: a split's output producer, a join's input consumer.
const EndpointState* sub_end(const LinkShape& s, const FifoState* f) {
    if (!s.join) return f->prod.get();
    for (const auto& c : f->cons)
        if (c->owner == OwnerKind::Link && c->link == s.link) return c.get();
    throw std::logic_error(
        fmt::format("join of fifo '{}': input '{}' has no consumer on the link", s.owner->name, f->name));
}

std::uint32_t segment_offset(const LinkShape& s, std::size_t i) {
    const std::uint64_t eb = model::dtype_bytes(s.owner->obj_type.dtype);
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(s.link->offsets[i]) * eb);
}
// getDistributeTransferLengths / getJoinTransferLengths (AIEDialect.cpp): to the next offset, the
// last segment to the end of the pool's object (make_link has checked that the sub-fifo's object and its
// segment are whole multiples of one another).
std::uint32_t segment_length(const LinkShape& s, std::size_t i) {
    const auto& off = s.link->offsets;
    const std::int64_t end = i + 1 < off.size() ? off[i + 1] : s.owner->obj_type.elements();
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(end - off[i]) *
                                      model::dtype_bytes(s.owner->obj_type.dtype));
}

// dims_to_stream of a link output goes on its MM2S BDs.
std::vector<model::Dim> out_dims(ResolveContext& ctx, const LinkShape& s, FifoState* f) {
    return to_words(f->dims_to_stream, f->obj_type, ctx.dev.resources(s.tile), ctx.dev.kind_at(s.tile),
                    fmt::format("fifo '{}' dims_to_stream", f->name));
}
// dims_from_stream of a link input's link-side consumer goes on its S2MM BDs.
std::vector<model::Dim> in_dims(ResolveContext& ctx, const LinkShape& s, FifoState* f) {
    for (auto& c : f->cons)
        if (c->owner == OwnerKind::Link && c->link == s.link)
            return to_words(c->dims_from_stream, f->obj_type, ctx.dev.resources(s.tile), ctx.dev.kind_at(s.tile),
                            fmt::format("fifo '{}' dims_from_stream", f->name));
    return {};
}

void add_padding(ResolveContext& ctx, const LinkShape& s, model::DmaChannelProgram& ch, FifoState* f,
                 const std::vector<model::Dim>& dims) {
    encode_padding(ch.bds, *f, dims, ctx.dev.resources(s.tile), ctx.dev.kind_at(s.tile), s.tile);
}

// The pool side: one channel walking n segment BDs per buffer; a split's input side moves R at a time.
void lower_pool_side(ResolveContext& ctx, const LinkShape& s, const LinkPlan& plan, const std::vector<int>& bufs,
                     const std::vector<LockPair>& locks, const std::string& who) {
    const std::size_t n = s.subs.size();
    model::DmaChannelProgram ch;
    ch.tile = s.tile;
    ch.dir = s.join ? Direction::MM2S : Direction::S2MM;
    ch.channel = s.join ? plan.mm2s_of.at(s.owner) : plan.s2mm_of.at(s.owner);
    ch.prov = {s.owner->name, s.join ? "link MM2S" : "link S2MM"};
    const auto dims = s.join ? out_dims(ctx, s, s.owner) : in_dims(ctx, s, s.owner);
    std::vector<ChainSegment> segments;
    for (std::size_t i = 0; i < n; ++i) {
        ChainSegment seg;
        seg.offset_bytes = n == 1 ? 0 : segment_offset(s, i);
        seg.length_bytes = n == 1 ? s.pool_bytes : segment_length(s, i);
        seg.acquire_lock = s.join ? locks[i].cons : locks[i].prod;
        seg.release_lock = s.join ? locks[i].prod : locks[i].cons;
        seg.lock_value = s.join ? 1 : repeat_scaled(1, s.repeat);
        segments.push_back(seg);
    }
    ch.bds = circular_chain(bufs, segments, dims, s.owner->name, ch.prov.role);
    if (s.join) add_padding(ctx, s, ch, s.owner, dims);
    check_layout_fits_segment(ch.bds, ctx.net.buffers, s.owner->name, ch.prov.role);
    if (s.join) {
        repeat_chain(ch.bds, s.repeat, /*allow_hw_repeat=*/false);
    }
    end_chain_after_iterations(ch, s.iters);
    ctx.ledger.add_channel(std::move(ch), who);
}

// Sub-fifo i: one channel walking one BD per buffer over its segment.
void lower_sub_side(ResolveContext& ctx, const LinkShape& s, const LinkPlan& plan, std::size_t i,
                    const std::vector<int>& bufs, const LockPair& locks, const std::string& who) {
    FifoState* f = s.subs[i];
    model::DmaChannelProgram ch;
    ch.tile = s.tile;
    ch.dir = s.join ? Direction::S2MM : Direction::MM2S;
    ch.channel = s.join ? plan.s2mm_of.at(f) : plan.mm2s_of.at(f);
    ch.prov = {f->name, s.join ? "link S2MM" : "link MM2S"};
    const auto dims = s.join ? in_dims(ctx, s, f) : out_dims(ctx, s, f);
    ChainSegment seg;
    seg.offset_bytes = segment_offset(s, i);
    seg.length_bytes = s.subs.size() == 1 ? s.sub_bytes : segment_length(s, i);
    seg.acquire_lock = s.join ? locks.prod : locks.cons;
    seg.release_lock = s.join ? locks.cons : locks.prod;
    ch.bds = circular_chain(bufs, {seg}, dims, f->name, ch.prov.role);
    if (!s.join) add_padding(ctx, s, ch, f, dims);
    check_layout_fits_segment(ch.bds, ctx.net.buffers, f->name, ch.prov.role);
    if (!s.join) {
        // createMemTileDMA on the sub-fifo side: joinDistribFactor is 1 there, so a pool of one
        // buffer replays its BD in hardware (repeat R-1) whatever the number of sub-fifos.
        const bool hw_repeat = bufs.size() == 1 && s.iters == 0;
        repeat_chain(ch.bds, f->repeats(), hw_repeat);
    }
    end_chain_after_iterations(ch, s.iters);
    ctx.ledger.add_channel(std::move(ch), who);
}

} // namespace

void lower_link(ResolveContext& ctx, LinkPlan& plan) {
    const LinkShape s = link_shape(plan);
    const int depth = ctx.endpoint_depth(*s.pool_ep, s.tile, BufferHolding::OwnCopy, model::FifoEndHolding::LinkPool);
    if (s.pool_ep != s.owner_ep)
        ctx.record_bufferless_end(*s.owner_ep, s.tile, model::FifoEndHolding::SharesLinkPool, s.pool_ep);
    for (auto* f : s.subs)
        if (sub_end(s, f) != s.pool_ep)
            ctx.record_bufferless_end(*sub_end(s, f), s.tile, model::FifoEndHolding::SharesLinkPool, s.pool_ep);
    RingBuilder rb(ctx.ledger, ctx.net);
    const auto bufs = rb.buffers(s.tile, s.pool, depth, s.pool_bytes, s.pool_ep->fifo->name, "link pool");
    std::vector<LockPair> locks;
    for (std::size_t i = 0; i < s.subs.size(); ++i)
        locks.push_back(rb.lock_pair(s.tile, s.pool, static_cast<int>(i), initial_lock_values(depth, 0, s.repeat),
                                     s.pool_ep->fifo->name, "link"));
    const std::string who = fmt::format("link of fifo '{}'", s.owner->name);
    lower_pool_side(ctx, s, plan, bufs, locks, who);
    for (std::size_t i = 0; i < s.subs.size(); ++i) lower_sub_side(ctx, s, plan, i, bufs, locks[i], who);
}

} // namespace npusim::iron::detail

#include "npusim/frontend/ObjectFifoLink.hpp"

#include "FifoState.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

// forward(), split(), join() and ObjectFifoLink: the links between fifos (FifoState.hpp LinkState).
namespace npusim::iron {

namespace {
// The rules of a link's shape, for split()/join()/forward() and ObjectFifoLink alike: `parent` is
// the input of a distribute or the output of a join (`ep` its end on the link), `types`, `names`
// and `repeats` describe the n sub-fifos, `offsets` index the parent object.
void check_link_segments(const detail::FifoState& parent, const detail::EndpointState& ep, detail::LinkKind kind,
                         const char* what, const std::vector<std::int64_t>& offsets,
                         const std::vector<TensorType>& types, const std::vector<std::string>& names,
                         const std::vector<std::optional<int>>& repeats) {
    const bool join = kind == detail::LinkState::Kind::Join;
    const std::size_t n = offsets.size();
    const std::int64_t whole = parent.obj_type.elements();
    // Offsets must rise within the parent object; segment i then runs to the next offset and the
    // last one to the end of the object (AIEDialect.cpp getDistributeTransferLengths /
    // getJoinTransferLengths): these lengths, not the sub-fifos' types, are what the mem tile's
    // BDs move.
    for (std::size_t i = 0; i < n; ++i) {
        if (offsets[i] < 0 || offsets[i] >= whole)
            throw DesignError(fmt::format("fifo '{}': {}() offset {} of sub-fifo {} is outside the parent object of {} "
                                          "elements",
                                          parent.name, what, offsets[i], i, whole));
        if (i + 1 < n && offsets[i + 1] <= offsets[i])
            throw DesignError(fmt::format("fifo '{}': {}() offsets must increase: sub-fifos {} and {} overlap (offset "
                                          "{} then {})",
                                          parent.name, what, i, i + 1, offsets[i], offsets[i + 1]));
    }
    std::vector<std::int64_t> seg(n);
    for (std::size_t i = 0; i < n; ++i) seg[i] = (i + 1 < n ? offsets[i + 1] : whole) - offsets[i];
    for (std::size_t i = 0; i < n; ++i) {
        if (types[i].dtype != parent.obj_type.dtype)
            throw DesignError(fmt::format("fifo '{}': {}() obj_types[{}] {} has another element type than {}",
                                          parent.name, what, i, types[i].str(), parent.obj_type.str()));
        // The mem tile's BD moves the segment; the sub-fifo's own BD (at its consumer or producer)
        // moves its object. The toolchain checks nothing here (ObjectFifoLinkOp::verify,
        // AIEDialect.cpp:822-911), and an in-order S2MM completes a BD by its length, so a segment
        // of k whole objects (upstream ml/mobilenet's cascade.py:348 splits 38,400-element segments
        // into 19,200-element weight objects) or an object of k whole segments streams as written.
        // npusim departs only where neither divides the other: an object would then take part of
        // one segment and part of the next, which no lowering intends (docs/resolve.md).
        const std::int64_t obj = types[i].elements();
        if (kind != detail::LinkState::Kind::Forward && obj > 0 && seg[i] % obj != 0 && obj % seg[i] != 0)
            throw DesignError(fmt::format(
                "fifo '{}': object of {} elements but {} offsets give segment [{},{}) of {} elements; the mem "
                "tile moves the segment (AIEDialect.cpp {}), so one must be a whole multiple of the other",
                names[i], obj, what, offsets[i], offsets[i] + seg[i], seg[i],
                join ? "getJoinTransferLengths" : "getDistributeTransferLengths"));
    }
    if (n > 1) { // a join or distribute (AIEOps.td isJoin/isDistribute: more than one sub-fifo)
        // ObjectFifoLinkOp::verify (AIEDialect.cpp): the mem-tile side layout may not reach past the
        // shortest segment.
        const std::int64_t min_len = *std::min_element(seg.begin(), seg.end());
        const StreamDims& dims = join ? parent.dims_to_stream : ep.dims_from_stream;
        std::int64_t max_idx = 0;
        for (const auto& [size, stride] : dims) max_idx += stride * (size - 1);
        if (!dims.empty() && min_len <= max_idx)
            throw DesignError(fmt::format("fifo '{}': {}(): specified {} stride(s) and size(s) result in out of bounds "
                                          "access in {}, for index {} in transfer of length {}.",
                                          parent.name, what, join ? "output" : "input",
                                          join ? "join input" : "distribute output", max_idx, min_len));
        if (!join) {
            // Every output's repeat_count, unset counting as 0, must equal the first.
            for (const auto& r : repeats)
                if (r.value_or(0) != repeats[0].value_or(0))
                    throw DesignError(fmt::format(
                        "fifo '{}': split(): repeat counts of output object FIFOs must be equal", parent.name));
        }
        if (join && parent.repeats() > 1)
            // createMemTileDMA walks repeat x n pool BDs for the join output and indexes the join's
            // offsets by that counter, past the n offsets there are: the toolchain has no defined
            // lowering to mirror, so npusim refuses it.
            throw DesignError(
                fmt::format("fifo '{}': repeat_count {} on the output of a join is not lowered by the toolchain "
                            "(AIEObjectFifoStatefulTransform createMemTileDMA indexes the join offsets by repeat); put "
                            "repeat_counts on the join's inputs instead",
                            parent.name, parent.repeats()));
    }
}

// Link `f` (consumer end `ep`) as an input of `link`, `f` (producer end `ep`) as an output.
void attach_input(const std::shared_ptr<detail::LinkState>& link, detail::FifoState* f, detail::EndpointState* ep) {
    ep->owner = detail::OwnerKind::Link;
    ep->link = link.get();
    link->inputs.push_back(f);
    f->link_from_cons = link;
}
void attach_output(const std::shared_ptr<detail::LinkState>& link, std::shared_ptr<detail::FifoState> f,
                   detail::EndpointState* ep) {
    ep->owner = detail::OwnerKind::Link;
    ep->link = link.get();
    f->link_to_prod = link.get();
    link->outputs.push_back(std::move(f));
}
} // namespace

ObjectFifo ObjectFifoHandle::forward(Tile tile, std::optional<TensorType> obj_type, std::optional<int> depth,
                                     std::string name) const {
    ForwardOptions o;
    o.tile = tile;
    o.obj_type = std::move(obj_type);
    o.depth = depth;
    o.name = std::move(name);
    return forward(std::move(o));
}

ObjectFifo ObjectFifoHandle::forward(ForwardOptions o) const {
    detail::require_handle(ep_, "forward");
    if ((!o.to_stream.empty() && !o.dims_to_stream.empty()) || (!o.from_stream.empty() && !o.dims_from_stream.empty()))
        throw DesignError(fmt::format("fifo '{}': forward() takes dims_to_stream or to_stream (and dims_from_stream or "
                                      "from_stream), not both",
                                      fifo_->name));
    if (!o.to_stream.empty()) o.dims_to_stream = std::move(o.to_stream);
    if (!o.from_stream.empty()) o.dims_from_stream = std::move(o.from_stream);
    LinkOptions l;
    l.tile = o.tile;
    if (o.depth) l.depths = {*o.depth};
    l.obj_types = {o.obj_type.value_or(fifo_->obj_type)};
    l.names = {o.name.empty() ? fifo_->name + "_fwd" : o.name};
    l.dims_to_stream = {o.dims_to_stream};
    l.dims_from_stream = {o.dims_from_stream};
    l.repeat_counts = {o.repeat_count};
    l.pad_dimensions = {o.pad_dimensions};
    l.pad_value = {o.pad_value};
    // A forward may change the object size (obj_type): ObjectFifoLinkOp::verify (AIEDialect.cpp)
    // puts no size rule on a 1-to-1 link; LinkLowering makes the mem tile move the larger object.
    auto outs = make_link(detail::LinkState::Kind::Forward, {0}, std::move(l));
    return outs.front();
}

std::vector<ObjectFifo> ObjectFifoHandle::split(std::vector<std::int64_t> offsets, LinkOptions opts) const {
    return make_link(detail::LinkState::Kind::Split, std::move(offsets), std::move(opts));
}

std::vector<ObjectFifo> ObjectFifoHandle::join(std::vector<std::int64_t> offsets, LinkOptions opts) const {
    return make_link(detail::LinkState::Kind::Join, std::move(offsets), std::move(opts));
}

std::vector<ObjectFifo> ObjectFifoHandle::make_link(detail::LinkKind kind, std::vector<std::int64_t> offsets,
                                                    LinkOptions opts) const {
    const bool join = kind == detail::LinkState::Kind::Join;
    const bool forward_call = kind == detail::LinkState::Kind::Forward;
    const char* what = forward_call ? "forward" : join ? "join" : "split";
    detail::require_handle(ep_, what);
    if (join != (ep_->role == detail::Role::Producer))
        throw DesignError(fmt::format("fifo '{}': {}() is only available on {} handles", fifo_->name, what,
                                      join ? "producer" : "consumer"));
    if (ep_->owner != detail::OwnerKind::None)
        throw DesignError(
            fmt::format("{}: this handle is already used elsewhere; {}() needs a fresh handle", ep_->describe(), what));
    if (opts.tile.kind && *opts.tile.kind == TileKind::Shim)
        throw DesignError(fmt::format("fifo '{}': {}() cannot use a shim tile as link tile", fifo_->name, what));
    if ((!opts.to_stream.empty() && !opts.dims_to_stream.empty()) ||
        (!opts.from_stream.empty() && !opts.dims_from_stream.empty()))
        throw DesignError(
            fmt::format("fifo '{}': {}() takes dims_to_stream or to_stream (and dims_from_stream or from_stream), "
                        "not both",
                        fifo_->name, what));
    if (!opts.to_stream.empty()) opts.dims_to_stream = std::move(opts.to_stream);
    if (!opts.from_stream.empty()) opts.dims_from_stream = std::move(opts.from_stream);
    const std::size_t n = offsets.size();
    if (n == 0) throw DesignError(fmt::format("fifo '{}': {}() needs at least one offset", fifo_->name, what));
    auto check_len = [&](std::size_t got, const char* field) {
        if (got != 0 && got != n)
            throw DesignError(
                fmt::format("fifo '{}': {}() {} has {} entries for {} sub-fifos", fifo_->name, what, field, got, n));
    };
    check_len(opts.depths.size(), "depths");
    check_len(opts.obj_types.size(), "obj_types");
    check_len(opts.names.size(), "names");
    check_len(opts.dims_to_stream.size(), "dims_to_stream");
    check_len(opts.dims_from_stream.size(), "dims_from_stream");
    check_len(opts.repeat_counts.size(), "repeat_counts");
    check_len(opts.pad_dimensions.size(), "pad_dimensions");
    check_len(opts.pad_value.size(), "pad_value");
    if (n == 1 && kind != detail::LinkState::Kind::Forward) {
        // One sub-fifo: not a distribute or join (AIEOps.td:2238-2239 isJoin / isDistribute count
        // more than one input / output), so the toolchain lowers it as the 1-to-1 link forward()
        // makes (IRON's forward is split([0])): whole objects of either size, no offsets
        // (createMemTileDMA, AIEObjectFifoStatefulTransform.cpp:1498-1508, reads none).
        if (offsets[0] != 0)
            throw DesignError(fmt::format("fifo '{}': {}() with one sub-fifo is a 1-to-1 link (a {} needs more than "
                                          "one sub-fifo), which moves whole objects and ignores offsets: offset {} "
                                          "must be 0",
                                          fifo_->name, what, join ? "join" : "distribute", offsets[0]));
        kind = detail::LinkState::Kind::Forward;
    }
    auto sub_name = [&](std::size_t i) {
        return !opts.names.empty() ? opts.names[i]
               : forward_call      ? fifo_->name + "_fwd"
                                   : fmt::format("{}_{}{}", fifo_->name, what, i);
    };
    // Sub-objects: obj_types when given, else the segment (checked below).
    const std::int64_t parent = fifo_->obj_type.elements();
    std::vector<TensorType> types(n);
    std::vector<std::string> names(n);
    for (std::size_t i = 0; i < n; ++i) {
        names[i] = sub_name(i);
        types[i] = !opts.obj_types.empty() ? opts.obj_types[i]
                                           : TensorType{fifo_->obj_type.dtype,
                                                        {(i + 1 < n ? offsets[i + 1] : parent) - offsets[i]}};
    }
    std::vector<std::optional<int>> repeats = opts.repeat_counts;
    if (repeats.empty()) repeats.resize(n);
    check_link_segments(*fifo_, *ep_, kind, what, offsets, types, names, repeats);
    auto link = std::make_shared<detail::LinkState>();
    link->kind = kind;
    link->tile = opts.tile;
    link->offsets = offsets;
    std::vector<ObjectFifo> subs;
    for (std::size_t i = 0; i < n; ++i) {
        const std::string& name = names[i];
        FifoOptions fo;
        if (!opts.dims_to_stream.empty()) fo.dims_to_stream = opts.dims_to_stream[i];
        if (!opts.repeat_counts.empty()) fo.repeat_count = opts.repeat_counts[i];
        if (!opts.pad_dimensions.empty()) fo.pad_dimensions = opts.pad_dimensions[i];
        if (!opts.pad_value.empty()) fo.pad_value = opts.pad_value[i];
        ObjectFifo sub(types[i], name, opts.depths.empty() ? fifo_->depth : opts.depths[i], std::move(fo));
        auto st = sub.state();
        // split/forward: dims_from_stream[i] belongs to sub-fifo i's consumers (IRON
        // dims_from_stream_per_cons, objectfifo.py split(); forward() is split([0], ...)).
        if (!join && !opts.dims_from_stream.empty()) st->default_dims_from_stream = opts.dims_from_stream[i];
        if (join) {
            // sub-fifo i feeds the link: its consumer endpoint belongs to the link
            auto h = sub.cons(std::nullopt, std::nullopt,
                              opts.dims_from_stream.empty() ? StreamDims{} : opts.dims_from_stream[i]);
            attach_input(link, st.get(), h.endpoint());
        } else {
            attach_output(link, st, sub.prod().endpoint());
        }
        subs.push_back(std::move(sub));
    }
    if (join)
        attach_output(link, fifo_, ep_);
    else
        attach_input(link, fifo_.get(), ep_);
    return subs;
}


ObjectFifoLink::ObjectFifoLink(const ObjectFifoHandle& src, const ObjectFifoHandle& dst, Tile tile)
    : ObjectFifoLink(std::vector<ObjectFifoHandle>{src}, std::vector<ObjectFifoHandle>{dst}, std::move(tile)) {}

ObjectFifoLink::ObjectFifoLink(std::vector<ObjectFifoHandle> srcs, std::vector<ObjectFifoHandle> dsts, Tile tile,
                               std::vector<std::int64_t> src_offsets, std::vector<std::int64_t> dst_offsets) {
    // The argument checks of objectfifo.py ObjectFifoLink.__init__, in its order and words.
    if (srcs.empty()) throw DesignError("ObjectFifoLink: An ObjectFifoLink must have at least one source");
    if (dsts.empty()) throw DesignError("ObjectFifoLink: An ObjectFifoLink must have at least one destination");
    if (srcs.size() != 1 && dsts.size() != 1)
        throw DesignError("ObjectFifoLink: An ObjectFifoLink may only have > 1 of either sources or destinations, but "
                          "not both");
    if (!src_offsets.empty() && src_offsets.size() != srcs.size())
        throw DesignError("ObjectFifoLink: The number of source offsets does not match the number of sources");
    if (!dst_offsets.empty() && dst_offsets.size() != dsts.size())
        throw DesignError("ObjectFifoLink: The number of destination offsets does not match the number of "
                          "destinations");
    if (tile.kind && *tile.kind == TileKind::Shim)
        throw DesignError("ObjectFifoLink: a shim tile cannot be a link tile");
    auto check_end = [](const ObjectFifoHandle& h, bool src, std::size_t i) {
        const char* side = src ? "source" : "destination";
        if (!h.endpoint())
            throw DesignError(fmt::format("ObjectFifoLink: {} {} is an empty handle (default-constructed)", side, i));
        if (h.is_producer() == src)
            throw DesignError(fmt::format("ObjectFifoLink: {} {} is {}; a link's sources are consumer handles and its "
                                          "destinations producer handles",
                                          side, i, h.endpoint()->describe()));
        if (h.endpoint()->owner != detail::OwnerKind::None)
            throw DesignError(fmt::format("ObjectFifoLink: {} {}: {} is already used elsewhere", side, i,
                                          h.endpoint()->describe()));
        if (src && h.fifo_state()->link_from_cons)
            throw DesignError(fmt::format("ObjectFifoLink: source {}: fifo '{}' already feeds a link", i,
                                          h.fifo_state()->name));
    };
    for (std::size_t i = 0; i < srcs.size(); ++i) check_end(srcs[i], true, i);
    for (std::size_t i = 0; i < dsts.size(); ++i) check_end(dsts[i], false, i);
    const bool join = srcs.size() > 1;
    const bool distribute = dsts.size() > 1;
    const auto kind = join ? detail::LinkState::Kind::Join
                      : distribute ? detail::LinkState::Kind::Split
                                   : detail::LinkState::Kind::Forward;
    const char* what = join ? "join" : distribute ? "split" : "forward";
    const auto& subs = join ? srcs : dsts;
    const ObjectFifoHandle& parent = join ? dsts[0] : srcs[0];
    std::vector<std::int64_t> offsets = join ? src_offsets : dst_offsets;
    if (kind == detail::LinkState::Kind::Forward) {
        // ObjectFifoLinkOp::verify (AIEDialect.cpp:905-908): a 1-to-1 link takes no offsets on both sides.
        if (!src_offsets.empty() && !dst_offsets.empty())
            throw DesignError(fmt::format("ObjectFifoLink of fifo '{}': all offsets should be empty if there is no "
                                          "join or distribute",
                                          parent.name()));
        for (auto o : src_offsets.empty() ? dst_offsets : src_offsets)
            if (o != 0)
                throw DesignError(fmt::format("ObjectFifoLink of fifo '{}': a 1-to-1 link moves whole objects and "
                                              "ignores offsets: offset {} must be 0",
                                              parent.name(), o));
        offsets = {0};
    } else if (offsets.size() != subs.size()) {
        // ObjectFifoLinkOp::verify (AIEDialect.cpp:842-844, 867-869).
        throw DesignError(fmt::format("ObjectFifoLink of fifo '{}': number of provided {} offsets must be equal to "
                                      "the number of {} objectFifos",
                                      parent.name(), join ? "src" : "dst", join ? "input" : "output"));
    }
    std::vector<TensorType> types;
    std::vector<std::string> names;
    std::vector<std::optional<int>> repeats;
    for (const auto& h : subs) {
        types.push_back(h.obj_type());
        names.push_back(h.name());
        repeats.push_back(h.fifo_state()->repeat_count);
    }
    check_link_segments(*parent.fifo_state(), *parent.endpoint(), kind, what, offsets, types, names, repeats);
    auto link = std::make_shared<detail::LinkState>();
    link->kind = kind;
    link->tile = tile;
    link->offsets = offsets;
    for (const auto& h : srcs) attach_input(link, h.fifo_state().get(), h.endpoint());
    for (const auto& h : dsts) attach_output(link, h.fifo_state(), h.endpoint());
}

} // namespace npusim::iron

#include "npusim/frontend/ObjectFifo.hpp"

#include "npusim/frontend/Runtime.hpp"
#include "npusim/model/CoreServices.hpp"
#include "npusim/model/Error.hpp"

#include <atomic>
#include <fmt/format.h>

namespace npusim::iron {

namespace detail {
int next_uid() {
    static std::atomic<int> uid{1};
    return uid++;
}

std::string EndpointState::describe() const {
    if (role == Role::Producer) return fmt::format("fifo '{}' producer", fifo->name);
    return fmt::format("fifo '{}' consumer {}", fifo->name, index);
}
} // namespace detail

std::string Tile::str() const {
    if (pinned()) return fmt::format("Tile({},{})", *col, *row);
    if (kind) return fmt::format("Any{}Tile", *kind == TileKind::Compute ? "Compute" : *kind == TileKind::Mem ? "Mem" : "Shim");
    return "Tile(?)";
}

ObjectFifo::ObjectFifo(TensorType obj_type, std::string name, int depth, FifoOptions opts)
    : state_(std::make_shared<detail::FifoState>()) {
    if (name.empty()) throw DesignError("ObjectFifo: a name is required");
    if (depth < 1) throw DesignError(fmt::format("fifo '{}': depth {} must be >= 1", name, depth));
    if (obj_type.shape.empty() || obj_type.elements() < 1)
        throw DesignError(fmt::format("fifo '{}': object type {} has no elements", name, obj_type.str()));
    state_->name = std::move(name);
    state_->obj_type = std::move(obj_type);
    state_->depth = depth;
    state_->dims_to_stream = std::move(opts.dims_to_stream);
    state_->via_dma = opts.via_dma;
}

ObjectFifoHandle ObjectFifo::prod(std::optional<int> depth, std::optional<Tile> tile) const {
    auto& p = state_->prod;
    if (!p) {
        p = std::make_unique<detail::EndpointState>();
        p->fifo = state_.get();
        p->role = detail::Role::Producer;
        p->uid = detail::next_uid();
        p->tile = AnyShimTile;
    }
    if (depth) {
        if (*depth < 1) throw DesignError(fmt::format("fifo '{}': producer depth {} must be >= 1", name(), *depth));
        if (p->depth && *p->depth != *depth)
            throw DesignError(fmt::format("fifo '{}': producer depth already set to {}", name(), *p->depth));
        p->depth = depth;
    }
    if (tile) {
        if (p->tile.pinned() && tile->pinned() && p->tile.coord() != tile->coord())
            throw DesignError(fmt::format("fifo '{}': producer already pinned to {}", name(), p->tile.str()));
        p->tile = *tile;
    }
    return ObjectFifoHandle(state_, p.get());
}

ObjectFifoHandle ObjectFifo::cons(std::optional<int> depth, std::optional<Tile> tile, StreamDims dims_from_stream) const {
    auto c = std::make_unique<detail::EndpointState>();
    c->fifo = state_.get();
    c->role = detail::Role::Consumer;
    c->index = static_cast<int>(state_->cons.size());
    c->uid = detail::next_uid();
    c->tile = tile ? *tile : AnyShimTile;
    if (depth && *depth < 1) throw DesignError(fmt::format("fifo '{}': consumer depth {} must be >= 1", name(), *depth));
    c->depth = depth;
    c->dims_from_stream = std::move(dims_from_stream);
    auto* raw = c.get();
    state_->cons.push_back(std::move(c));
    return ObjectFifoHandle(state_, raw);
}

const std::string& ObjectFifoHandle::name() const { return fifo_->name; }
const TensorType& ObjectFifoHandle::obj_type() const { return fifo_->obj_type; }
int ObjectFifoHandle::depth() const { return ep_->depth.value_or(fifo_->depth); }
bool ObjectFifoHandle::is_producer() const { return ep_->role == detail::Role::Producer; }

ElementGroup ObjectFifoHandle::acquire(int n) const {
    auto* svc = model::CoreServices::current();
    if (!svc) throw DesignError(fmt::format("{}: acquire() called outside a worker body", ep_->describe()));
    if (n < 1) throw DesignError(fmt::format("worker '{}': acquire({}) on {}: the count must be >= 1", svc->worker(), n, ep_->describe()));
    auto ptrs = svc->acquire(ep_->uid, n);
    ElementGroup g;
    for (auto* p : ptrs) g.push_back(Element(p, &fifo_->obj_type, &fifo_->name));
    return g;
}

void ObjectFifoHandle::release(int n) const {
    auto* svc = model::CoreServices::current();
    if (!svc) throw DesignError(fmt::format("{}: release() called outside a worker body", ep_->describe()));
    if (n < 1) throw DesignError(fmt::format("worker '{}': release({}) on {}: the count must be >= 1", svc->worker(), n, ep_->describe()));
    svc->release(ep_->uid, n);
}

ObjectFifo ObjectFifoHandle::forward(Tile tile, std::optional<TensorType> obj_type, std::optional<int> depth,
                                     std::string name) const {
    if (ep_->role != detail::Role::Consumer)
        throw DesignError(fmt::format("fifo '{}': forward() is only available on consumer handles", fifo_->name));
    if (ep_->owner != detail::OwnerKind::None)
        throw DesignError(fmt::format("{}: this handle is already used elsewhere; forward() needs a fresh cons() handle",
                                      ep_->describe()));
    if (tile.kind && *tile.kind == TileKind::Shim)
        throw DesignError(fmt::format("fifo '{}': forward() cannot use a shim tile as link tile", fifo_->name));
    auto out = std::make_shared<detail::FifoState>();
    out->name = name.empty() ? fifo_->name + "_fwd" : std::move(name);
    out->obj_type = obj_type ? *obj_type : fifo_->obj_type;
    if (out->obj_type.bytes() != fifo_->obj_type.bytes())
        throw DesignError(fmt::format("fifo '{}': forward() to {} changes the object size ({} B -> {} B); a forward "
                                      "moves whole objects",
                                      fifo_->name, out->obj_type.str(), fifo_->obj_type.bytes(), out->obj_type.bytes()));
    out->depth = depth.value_or(fifo_->depth);
    if (out->depth < 1) throw DesignError(fmt::format("fifo '{}': depth {} must be >= 1", out->name, out->depth));
    auto link = std::make_shared<detail::LinkState>();
    link->tile = tile;
    link->inputs.push_back(fifo_.get());
    link->outputs.push_back(out);
    ep_->owner = detail::OwnerKind::Link;
    ep_->link = link.get();
    ObjectFifo result(out);
    auto prod = result.prod();
    prod.endpoint()->owner = detail::OwnerKind::Link;
    prod.endpoint()->link = link.get();
    out->link_to_prod = link.get();
    fifo_->link_from_cons = link;
    return result;
}

Task ObjectFifoHandle::fill(const RuntimeData& src, TransferOptions opts) const { return transfer(src, std::move(opts), true); }
Task ObjectFifoHandle::drain(const RuntimeData& dst, TransferOptions opts) const { return transfer(dst, std::move(opts), false); }

Task ObjectFifoHandle::transfer(const RuntimeData& data, TransferOptions opts, bool fill) const {
    const char* what = fill ? "fill" : "drain";
    auto* rec = detail::SequenceRecorder::current();
    if (!rec) throw DesignError(fmt::format("fifo '{}': {}() called outside the runtime sequence", fifo_->name, what));
    if (fill && ep_->role != detail::Role::Producer)
        throw DesignError(fmt::format("fifo '{}': fill() needs the producer handle (prod()), got a consumer handle", fifo_->name));
    if (!fill && ep_->role != detail::Role::Consumer)
        throw DesignError(fmt::format("fifo '{}': drain() needs a consumer handle (cons()), got the producer handle", fifo_->name));
    if (ep_->owner != detail::OwnerKind::Runtime)
        throw DesignError(fmt::format("{}: {}() on a handle that is not among the Runtime's fn_args", ep_->describe(), what));
    if (data.index < 0 || data.index >= static_cast<int>(rec->tensors.size()))
        throw DesignError(fmt::format("fifo '{}': {}() with a tensor that is not a runtime argument", fifo_->name, what));
    const bool raw = opts.sizes || opts.strides || opts.offset || opts.transfer_len;
    if (opts.tap && raw)
        throw DesignError(fmt::format("fifo '{}': {}() takes either tap= or sizes=/strides=/offset=/transfer_len=, not both",
                                      fifo_->name, what));
    if (!opts.managed && opts.group)
        throw DesignError(fmt::format("fifo '{}': {}() with managed=false cannot also name a group", fifo_->name, what));
    const auto& tt = rec->tensors[static_cast<std::size_t>(data.index)];
    TensorAccessPattern tap;
    if (opts.tap) {
        tap = *opts.tap;
    } else if (raw) {
        if (opts.transfer_len && (opts.sizes || opts.strides))
            throw DesignError(fmt::format("fifo '{}': {}() transfer_len= excludes sizes=/strides=", fifo_->name, what));
        const std::int64_t off = opts.offset.value_or(0);
        if (opts.transfer_len) {
            tap = TensorAccessPattern(tt.shape, off, {*opts.transfer_len}, {1});
        } else {
            if (!opts.sizes || !opts.strides)
                throw DesignError(fmt::format("fifo '{}': {}() needs both sizes= and strides=", fifo_->name, what));
            tap = TensorAccessPattern(tt.shape, off, *opts.sizes, *opts.strides);
        }
    } else {
        tap = TensorAccessPattern::linear(tt.shape);
    }
    if (tap.min_index() < 0 || tap.max_index() >= tt.elements())
        throw DesignError(fmt::format("{} of fifo '{}' with runtime argument {} ({}): access pattern {} reaches elements "
                                      "{}..{}, outside the tensor's {} elements",
                                      what, fifo_->name, data.index, tt.str(), tap.str(), tap.min_index(), tap.max_index(),
                                      tt.elements()));
    detail::RecordedTransfer t;
    t.endpoint = ep_;
    t.tensor = data.index;
    t.tap = tap;
    t.fill = fill;
    t.wait = opts.wait;
    t.managed = opts.managed;
    if (opts.managed) {
        if (opts.group) {
            rec->used_explicit = true;
            t.group = opts.group->id();
            bool open = false;
            for (int g : rec->open_groups) open |= g == t.group;
            if (!open) throw DesignError(fmt::format("fifo '{}': {}() into a TaskGroup that is already finished", fifo_->name, what));
        } else {
            rec->used_default = true;
            t.group = 0;
        }
    }
    rec->transfers.push_back(t);
    const int idx = static_cast<int>(rec->transfers.size()) - 1;
    rec->ops.push_back({detail::RecordedOp::Kind::Start, idx});
    return Task(idx);
}

} // namespace npusim::iron

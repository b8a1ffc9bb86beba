#include "npusim/frontend/ObjectFifo.hpp"

#include "FifoState.hpp"
#include "npusim/frontend/Runtime.hpp"
#include "npusim/model/CoreServices.hpp"
#include "npusim/model/Error.hpp"
#include "resolve/DepthRule.hpp"

#include <algorithm>
#include <atomic>
#include <fmt/format.h>

namespace npusim::iron {

namespace detail {
int next_uid() {
    static std::atomic<int> uid{1};
    return uid++;
}

std::string next_fifo_name() {
    static std::atomic<int> index{0};
    return fmt::format("of{}", index++);
}

std::string EndpointState::describe() const {
    if (role == Role::Producer) return fmt::format("fifo '{}' producer", fifo->name);
    return fmt::format("fifo '{}' consumer {}", fifo->name, index);
}
} // namespace detail

const std::string& ObjectFifo::name() const { return state_->name; }
const TensorType& ObjectFifo::obj_type() const { return state_->obj_type; }
int ObjectFifo::depth() const { return state_->depth; }

void detail::require_handle(const detail::EndpointState* ep, const char* what) {
    if (!ep)
        throw DesignError(fmt::format("ObjectFifoHandle::{}() on an empty handle (default-constructed); get handles "
                                      "from a fifo's prod() or cons()",
                                      what));
}

ObjectFifo::ObjectFifo(TensorType obj_type, int depth, FifoOptions opts)
    : ObjectFifo(std::move(obj_type), detail::next_fifo_name(), depth, std::move(opts)) {}

ObjectFifo::ObjectFifo(TensorType obj_type, FifoOptions opts)
    : ObjectFifo(std::move(obj_type), detail::next_fifo_name(), 2, std::move(opts)) {}

ObjectFifo::ObjectFifo(TensorType obj_type, std::string name, int depth, FifoOptions opts)
    : state_(std::make_shared<detail::FifoState>()) {
    if (name.empty())
        throw DesignError("ObjectFifo: the name is empty; give a name or none (IRON then generates of0, of1, ...)");
    if (depth < 1) throw DesignError(fmt::format("fifo '{}': depth {} must be >= 1", name, depth));
    if (obj_type.shape.empty() || obj_type.elements() < 1)
        throw DesignError(fmt::format("fifo '{}': object type {} has no elements", name, obj_type.str()));
    state_->name = std::move(name);
    state_->obj_type = std::move(obj_type);
    state_->depth = depth;
    if (!opts.dims_to_stream.empty() && !opts.to_stream.empty())
        throw DesignError(fmt::format("fifo '{}': give dims_to_stream or to_stream, not both", state_->name));
    state_->dims_to_stream = opts.to_stream.empty() ? std::move(opts.dims_to_stream) : std::move(opts.to_stream);
    state_->via_dma = opts.via_dma;
    if (opts.repeat_count && *opts.repeat_count < 1)
        throw DesignError(fmt::format("fifo '{}': repeat_count {} must be >= 1", state_->name, *opts.repeat_count));
    state_->repeat_count = opts.repeat_count;
    // The count of init_values is checked at resolve against the producer's depth (prod() may
    // still change it): resolve/FifoVerifier.cpp.
    for (std::size_t i = 0; i < opts.init_values.size(); ++i)
        if (opts.init_values[i].size() != state_->obj_type.bytes())
            throw DesignError(fmt::format("fifo '{}': init_values[{}] has {} B, the object type {} has {} B",
                                          state_->name, i, opts.init_values[i].size(), state_->obj_type.str(),
                                          state_->obj_type.bytes()));
    state_->init_values = std::move(opts.init_values);
    if (opts.consumer_obj_type) {
        const auto& c = *opts.consumer_obj_type;
        if (c.dtype != state_->obj_type.dtype || c.elements() < 1 || state_->obj_type.elements() % c.elements() != 0)
            throw DesignError(
                fmt::format("fifo '{}': consumer_obj_type {} must have the element type of {} and divide its "
                            "element count",
                            state_->name, c.str(), state_->obj_type.str()));
        state_->consumer_obj_type = c;
    }
    state_->pad_dimensions = std::move(opts.pad_dimensions);
    state_->pad_value = opts.pad_value;
    state_->disable_synchronization = opts.disable_synchronization;
    state_->delegate_tile = std::move(opts.delegate_tile);
}

void ObjectFifo::set_iter_count(int n) const {
    if (n < 1 || n > 256)
        throw DesignError(fmt::format("fifo '{}': set_iter_count({}) must be within 1..256", name(), n));
    state_->iter_count = n;
}

ObjectFifoHandle ObjectFifo::prod(std::optional<int> depth, std::optional<Tile> tile) const {
    return prod(ProdOptions{.depth = depth, .tile = std::move(tile)});
}

namespace {
void check_channel(const std::string& fifo, const char* end, std::optional<int> channel) {
    if (channel && *channel < 0)
        throw DesignError(fmt::format("fifo '{}': {} DMA channel {} must be >= 0", fifo, end, *channel));
}

// Port::dma(n) is the channel pin; a different `.channel` next to it is ambiguous.
std::optional<int> channel_of(const std::string& fifo, const char* end, std::optional<int> channel,
                              const std::optional<Port>& port) {
    if (!port || port->kind != Port::Kind::Dma) return channel;
    if (channel && *channel != port->index)
        throw DesignError(fmt::format("fifo '{}': {} given channel {} and Port::dma({}); give one", fifo, end, *channel,
                                      port->index));
    return port->index;
}

std::optional<int> stream_port_of(const std::optional<Port>& port) {
    if (port && port->kind == Port::Kind::Stream) return port->index;
    return std::nullopt;
}
} // namespace

ObjectFifoHandle ObjectFifo::prod(ProdOptions opts) const {
    auto depth = opts.depth;
    auto& tile = opts.tile;
    opts.channel = channel_of(name(), "producer", opts.channel, opts.port);
    check_channel(name(), "producer", opts.channel);
    auto& p = state_->prod;
    const bool existed = p != nullptr;
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
    if (opts.channel) {
        // IRON ObjectFifo.prod(): "Producer handle for {name} already pinned to channel {c}, cannot
        // re-pin to {channel}." (python/iron/dataflow/objectfifo.py)
        // A handle made without a pin cannot be pinned later (None != channel upstream).
        if (existed && p->channel != opts.channel)
            throw DesignError(fmt::format("fifo '{}': producer already pinned to DMA channel {}, cannot re-pin to {}",
                                          name(), p->channel ? std::to_string(*p->channel) : "None", *opts.channel));
        p->channel = opts.channel;
    }
    if (const auto sp = stream_port_of(opts.port)) {
        if (p->stream_port && *p->stream_port != *sp)
            throw DesignError(fmt::format("fifo '{}': producer already on stream port {}, cannot move to {}", name(),
                                          *p->stream_port, *sp));
        p->stream_port = sp;
    }
    return ObjectFifoHandle(state_, p.get());
}

ObjectFifoHandle ObjectFifo::cons(std::optional<int> depth, std::optional<Tile> tile,
                                  StreamDims dims_from_stream) const {
    return cons(ConsOptions{.depth = depth, .dims_from_stream = std::move(dims_from_stream), .tile = std::move(tile)});
}

ObjectFifoHandle ObjectFifo::cons(ConsOptions opts) const {
    const auto depth = opts.depth;
    const auto& tile = opts.tile;
    auto& dims_from_stream = opts.dims_from_stream;
    opts.channel = channel_of(name(), "consumer", opts.channel, opts.port);
    check_channel(name(), "consumer", opts.channel);
    auto c = std::make_unique<detail::EndpointState>();
    c->fifo = state_.get();
    c->role = detail::Role::Consumer;
    c->index = static_cast<int>(state_->cons.size());
    c->uid = detail::next_uid();
    c->tile = tile ? *tile : AnyShimTile;
    if (depth && *depth < 1)
        throw DesignError(fmt::format("fifo '{}': consumer depth {} must be >= 1", name(), *depth));
    c->depth = depth;
    // IRON cons(): no dims given -> the fifo's dims_from_stream_per_cons (set by split/forward).
    c->dims_from_stream = dims_from_stream.empty() ? state_->default_dims_from_stream : std::move(dims_from_stream);
    c->channel = opts.channel;
    c->stream_port = stream_port_of(opts.port);
    auto* raw = c.get();
    state_->cons.push_back(std::move(c));
    return ObjectFifoHandle(state_, raw);
}

void ObjectFifoHandle::set_endpoint(Tile tile) const {
    detail::require_handle(ep_, "set_endpoint");
    if (ep_->role != detail::Role::Producer)
        throw DesignError(fmt::format("{}: set_endpoint() on a consumer handle; a mem-tile endpoint produces the "
                                      "fifo's init_values",
                                      ep_->describe()));
    const bool mem =
        tile.pinned() ? model::tile_kind_of_row(*tile.row) == TileKind::Mem : tile.kind && *tile.kind == TileKind::Mem;
    if (!mem)
        throw DesignError(fmt::format("{}: set_endpoint({}) needs a mem tile (AnyMemTile or a tile on the mem-tile "
                                      "row)",
                                      ep_->describe(), tile.str()));
    if (ep_->owner != detail::OwnerKind::None && ep_->owner != detail::OwnerKind::MemTile)
        throw DesignError(fmt::format("{}: set_endpoint() on a handle already used by a worker, the Runtime or a link",
                                      ep_->describe()));
    ep_->owner = detail::OwnerKind::MemTile;
    ep_->tile = tile;
}

const std::string& ObjectFifoHandle::name() const {
    detail::require_handle(ep_, "name");
    return fifo_->name;
}
const TensorType& ObjectFifoHandle::obj_type() const {
    detail::require_handle(ep_, "obj_type");
    return fifo_->obj_type;
}
int ObjectFifoHandle::depth() const {
    detail::require_handle(ep_, "depth");
    return detail::declared_depth(*ep_);
}
bool ObjectFifoHandle::is_producer() const {
    detail::require_handle(ep_, "is_producer");
    return ep_->role == detail::Role::Producer;
}

ElementGroup ObjectFifoHandle::acquire(int n) const {
    detail::require_handle(ep_, "acquire");
    auto* svc = model::CoreServices::current();
    if (!svc) throw DesignError(fmt::format("{}: acquire() called outside a worker body", ep_->describe()));
    if (n < 1)
        throw DesignError(
            fmt::format("worker '{}': acquire({}) on {}: the count must be >= 1", svc->worker(), n, ep_->describe()));
    // AIEObjectFifoStatefulTransform.cpp (acquire/release lowering, l.2016): "cannot acquire from
    // objectfifo stream port" (test/objectFifo-stateful-transform/aie_stream/bad_acquire.mlir).
    if (ep_->stream_port)
        throw DesignError(fmt::format("worker '{}': acquire({}) on {}: 'aie.objectfifo.acquire' op cannot acquire from "
                                      "objectfifo stream port (this end is Port::stream({}); its kernel moves words "
                                      "with put_ms / get_ss)",
                                      svc->worker(), n, ep_->describe(), *ep_->stream_port));
    auto ptrs = svc->acquire(ep_->uid, n);
    const TensorType* type =
        ep_->role == detail::Role::Consumer && fifo_->consumer_obj_type ? &*fifo_->consumer_obj_type : &fifo_->obj_type;
    ElementGroup g;
    for (auto* p : ptrs) g.push_back(Element(p, type, &fifo_->name));
    return g;
}

void ObjectFifoHandle::release(int n) const {
    detail::require_handle(ep_, "release");
    auto* svc = model::CoreServices::current();
    if (!svc) throw DesignError(fmt::format("{}: release() called outside a worker body", ep_->describe()));
    if (n < 1)
        throw DesignError(
            fmt::format("worker '{}': release({}) on {}: the count must be >= 1", svc->worker(), n, ep_->describe()));
    // AIEObjectFifoStatefulTransform.cpp (l.2016): "cannot release from objectfifo stream port"
    // (test/objectFifo-stateful-transform/aie_stream/bad_release.mlir).
    if (ep_->stream_port)
        throw DesignError(fmt::format("worker '{}': release({}) on {}: 'aie.objectfifo.release' op cannot release from "
                                      "objectfifo stream port (this end is Port::stream({}); its kernel moves words "
                                      "with put_ms / get_ss)",
                                      svc->worker(), n, ep_->describe(), *ep_->stream_port));
    svc->release(ep_->uid, n);
}

Task ObjectFifoHandle::fill(const RuntimeData& src, TransferOptions opts) const {
    return transfer(src, std::move(opts), true);
}
Task ObjectFifoHandle::drain(const RuntimeData& dst, TransferOptions opts) const {
    return transfer(dst, std::move(opts), false);
}

Task ObjectFifoHandle::transfer(const RuntimeData& data, TransferOptions opts, bool fill) const {
    const char* what = fill ? "fill" : "drain";
    detail::require_handle(ep_, what);
    auto* rec = detail::SequenceRecorder::current();
    if (!rec) throw DesignError(fmt::format("fifo '{}': {}() called outside the runtime sequence", fifo_->name, what));
    if (fill && ep_->role != detail::Role::Producer)
        throw DesignError(
            fmt::format("fifo '{}': fill() needs the producer handle (prod()), got a consumer handle", fifo_->name));
    if (!fill && ep_->role != detail::Role::Consumer)
        throw DesignError(
            fmt::format("fifo '{}': drain() needs a consumer handle (cons()), got the producer handle", fifo_->name));
    if (ep_->owner != detail::OwnerKind::Runtime)
        throw DesignError(
            fmt::format("{}: {}() on a handle that is not among the Runtime's fn_args", ep_->describe(), what));
    if (data.index < 0 || data.index >= static_cast<int>(rec->tensors.size()))
        throw DesignError(
            fmt::format("fifo '{}': {}() with a tensor that is not a runtime argument", fifo_->name, what));
    const bool raw = opts.sizes || opts.strides || opts.offset || opts.transfer_len;
    if (opts.tap && raw)
        throw DesignError(fmt::format(
            "fifo '{}': {}() takes either tap= or sizes=/strides=/offset=/transfer_len=, not both", fifo_->name, what));
    if (!opts.managed && opts.group)
        throw DesignError(
            fmt::format("fifo '{}': {}() with managed=false cannot also name a group", fifo_->name, what));
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
        throw DesignError(fmt::format(
            "{} of fifo '{}' with runtime argument {} ({}): access pattern {} reaches elements "
            "{}..{}, outside the tensor's {} elements",
            what, fifo_->name, data.index, tt.str(), tap.str(), tap.min_index(), tap.max_index(), tt.elements()));
    detail::RecordedTransfer t;
    t.endpoint = ep_;
    t.tensor = data.index;
    t.tap = tap;
    t.fill = fill;
    t.wait = opts.wait;
    if (opts.offset_parameter) t.offset_param = opts.offset_parameter->state();
    t.managed = opts.managed;
    if (opts.managed) {
        if (opts.group) {
            rec->used_explicit = true;
            t.group = opts.group->id();
            bool open = false;
            for (int g : rec->open_groups) open |= g == t.group;
            if (!open)
                throw DesignError(
                    fmt::format("fifo '{}': {}() into a TaskGroup that is already finished", fifo_->name, what));
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

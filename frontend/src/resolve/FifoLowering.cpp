#include "resolve/FifoLowering.hpp"

#include "resolve/BdEncoding.hpp"
#include "resolve/ChannelPins.hpp"
#include "resolve/FifoVerifier.hpp"
#include "resolve/Placement.hpp"
#include "resolve/RingBuilder.hpp"
#include "resolve/SharedPoolRules.hpp"
#include "resolve/StaticChecks.hpp"
#include "resolve/StreamPorts.hpp"

#include <fmt/format.h>
#include <optional>

namespace npusim::iron::detail {

using model::Direction;
using model::TileCoord;

namespace {

std::vector<EndpointState*> used_consumers(FifoState* f) {
    std::vector<EndpointState*> c;
    for (auto& ep : f->cons)
        if (ep->owner != OwnerKind::None) c.push_back(ep.get());
    return c;
}

// One producer core and one consumer core that share memory, no DMA asked for, nothing a DMA
// would have to do (layouts, another consumer type, a repeat_count - any set value, even 1, as
// AIEObjectFifoStatefulTransform requiresDMAs): the tile whose memory both reach.
bool shared_pool_tile(ResolveContext& ctx, FifoState* f, EndpointState* P, const std::vector<EndpointState*>& C,
                      TileCoord tp, TileCoord& pool) {
    if (!(C.size() == 1 && P->owner == OwnerKind::Worker && C[0]->owner == OwnerKind::Worker && !f->via_dma &&
          f->dims_to_stream.empty() && C[0]->dims_from_stream.empty() && !f->repeat_count && !f->consumer_obj_type &&
          !has_stream_port(*f)))
        return false;
    const TileCoord tc = ctx.worker_tile.at(C[0]->worker);
    // aie.objectfifo.allocate: both cores must reach the delegate (checked first, as
    // createObjectFifoElements does whether or not the fifo then needs DMA).
    const auto delegate = f->delegate_tile ? std::optional(delegate_pool_tile(*f, ctx.dev, tp, tc)) : std::nullopt;
    if (tp != tc && !ctx.dev.shares_memory(tp, tc, pool)) return false;
    pool = delegate ? *delegate : tp == tc ? tp : pool;
    return true;
}

void lower_shared_pool(ResolveContext& ctx, FifoState* f, EndpointState* P, EndpointState* C, TileCoord pool) {
    const int depth = ctx.endpoint_depth(*P, pool, BufferHolding::SharedPool, model::FifoEndHolding::SharedPool);
    ctx.record_bufferless_end(*C, pool, model::FifoEndHolding::SharesProducerPool, P);
    // Without locks no acquire waits, so the hang checks do not apply (an acquire beyond the pool
    // wraps around its buffers, as the toolchain's rotating index does).
    if (!f->disable_synchronization) check_shared_pool_acquires(ctx, *f, depth);
    const int inits = static_cast<int>(f->init_values.size());
    RingBuilder rb(ctx.ledger, ctx.net);
    const auto bytes = static_cast<std::uint32_t>(f->obj_type.bytes());
    // disable_synchronization: the same buffers and no lock pair (lock -1 in both rings).
    const Ring r = f->disable_synchronization
                       ? Ring{rb.buffers(pool, f->name, depth, bytes, f->name, "shared pool", f->init_values), {}}
                       : rb.ring(pool, f->name, depth, bytes, initial_lock_values(depth, inits, 1), f->name,
                                 "shared pool", f->init_values);
    ctx.core_of(P->worker).rings.push_back({P->uid, r.buffers, r.locks.prod, r.locks.cons, 1, {f->name, "producer"}});
    ctx.core_of(C->worker).rings.push_back({C->uid, r.buffers, r.locks.cons, r.locks.prod, 1, {f->name, "consumer"}});
}

// A worker producer: its own ring, and an MM2S channel sending each full buffer. A mem-tile
// producer endpoint (set_endpoint) is the same without a core: its buffers hold the init_values,
// its lock pair starts full (cons = #init x R), and the MM2S chain sends each object R times (one
// BD with a hardware repeat of R-1 at depth 1, else each BD R times) and then waits on a lock
// nobody releases, as AIEObjectFifoStatefulTransform createMemTileDMA lowers an unlinked
// mem-tile producer (test/objectFifo-stateful-transform/init_values/init_values_repeat_test.mlir).
model::StreamEndpoint lower_producer_copy(ResolveContext& ctx, FifoState* f, EndpointState* P, TileCoord tp,
                                          const std::string& who) {
    const int depth = ctx.endpoint_depth(*P, tp, BufferHolding::OwnCopy, model::FifoEndHolding::OwnCopy);
    const int R = f->repeats();
    const auto bytes = static_cast<std::uint32_t>(f->obj_type.bytes());
    RingBuilder rb(ctx.ledger, ctx.net);
    const Ring r =
        rb.ring(tp, f->name, depth, bytes, initial_lock_values(depth, static_cast<int>(f->init_values.size()), R),
                f->name, "producer", f->init_values);
    if (P->owner == OwnerKind::Worker)
        ctx.core_of(P->worker).rings.push_back(
            {P->uid, r.buffers, r.locks.prod, r.locks.cons, R, {f->name, "producer"}});
    model::DmaChannelProgram ch;
    ch.tile = tp;
    ch.dir = Direction::MM2S;
    ch.channel = ctx.ledger.alloc_channel(tp, Direction::MM2S, who, P->channel);
    ch.prov = {f->name, "producer MM2S"};
    const auto dims = to_words(f->dims_to_stream, f->obj_type, ctx.dev.resources(tp), ctx.dev.kind_at(tp),
                               fmt::format("fifo '{}' dims_to_stream", f->name));
    ch.bds = circular_chain(r.buffers, {{0, bytes, r.locks.cons, r.locks.prod}}, dims, f->name, "producer MM2S");
    check_layout_fits_object(dims, bytes, f->name, "producer MM2S");
    repeat_chain(ch.bds, R);
    const model::StreamEndpoint source{tp, Direction::MM2S, ch.channel};
    ctx.ledger.add_channel(std::move(ch), who);
    return source;
}

// A worker consumer: its own ring (sized by consumer_obj_type when given), and an S2MM channel
// filling each free buffer.
model::StreamEndpoint lower_consumer_copy(ResolveContext& ctx, FifoState* f, EndpointState* ep, TileCoord tc,
                                          const std::string& cname, const std::string& who) {
    const int depth = ctx.endpoint_depth(*ep, tc, BufferHolding::OwnCopy, model::FifoEndHolding::OwnCopy);
    const TensorType& ctype = f->consumer_obj_type ? *f->consumer_obj_type : f->obj_type;
    const auto cbytes = static_cast<std::uint32_t>(ctype.bytes());
    RingBuilder rb(ctx.ledger, ctx.net);
    const Ring r = rb.ring(tc, cname, depth, cbytes, initial_lock_values(depth, 0, 1), f->name, "consumer copy");
    ctx.core_of(ep->worker)
        .rings.push_back(
            {ep->uid, r.buffers, r.locks.cons, r.locks.prod, 1, {f->name, fmt::format("consumer {}", ep->index)}});
    model::DmaChannelProgram ch;
    ch.tile = tc;
    ch.dir = Direction::S2MM;
    ch.channel = ctx.ledger.alloc_channel(tc, Direction::S2MM, who, ep->channel);
    ch.prov = {f->name, "consumer S2MM"};
    const auto dims = to_words(ep->dims_from_stream, ctype, ctx.dev.resources(tc), ctx.dev.kind_at(tc),
                               fmt::format("fifo '{}' dims_from_stream", f->name));
    ch.bds = circular_chain(r.buffers, {{0, cbytes, r.locks.prod, r.locks.cons}}, dims, f->name, "consumer S2MM");
    check_layout_fits_object(dims, cbytes, f->name, "consumer S2MM");
    const model::StreamEndpoint dest{tc, Direction::S2MM, ch.channel};
    ctx.ledger.add_channel(std::move(ch), who);
    return dest;
}

// A runtime or link endpoint: only a channel (the runtime's tasks or the link's chain use it).
model::StreamEndpoint channel_only_endpoint(ResolveContext& ctx, FifoState* f, EndpointState* ep, TileCoord t,
                                            Direction d, const std::string& who) {
    const model::StreamEndpoint se{t, d, ctx.ledger.alloc_channel(t, d, who, ep->channel)};
    if (ep->owner == OwnerKind::Runtime) {
        ctx.shim_alloc[ep->uid] = se;
        ctx.record_bufferless_end(*ep, t, model::FifoEndHolding::Runtime, nullptr);
    } else {
        auto& plan = ctx.plan_of(ep->link);
        (d == Direction::MM2S ? plan.mm2s_of : plan.s2mm_of)[f] = se.channel;
    }
    return se;
}

model::StreamEndpoint lower_producer(ResolveContext& ctx, FifoState* f, EndpointState* P, TileCoord tp) {
    const std::string who = channel_owner(*P);
    if (P->owner == OwnerKind::Worker || P->owner == OwnerKind::MemTile) return lower_producer_copy(ctx, f, P, tp, who);
    return channel_only_endpoint(ctx, f, P, tp, Direction::MM2S, who);
}

model::StreamEndpoint lower_consumer(ResolveContext& ctx, FifoState* f, EndpointState* ep, std::size_t consumers,
                                     TileCoord tp) {
    const std::string cname = consumers == 1 ? f->name + "_cons" : fmt::format("{}_{}_cons", f->name, ep->index);
    const TileCoord tc = endpoint_tile(ctx, ep, Direction::S2MM, tp.col);
    const std::string who = channel_owner(*ep);
    if (ep->owner == OwnerKind::Worker) return lower_consumer_copy(ctx, f, ep, tc, cname, who);
    return channel_only_endpoint(ctx, f, ep, tc, Direction::S2MM, who);
}

} // namespace

bool lowers_to_shared_pool(ResolveContext& ctx, FifoState* f) {
    EndpointState* P = f->prod.get();
    if (!P || P->owner != OwnerKind::Worker) return false;
    TileCoord pool{};
    return shared_pool_tile(ctx, f, P, used_consumers(f), ctx.worker_tile.at(P->worker), pool);
}

void lower_fifo(ResolveContext& ctx, FifoState* f) {
    EndpointState* P = f->prod.get();
    const auto C = used_consumers(f);
    const TileCoord tp = endpoint_tile(ctx, P, Direction::MM2S, preferred_column(ctx, f, P));
    TileCoord pool{};
    if (shared_pool_tile(ctx, f, P, C, tp, pool)) {
        lower_shared_pool(ctx, f, P, C[0], pool);
        return;
    }
    check_dma_fifo_options(*f);
    check_dma_object_size(*f);
    model::Flow flow;
    flow.prov = {f->name, "stream"};
    // A stream-port end (aie_stream) is its core's Core:n port, lowered without buffers or channel
    // (AIEObjectFifoStatefulTransform createObjectFifoElements returns early for aie_stream).
    const int index = static_cast<int>(ctx.net.flows.size());
    flow.from_core = P->stream_port.has_value();
    flow.source = flow.from_core ? lower_stream_producer(ctx, f, P, tp, index) : lower_producer(ctx, f, P, tp);
    for (auto* ep : C) {
        flow.to_core = flow.to_core || ep->stream_port;
        flow.dests.push_back(ep->stream_port ? lower_stream_consumer(ctx, f, ep, index)
                                             : lower_consumer(ctx, f, ep, C.size(), tp));
    }
    ctx.net.flows.push_back(std::move(flow));
}

} // namespace npusim::iron::detail

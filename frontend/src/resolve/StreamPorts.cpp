#include "resolve/StreamPorts.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron::detail {

namespace {

// Core stream ports of an AIE2 / AIE2P compute tile: one master (Core as a switchbox source) and
// one slave (AIE2TargetModel::getNumSourceSwitchboxConnections / getNumDestSwitchboxConnections,
// lib/Dialect/AIE/IR/AIETargetModel.cpp: `case WireBundle::Core: return 1;`). A flow on a port
// beyond them is not a legal connection (isLegalTileConnection: "Check Channel Id within the range").
constexpr int kCorePorts = 1;

bool on_mem_tile(const Tile& t) {
    return t.pinned() ? model::tile_kind_of_row(*t.row) == TileKind::Mem : t.kind && *t.kind == TileKind::Mem;
}

// The aie_stream end value upstream stamps: 0 producer, 1 consumer, 2 both.
const char* end_word(const FifoState& f) {
    const bool p = f.prod && f.prod->stream_port;
    bool c = false;
    for (const auto& e : f.cons) c = c || e->stream_port;
    return p && c ? "both ends" : p ? "producer" : "consumer";
}

// ObjectFifoCreateOp::verify: "`aie_stream` is not available for shim and mem tiles". A runtime
// end is a shim tile, a mem-tile endpoint and a link on a mem tile are mem tiles.
void check_end_tile(const FifoState& f, const EndpointState& ep) {
    const bool shim_or_mem = ep.owner == OwnerKind::Runtime || ep.owner == OwnerKind::MemTile ||
                             (ep.owner == OwnerKind::Link && ep.link && on_mem_tile(ep.link->tile));
    if (shim_or_mem)
        throw DesignError(fmt::format("fifo '{}': `aie_stream` is not available for shim and mem tiles ({} is "
                                      "Port::stream({}) but is {})",
                                      f.name, ep.describe(), *ep.stream_port,
                                      ep.owner == OwnerKind::Runtime ? "filled or drained by the runtime sequence"
                                                                     : "on a mem tile"));
    if (ep.owner == OwnerKind::Link)
        throw DesignError(fmt::format("fifo '{}': {} is Port::stream({}) but belongs to a link on a compute tile; "
                                      "npusim lowers a link's ends only as DMA channels",
                                      f.name, ep.describe(), *ep.stream_port));
}

} // namespace

bool has_stream_port(const FifoState& f) {
    if (f.prod && f.prod->stream_port) return true;
    for (const auto& c : f.cons)
        if (c->stream_port) return true;
    return false;
}

// In the order ObjectFifoCreateOp::verify checks them (AIEDialect.cpp, `if (auto aieStream =
// getAieStream())`), then reservePinnedChannels' pin rule.
void verify_stream_ports(const FifoState& f) {
    if (!has_stream_port(f)) return;
    if (f.cons.size() > 1)
        throw DesignError(fmt::format("fifo '{}': `aie_stream` can only be used in 1-to-1 object FIFOs (its {} is "
                                      "a stream port and it has {} consumers)",
                                      f.name, end_word(f), f.cons.size()));
    // One (end, port) attribute per fifo upstream: both ends share the port number.
    if (f.prod && f.prod->stream_port && !f.cons.empty() && f.cons[0]->stream_port &&
        *f.prod->stream_port != *f.cons[0]->stream_port)
        throw DesignError(fmt::format("fifo '{}': both ends are stream ports but on ports {} and {}; upstream's "
                                      "aie_stream=(2, port) gives both ends one `aie_stream_port`",
                                      f.name, *f.prod->stream_port, *f.cons[0]->stream_port));
    if (f.prod && f.prod->stream_port) {
        check_end_tile(f, *f.prod);
        auto refuse = [&](const char* what) {
            throw DesignError(
                fmt::format("fifo '{}': {} (its producer is Port::stream({}))", f.name, what, *f.prod->stream_port));
        };
        if (f.repeat_count) refuse("`repeat_count` unavailable on stream end");
        if (!f.init_values.empty()) refuse("`init_values` unavailable on stream end");
        if (f.iter_count) refuse("`iter_count` unavailable on stream end");
        if (!f.dims_to_stream.empty())
            refuse("`dimensionsToStream` data layout transformations are unavailable on stream end");
    }
    for (const auto& c : f.cons)
        if (c->stream_port) check_end_tile(f, *c);
    // Upstream checks the first consumer's dims whichever end is the stream.
    if (!f.cons.empty() && !f.cons[0]->dims_from_stream.empty())
        throw DesignError(fmt::format("fifo '{}': `dimensionsFromStreamPerConsumer` data layout transformations are "
                                      "unavailable on stream end (its {} is a stream port)",
                                      f.name, end_word(f)));
    // reservePinnedChannels (AIEObjectFifoStatefulTransform.cpp): a producer pin on a fifo with any
    // aie_stream end, a consumer pin on a stream consumer.
    const bool cons_stream = !f.cons.empty() && f.cons[0]->stream_port;
    for (const EndpointState* ep : {f.prod.get(), f.cons.empty() ? nullptr : f.cons[0].get()}) {
        if (!ep || !ep->channel) continue;
        if (ep->role == Role::Consumer && !cons_stream) continue;
        throw DesignError(fmt::format("fifo '{}': cannot pin a DMA channel on an objectfifo that also uses "
                                      "aie_stream (stream ports bypass DMA channels) ({} pins DMA channel {}, its {} "
                                      "is a stream port)",
                                      f.name, ep->describe(), *ep->channel, end_word(f)));
    }
    for (const EndpointState* ep : {f.prod.get(), f.cons.empty() ? nullptr : f.cons[0].get()}) {
        if (!ep || !ep->stream_port) continue;
        const int port = *ep->stream_port;
        if (port < 0 || port >= kCorePorts)
            throw DesignError(fmt::format("fifo '{}': {} is Port::stream({}), out of range: a compute tile's core "
                                          "has {} {} stream port (Core 0; AIE2TargetModel "
                                          "getNumSourceSwitchboxConnections / isLegalTileConnection)",
                                          f.name, ep->describe(), port, kCorePorts,
                                          ep->role == Role::Producer ? "output" : "input"));
    }
}

model::StreamEndpoint lower_stream_producer(ResolveContext& ctx, FifoState* f, EndpointState* P, model::TileCoord tp,
                                            int flow) {
    auto& core = ctx.core_of(P->worker);
    // checkAIEStreamIndex: "number of output Core channels exceeded!" (on the aie.tile op).
    if (core.stream_out >= 0)
        throw DesignError(fmt::format("fifo '{}': 'aie.tile' op number of output Core channels exceeded! (tile {}: "
                                      "worker '{}' already sends fifo '{}' on its stream port {})",
                                      f->name, model::to_string(tp), P->worker->name,
                                      ctx.net.flows.at(static_cast<std::size_t>(core.stream_out)).prov.object,
                                      *P->stream_port));
    core.stream_out = flow;
    ctx.record_bufferless_end(*P, tp, model::FifoEndHolding::StreamPort, nullptr);
    return {tp, model::Direction::MM2S, *P->stream_port};
}

model::StreamEndpoint lower_stream_consumer(ResolveContext& ctx, FifoState* f, EndpointState* ep, int flow) {
    const model::TileCoord tc = ctx.worker_tile.at(ep->worker);
    auto& core = ctx.core_of(ep->worker);
    if (core.stream_in >= 0)
        throw DesignError(fmt::format("fifo '{}': 'aie.tile' op number of input Core channels exceeded! (tile {}: "
                                      "worker '{}' already gets fifo '{}' on its stream port {})",
                                      f->name, model::to_string(tc), ep->worker->name,
                                      ctx.net.flows.at(static_cast<std::size_t>(core.stream_in)).prov.object,
                                      *ep->stream_port));
    core.stream_in = flow;
    ctx.record_bufferless_end(*ep, tc, model::FifoEndHolding::StreamPort, nullptr);
    return {tc, model::Direction::S2MM, *ep->stream_port};
}

} // namespace npusim::iron::detail

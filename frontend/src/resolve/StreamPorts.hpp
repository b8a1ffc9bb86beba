#pragma once
// StreamPorts: ObjectFifo ends given Port::stream(n) (upstream `aie_stream` / `aie_stream_port`
// on the aie.objectfifo op, python/iron/dataflow/objectfifo.py). An end that is a stream port has
// no L1 buffer and no DMA channel: the flow starts (producer) or ends (consumer) at the core's
// stream port Core:n, and the kernel moves each 32-bit word with put_ms / get_ss. The verifier
// rules and messages are ObjectFifoCreateOp::verify (lib/Dialect/AIE/IR/AIEDialect.cpp) and
// AIEObjectFifoStatefulTransform.cpp (reservePinnedChannels, checkAIEStreamIndex).
#include "FifoState.hpp"
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

/// Some end of `f` is a stream port (the fifo then always moves by DMA/stream: requiresDMAs).
bool has_stream_port(const FifoState& f);

/// ObjectFifoCreateOp::verify's `aie_stream` rules on `f` and the pin rule of
/// reservePinnedChannels; DesignError "fifo 'f': <toolchain message> ..." for the first broken.
void verify_stream_ports(const FifoState& f);

/// Lower the stream-port producer `P` of `f` on tile `tp`: the source of flow `flow` (the next
/// Netlist::flows index) is the core's output stream port; no buffers, no channel.
model::StreamEndpoint lower_stream_producer(ResolveContext& ctx, FifoState* f, EndpointState* P, model::TileCoord tp,
                                            int flow);
/// Lower the stream-port consumer `ep` of `f`: the destination of flow `flow` is its core's input
/// stream port.
model::StreamEndpoint lower_stream_consumer(ResolveContext& ctx, FifoState* f, EndpointState* ep, int flow);

} // namespace npusim::iron::detail

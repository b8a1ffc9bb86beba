#include "resolve/FifoVerifier.hpp"

#include "resolve/DepthRule.hpp"
#include "resolve/StreamPorts.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron::detail {

// The checks in the order ObjectFifoCreateOp::verify makes them. A producer owned by the Runtime
// is a shim tile producer; a consumer owned by the Runtime a shim tile consumer.
void verify_fifo(const FifoState& f) {
    const bool shim_producer = f.prod && f.prod->owner == OwnerKind::Runtime;
    if (shim_producer && !f.dims_to_stream.empty())
        throw DesignError(fmt::format("fifo '{}': `dimensionsToStream` data layout transformations are not supported "
                                      "on shim tile producers (its producer is the runtime sequence: give the layout "
                                      "to fill() as a tap instead)",
                                      f.name));
    for (const auto& c : f.cons)
        if (c->owner == OwnerKind::Runtime && !c->dims_from_stream.empty())
            throw DesignError(fmt::format("fifo '{}': `dimensionsFromStreamPerConsumer` data layout transformations "
                                          "are not supported on shim tile consumers ({} is drained by the runtime "
                                          "sequence: give the layout to drain() as a tap instead)",
                                          f.name, c->describe()));
    if (shim_producer && f.repeat_count)
        throw DesignError(fmt::format("fifo '{}': `repeat_count` unavailable for shim tiles (its producer is the "
                                      "runtime sequence)",
                                      f.name));
    if (f.prod && f.prod->owner == OwnerKind::MemTile && f.init_values.empty())
        throw DesignError(fmt::format("fifo '{}': its producer is a mem-tile endpoint (set_endpoint), which only sends "
                                      "the fifo's init_values, and it has none",
                                      f.name));
    verify_stream_ports(f);
    if (f.init_values.empty()) return;
    if (shim_producer)
        throw DesignError(fmt::format("fifo '{}': `init_values` unavailable for shim tiles (its producer is the "
                                      "runtime sequence)",
                                      f.name));
    // size() of the create op: the scalar depth, or the producer's entry of a depth list.
    const int objects = f.prod ? declared_depth(*f.prod) : f.depth;
    if (static_cast<int>(f.init_values.size()) != objects)
        throw DesignError(fmt::format("fifo '{}': `init_values` does not initialize all objects ({} given for a "
                                      "producer depth of {})",
                                      f.name, f.init_values.size(), objects));
}

void check_dma_object_size(const FifoState& f) {
    for (const TensorType* t : {&f.obj_type, f.consumer_obj_type ? &*f.consumer_obj_type : nullptr})
        if (t && t->bytes() % 4 != 0)
            throw DesignError(fmt::format("fifo '{}': object type {} is {} B, but it moves through DMA: transfer "
                                          "length must be multiple of 4 (i.e., represent 4 byte aligned address) "
                                          "(DMABDOp::verify). Only a fifo between cores that share memory, with no "
                                          "DMA, may carry such objects",
                                          f.name, t->str(), t->bytes()));
}

} // namespace npusim::iron::detail

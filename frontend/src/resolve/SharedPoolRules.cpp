#include "resolve/SharedPoolRules.hpp"

#include "resolve/StreamPorts.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron::detail {

namespace {

std::string delegate_text(const Tile& t) {
    if (t.pinned()) return fmt::format("({}, {})", *t.col, *t.row);
    return "an unplaced tile";
}

[[noreturn]] void refuse_allocate(const FifoState& f, const std::string& what) {
    throw DesignError(fmt::format("fifo '{}' (delegate_tile {}): {}", f.name, delegate_text(*f.delegate_tile), what));
}

} // namespace

// ObjectFifoAllocateOp::verify (AIEDialect.cpp l.781-800), in its order. The consumers are every
// cons() handle, as IRON gives the op one consumer tile per handle (objectfifo.py
// _cons_tiles_ops).
void verify_fifo_allocate(const FifoState& f, const model::DeviceSpec& dev) {
    if (!f.delegate_tile) return;
    if (f.cons.size() != 1)
        refuse_allocate(f, fmt::format("`aie.objectfifo.allocate` can only be used in 1-to-1 object FIFOs (it has {} "
                                       "consumers)",
                                       f.cons.size()));
    if (f.via_dma)
        refuse_allocate(f, "cannot allocate a shared memory module to objectfifo with set `via_DMA` attribute");
    if (f.repeat_count)
        refuse_allocate(f, "cannot allocate a shared memory module to objectfifo with set `repeat_count` attribute");
    if (!f.dims_to_stream.empty())
        refuse_allocate(f, "cannot allocate a shared memory module to objectfifo with set dimensions attribute "
                           "(dims_to_stream)");
    if (has_stream_port(f))
        refuse_allocate(f, "cannot allocate a shared memory module to objectfifo using stream port");
    // npusim departure: the delegate is a tile of the design, not one the placer picks (IRON's
    // SequentialPlacer gives an unplaced tile the first free one, unrelated to the fifo's cores).
    const Tile& d = *f.delegate_tile;
    if (!d.pinned())
        refuse_allocate(f, "npusim needs the delegate tile pinned: give Tile(col, row), a tile whose memory both "
                           "cores of the fifo reach");
    if (!dev.contains(d.coord()))
        refuse_allocate(f, fmt::format("the tile is outside the device ({} columns, {} rows)", dev.cols, dev.rows));
}

// createObjectFifoElements (Stateful l.981-994): isSharedMemory(delegate, producer) and
// isSharedMemory(delegate, consumer) must both be -1 or 2, i.e. each core reaches the delegate's
// memory module (own, west, north or south on AIE2; never a mem or shim tile's).
model::TileCoord delegate_pool_tile(const FifoState& f, const model::DeviceSpec& dev, model::TileCoord producer,
                                    model::TileCoord consumer) {
    const model::TileCoord d = f.delegate_tile->coord();
    if (dev.core_can_access(producer, d) && dev.core_can_access(consumer, d)) return d;
    refuse_allocate(f, fmt::format("objectfifo has no shared memory access to delegate tile's memory module (the "
                                   "producer core on ({}, {}) and the consumer core on ({}, {}) must both reach its "
                                   "memory: their own, west, north or south neighbour)",
                                   producer.col, producer.row, consumer.col, consumer.row));
}

void check_dma_fifo_options(const FifoState& f) {
    if (f.disable_synchronization)
        throw DesignError(fmt::format(
            "fifo '{}': disable_synchronization on a fifo that is not one shared-memory pool between two cores "
            "(it uses DMA or a runtime, link or stream end): npusim does not model DMA chains without locks, which "
            "upstream lowers to BDs that run on without end; give the fifo a producer and a consumer core that share "
            "memory, or keep the synchronization",
            f.name));
    if (f.delegate_tile)
        refuse_allocate(f, "npusim serves a delegate tile only on a fifo lowered to one shared-memory pool between "
                           "two cores; this one uses DMA or a runtime, link or stream end");
}

} // namespace npusim::iron::detail

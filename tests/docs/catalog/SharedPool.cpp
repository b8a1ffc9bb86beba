// Program::resolve(): a fifo's delegate_tile (aie.objectfifo.allocate) and disable_synchronization
// (frontend/src/resolve/SharedPoolRules.cpp).
#include "Designs.hpp"

namespace npusim::errcat {

namespace {
// Worker 'a' on `ta` produces fifo 'f' (`opts`) for worker 'b' on `tb`; `consumers` cons()
// handles (the others to a worker on (2,2)). Resolved on npu1.
void pool_pair(FifoOptions opts, Tile ta, Tile tb, int consumers = 1) {
    ObjectFifo f(i32(16), "f", 2, std::move(opts));
    auto touch = [](F h) {
        h.acquire(1);
        h.release(1);
    };
    std::vector<Worker> ws{Worker(touch, fn_args(f.prod()), {.tile = ta, .name = "a"}),
                           Worker(touch, fn_args(f.cons()), {.tile = tb, .name = "b"})};
    for (int i = 1; i < consumers; ++i) ws.emplace_back(touch, fn_args(f.cons()), WorkerOptions{.tile = Tile(2, 2)});
    resolve(Program("npu1", Runtime([](RuntimeData) {}, fn_args(i32(16))), ws));
}
} // namespace

void add_shared_pool(Catalog& c) {
    c.component("Resolve: delegate tiles and unsynchronized fifos",
                "A fifo's `delegate_tile` (the op `aie.objectfifo.allocate`: its shared-memory pool in another "
                "tile's memory) and `disable_synchronization` (no lock pair), with mlir-aie's "
                "ObjectFifoAllocateOp::verify and the stateful transform's shared-memory test "
                "(`frontend/src/resolve/SharedPoolRules.cpp`; docs/resolve.md step 4).");
    c.site("frontend/src/resolve/SharedPoolRules.cpp");
    NPUSIM_ERROR(c, "allocate.one_to_one", kDesign,
                 "fifo 'f' (delegate_tile (1, 3)): `aie.objectfifo.allocate` can only be used in 1-to-1 object FIFOs "
                 "(it has 2 consumers)",
                 pool_pair({.delegate_tile = Tile(1, 3)}, Tile(1, 2), Tile(1, 3), 2));
    NPUSIM_ERROR(c, "allocate.via_dma", kDesign,
                 "fifo 'f' (delegate_tile (1, 3)): cannot allocate a shared memory module to objectfifo with set "
                 "`via_DMA` attribute",
                 pool_pair({.via_dma = true, .delegate_tile = Tile(1, 3)}, Tile(1, 2), Tile(1, 3)));
    NPUSIM_ERROR(c, "allocate.repeat_count", kDesign,
                 "fifo 'f' (delegate_tile (1, 3)): cannot allocate a shared memory module to objectfifo with set "
                 "`repeat_count` attribute",
                 pool_pair({.repeat_count = 2, .delegate_tile = Tile(1, 3)}, Tile(1, 2), Tile(1, 3)));
    NPUSIM_ERROR(c, "allocate.dimensions", kDesign,
                 "fifo 'f' (delegate_tile (1, 3)): cannot allocate a shared memory module to objectfifo with set "
                 "dimensions attribute (dims_to_stream)",
                 pool_pair({.dims_to_stream = {{16, 1}}, .delegate_tile = Tile(1, 3)}, Tile(1, 2), Tile(1, 3)));
    NPUSIM_ERROR(c, "allocate.stream_port", kDesign,
                 "fifo 'f' (delegate_tile (1, 3)): cannot allocate a shared memory module to objectfifo using stream "
                 "port",
                 ObjectFifo f(i32(16), "f", 2, {.delegate_tile = Tile(1, 3)});
                 Worker a([](F h) { h.acquire(1); }, fn_args(f.prod({.port = Port::stream(0)})), {.tile = Tile(1, 2)});
                 Worker b([](F h) { h.acquire(1); }, fn_args(f.cons()), {.tile = Tile(1, 3)});
                 resolve(Program("npu1", Runtime([](RuntimeData) {}, fn_args(i32(16))), {a, b})));
    NPUSIM_ERROR(c, "allocate.unplaced", kDesign,
                 "fifo 'f' (delegate_tile an unplaced tile): npusim needs the delegate tile pinned: give Tile(col, "
                 "row), a tile whose memory both cores of the fifo reach",
                 pool_pair({.delegate_tile = AnyComputeTile}, Tile(1, 2), Tile(1, 3)));
    NPUSIM_ERROR(c, "allocate.outside", kDesign,
                 "fifo 'f' (delegate_tile (9, 3)): the tile is outside the device (4 columns, 6 rows)",
                 pool_pair({.delegate_tile = Tile(9, 3)}, Tile(1, 2), Tile(1, 3)));
    NPUSIM_ERROR(c, "allocate.no_shared_memory", kDesign,
                 "fifo 'f' (delegate_tile (3, 3)): objectfifo has no shared memory access to delegate tile's memory "
                 "module (the producer core on (1, 2) and the consumer core on (1, 3) must both reach its memory: "
                 "their own, west, north or south neighbour)",
                 pool_pair({.delegate_tile = Tile(3, 3)}, Tile(1, 2), Tile(1, 3)));
    NPUSIM_ERROR(c, "allocate.dma_fifo", kDesign,
                 "fifo 'f' (delegate_tile (1, 3)): npusim serves a delegate tile only on a fifo lowered to one "
                 "shared-memory pool between two cores; this one uses DMA or a runtime, link or stream end",
                 // (1,4) and (1,2) share no memory, so the fifo uses DMA, though both reach (1,3).
                 pool_pair({.delegate_tile = Tile(1, 3)}, Tile(1, 4), Tile(1, 2)));
    NPUSIM_ERROR(c, "fifo.unsynchronized_dma", kDesign,
                 "fifo 'in': disable_synchronization on a fifo that is not one shared-memory pool between two cores "
                 "(it uses DMA or a runtime, link or stream end): npusim does not model DMA chains without locks, "
                 "which upstream lowers to BDs that run on without end; give the fifo a producer and a consumer core "
                 "that share memory, or keep the synchronization",
                 resolve(passthrough({.in = {.disable_synchronization = true}})));
}

} // namespace npusim::errcat

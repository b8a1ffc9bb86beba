// The rules of frontend/src/resolve/SharedPoolRules.cpp at resolve, one case each:
// ObjectFifoAllocateOp::verify (mlir-aie lib/Dialect/AIE/IR/AIEDialect.cpp l.781-800), the
// delegate's shared-memory test (AIEObjectFifoStatefulTransform.cpp l.981-994; upstream's
// test/objectFifo-stateful-transform/objectfifo_allocate/allocate_errors_test.mlir), and the npusim
// departures (a pinned delegate; disable_synchronization and delegate_tile only on a shared pool).
#include "npusim/iron.hpp"
#include "npusim/model/Error.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;
using Catch::Matchers::Contains;

namespace {

const TensorType pool_line = tensor<std::int32_t>({16});

// Worker 'a' on `ta` produces fifo 'f' (with `opts`), worker 'b' on `tb` consumes it; `consumers`
// cons() handles (the extra ones go to worker 'c' on (2,2)).
model::Netlist pool_pair(FifoOptions opts, Tile ta, Tile tb, int consumers = 1) {
    ObjectFifo f(pool_line, "f", 2, std::move(opts));
    auto produce = [](ObjectFifoHandle h) {
        auto e = h.acquire(1);
        e.at<std::int32_t>(0) = 1;
        h.release(1);
    };
    auto consume = [](ObjectFifoHandle h) {
        h.acquire(1);
        h.release(1);
    };
    std::vector<Worker> ws{Worker(produce, fn_args(f.prod()), {.tile = ta, .name = "a"}),
                           Worker(consume, fn_args(f.cons()), {.tile = tb, .name = "b"})};
    for (int i = 1; i < consumers; ++i) ws.emplace_back(consume, fn_args(f.cons()), WorkerOptions{.tile = Tile(2, 2)});
    return Program("npu1", Runtime([](RuntimeData) {}, fn_args(pool_line)), ws).resolve();
}

} // namespace

TEST_CASE("delegate_tile: the shared pool goes to the delegate both cores reach", "[frontend][fifo]") {
    // (1,2) -> (1,3): both cores reach (1,3) (north of one, the other's own), as allocate_test.mlir's
    // @of1; (0,3) is west of the consumer but north-west of the producer, which does not reach it.
    const auto n = pool_pair({.delegate_tile = Tile(1, 3)}, Tile(1, 2), Tile(1, 3));
    for (const auto& b : n.buffers)
        if (b.name.starts_with("f_buff_")) CHECK(b.tile == model::TileCoord{1, 3});
    CHECK_THROWS_WITH(pool_pair({.delegate_tile = Tile(0, 3)}, Tile(1, 2), Tile(1, 3)),
                      Contains("fifo 'f' (delegate_tile (0, 3)): objectfifo has no shared memory access to delegate "
                               "tile's memory module (the producer core on (1, 2) and the consumer core on (1, 3)"));
}

TEST_CASE("delegate_tile: ObjectFifoAllocateOp::verify's refusals", "[frontend][fifo]") {
    const Tile a(1, 2), b(1, 3), d(1, 3);
    CHECK_THROWS_WITH(
        pool_pair({.delegate_tile = d}, a, b, 2),
        Contains("`aie.objectfifo.allocate` can only be used in 1-to-1 object FIFOs (it has 2 consumers)"));
    CHECK_THROWS_WITH(pool_pair({.via_dma = true, .delegate_tile = d}, a, b),
                      Contains("cannot allocate a shared memory module to objectfifo with set `via_DMA` attribute"));
    CHECK_THROWS_WITH(
        pool_pair({.repeat_count = 1, .delegate_tile = d}, a, b),
        Contains("cannot allocate a shared memory module to objectfifo with set `repeat_count` attribute"));
    CHECK_THROWS_WITH(pool_pair({.dims_to_stream = {{16, 1}}, .delegate_tile = d}, a, b),
                      Contains("cannot allocate a shared memory module to objectfifo with set dimensions attribute"));
    CHECK_THROWS_WITH(pool_pair({.delegate_tile = Tile::any(TileKind::Compute)}, a, b),
                      Contains("fifo 'f' (delegate_tile an unplaced tile): npusim needs the delegate tile pinned"));
    CHECK_THROWS_WITH(pool_pair({.delegate_tile = Tile(9, 3)}, a, b),
                      Contains("fifo 'f' (delegate_tile (9, 3)): the tile is outside the device"));
}

TEST_CASE("delegate_tile and disable_synchronization only on a shared pool", "[frontend][fifo]") {
    // (1,4) and (1,2) do not share memory (the fifo needs DMA) although both reach (1,3).
    CHECK_THROWS_WITH(pool_pair({.delegate_tile = Tile(1, 3)}, Tile(1, 4), Tile(1, 2)),
                      Contains("fifo 'f' (delegate_tile (1, 3)): npusim serves a delegate tile only on a fifo lowered "
                               "to one shared-memory pool"));
    CHECK_THROWS_WITH(pool_pair({.disable_synchronization = true}, Tile(1, 4), Tile(1, 2)),
                      Contains("fifo 'f': disable_synchronization on a fifo that is not one shared-memory pool"));
    // A runtime end.
    CHECK_THROWS_WITH(test::passthrough({.in = {.disable_synchronization = true}}).resolve(),
                      Contains("fifo 'in': disable_synchronization on a fifo that is not one shared-memory pool"));
    // Between neighbours it is a shared pool with no locks.
    const auto n = pool_pair({.disable_synchronization = true}, Tile(1, 2), Tile(1, 3));
    for (const auto& l : n.locks) CHECK(l.prov.object != "f");
}

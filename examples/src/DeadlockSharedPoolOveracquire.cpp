// deadlock_shared_pool_overacquire: two workers on neighbouring tiles share one pool of buffers
// (no DMA), which holds the producer's depth: 1 buffer. The consumer asks for a window of 2 at
// once (its own depth of 2 lets IRON accept it, ObjectFifoHandle.acquire checks each handle
// against its own depth), so its acquire can never complete. Case: pool_overacquire (also a
// resolve-time warning).
#include "DeadlockCatalog.hpp"

namespace npusim::examples {

using namespace hang;

DesignSpec make_deadlock_shared_pool_overacquire() {
    auto s = catalog_spec("deadlock_shared_pool_overacquire",
                          "hangs: a consumer acquires 2 objects of a shared pool that holds the producer's depth of 1");
    s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions& o) {
        ObjectFifo in(object_type(), "in"), mid(object_type(), "mid"), out(object_type(), "out");
        Worker producer(copy_one, fn_args(in.cons(), mid.prod(1)), {.tile = Tile(0, 2), .name = "producer"});
        Worker consumer(
            [](ObjectFifoHandle m, ObjectFifoHandle q) {
                auto w = m.acquire(2);
                auto y = q.acquire(1);
                copy_words(w[0], y);
                m.release(2);
                q.release(1);
            },
            fn_args(mid.cons(2), out.prod()), {.tile = Tile(0, 3), .name = "consumer"});
        Runtime rt(fill_then_drain(), fn_args(objects_type(4), objects_type(2), in.prod(), out.cons()));
        return catalog_instance(
            Program(dev, rt, {producer, consumer}, "deadlock_shared_pool_overacquire"), 4, 2,
            [](std::int64_t k) { return 2 * k; }, o.seed, "deadlock_shared_pool_overacquire");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_deadlock_shared_pool_overacquire, 500);

} // namespace npusim::examples

// deadlock_broadcast_skip: 'in' is broadcast to two workers. The first needs 2 objects of it
// before it produces 'mid'; the second waits for 'mid' before it takes its first object of 'in',
// and its end of the broadcast holds a single object (the under-buffered skip path). A broadcast
// moves only when every destination has room, so after one object the stream stalls on the
// second worker and the first starves: a cycle of waits through the broadcast stream. Case:
// lock_cycle (through a stream).
#include "DeadlockCatalog.hpp"

namespace npusim::examples {

using namespace hang;

DesignSpec make_deadlock_broadcast_skip() {
    auto s = catalog_spec("deadlock_broadcast_skip",
                          "hangs: a broadcast whose skip-path consumer has depth 1 while the other needs 2 objects");
    s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions& o) {
        ObjectFifo in(object_type(), "in"), mid(object_type(), "mid"), out(object_type(), "out");
        Worker pair(
            [](ObjectFifoHandle i, ObjectFifoHandle m) {
                auto x = i.acquire(2);
                auto y = m.acquire(1);
                copy_words(x[0], y);
                i.release(2);
                m.release(1);
            },
            fn_args(in.cons(3), mid.prod()), {.tile = Tile(0, 2), .name = "pair"});
        Worker skip(
            [](ObjectFifoHandle m, ObjectFifoHandle i, ObjectFifoHandle q) {
                auto first = m.acquire(1); // waits for 'pair' ...
                auto x = i.acquire(1); // ... before it takes its own copy of 'in'
                auto y = q.acquire(1);
                copy_words(x, y);
                (void)first;
                m.release(1);
                i.release(1);
                q.release(1);
            },
            fn_args(mid.cons(), in.cons(1), out.prod()), {.tile = Tile(0, 4), .name = "skip"});
        Runtime rt(fill_then_drain(), fn_args(objects_type(4), objects_type(2), in.prod(), out.cons()));
        return catalog_instance(
            Program(dev, rt, {pair, skip}, "deadlock_broadcast_skip"), 4, 2, [](std::int64_t k) { return k; }, o.seed,
            "deadlock_broadcast_skip");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_deadlock_broadcast_skip, 550);

} // namespace npusim::examples

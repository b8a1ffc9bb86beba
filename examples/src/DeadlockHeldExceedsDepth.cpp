// deadlock_held_exceeds_depth: a producer fills 2 objects of a shared pool of depth 2 at once
// while its consumer reads a sliding window (acquire(2), release(1)) and so keeps one object from
// one iteration to the next: 2 + 1 > 2, the producer waits for a buffer the consumer never frees
// and the consumer for an object the producer never makes. Case: held_exceeds_depth (also a
// resolve-time warning).
#include "DeadlockCatalog.hpp"

namespace npusim::examples {

using namespace hang;

DesignSpec make_deadlock_held_exceeds_depth() {
    auto s = catalog_spec("deadlock_held_exceeds_depth",
                          "hangs: producer acquires 2 of a 2-deep shared pool while the consumer's sliding window "
                          "keeps 1");
    s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions& o) {
        ObjectFifo in(object_type(), "in"), mid(object_type(), "mid", 2), out(object_type(), "out");
        Worker producer(
            [](ObjectFifoHandle i, ObjectFifoHandle m) {
                auto x = i.acquire(2);
                auto y = m.acquire(2);
                for (std::size_t k = 0; k < 2; ++k) {
                    copy_words(x[k], y[k]);
                }
                i.release(2);
                m.release(2);
            },
            fn_args(in.cons(), mid.prod()), {.tile = Tile(0, 2), .name = "producer"});
        Worker window(
            [](ObjectFifoHandle m, ObjectFifoHandle q) {
                auto w = m.acquire(2);
                auto y = q.acquire(1);
                copy_words(w[0], y);
                m.release(1);
                q.release(1);
            },
            fn_args(mid.cons(), out.prod()), {.tile = Tile(0, 3), .name = "window"});
        Runtime rt(fill_then_drain(), fn_args(objects_type(8), objects_type(4), in.prod(), out.cons()));
        return catalog_instance(
            Program(dev, rt, {producer, window}, "deadlock_held_exceeds_depth"), 8, 4, [](std::int64_t k) { return k; },
            o.seed, "deadlock_held_exceeds_depth");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_deadlock_held_exceeds_depth, 510);

} // namespace npusim::examples

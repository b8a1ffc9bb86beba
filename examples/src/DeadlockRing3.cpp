// deadlock_ring3: three workers in a ring, each waiting for its ring input before it produces its
// ring output, and nobody seeds the ring with a first object (no init_values). The sequence's data
// enters at the first worker and leaves at the third, but the ring never turns. Case: lock_cycle.
#include "DeadlockCatalog.hpp"

namespace npusim::examples {

using namespace hang;

DesignSpec make_deadlock_ring3() {
    auto s = catalog_spec("deadlock_ring3",
                          "hangs: three workers in a ring each wait for their ring input first; no initial object");
    s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions& o) {
        ObjectFifo in(object_type(), "in"), out(object_type(), "out");
        ObjectFifo r01(object_type(), "ring01"), r12(object_type(), "ring12"), r20(object_type(), "ring20");
        Worker w0(
            [](ObjectFifoHandle i, ObjectFifoHandle back, ObjectFifoHandle next) {
                auto x = i.acquire(1);
                auto token = back.acquire(1); // waits for the ring to come round first
                auto y = next.acquire(1);
                copy_words(x, y);
                (void)token;
                back.release(1);
                i.release(1);
                next.release(1);
            },
            fn_args(in.cons(), r20.cons(), r01.prod()), {.tile = Tile(0, 2), .name = "ring0"});
        Worker w1(copy_one, fn_args(r01.cons(), r12.prod()), {.tile = Tile(0, 3), .name = "ring1"});
        Worker w2(
            [](ObjectFifoHandle prev, ObjectFifoHandle next, ObjectFifoHandle q) {
                auto x = prev.acquire(1);
                auto y = next.acquire(1);
                auto z = q.acquire(1);
                copy_words(x, y);
                copy_words(x, z);
                prev.release(1);
                next.release(1);
                q.release(1);
            },
            fn_args(r12.cons(), r20.prod(), out.prod()), {.tile = Tile(0, 4), .name = "ring2"});
        Runtime rt(fill_then_drain(), fn_args(objects_type(2), objects_type(2), in.prod(), out.cons()));
        return catalog_instance(
            Program(dev, rt, {w0, w1, w2}, "deadlock_ring3"), 2, 2, [](std::int64_t k) { return k; }, o.seed,
            "deadlock_ring3");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_deadlock_ring3, 540);

} // namespace npusim::examples

// deadlock_cascade_never_put: a two-core cascade chain (CascadeFlow from 'top' on (0,3) to
// 'bottom' on (0,2), north to south) where the sender is a one-shot (while_true=false) that
// consumes its first input object and returns without putting the word its receiver gets: the
// receiver waits in cascade_get forever and the drain of "out" never completes.
// Case: cascade_never_put.
#include "DeadlockCatalog.hpp"

namespace npusim::examples {

using namespace hang;

DesignSpec make_deadlock_cascade_never_put() {
    auto s = catalog_spec("deadlock_cascade_never_put",
                          "hangs: a cascade's sender returns without putting the word its receiver gets");
    s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions& o) {
        ObjectFifo in(object_type(), "in"), out(object_type(), "out");
        // The sender was meant to put the object it reads (cascade_put, one 64-byte word) but returns first.
        Worker top(
            [](ObjectFifoHandle i) {
                i.acquire(1);
                i.release(1);
            },
            fn_args(in.cons()), {.tile = Tile(0, 3), .while_true = false, .name = "top"});
        Worker bottom(
            [](ObjectFifoHandle ou) {
                auto y = ou.acquire(1);
                cascade_get(y.data()); // the word fills the object (aie.get_cascade, vector.store)
                ou.release(1);
            },
            fn_args(out.prod()), {.tile = Tile(0, 2), .name = "bottom"});
        CascadeFlow(top, bottom);
        Runtime rt(fill_then_drain(), fn_args(objects_type(4), objects_type(4), in.prod(), out.cons()));
        return catalog_instance(
            Program(dev, rt, {top, bottom}, "deadlock_cascade_never_put"), 4, 4, [](std::int64_t k) { return k; },
            o.seed, "deadlock_cascade_never_put");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_deadlock_cascade_never_put, 620);

} // namespace npusim::examples

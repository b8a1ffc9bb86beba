// deadlock_drain_more: the worker is a one-shot (while_true=false) that copies 2 objects and
// returns; the sequence fills those 2 objects but drains 4. Everything the design makes arrives,
// then the drain waits for 2 more objects that nothing will produce. Case:
// drain_more_than_produced.
#include "DeadlockCatalog.hpp"

namespace npusim::examples {

using namespace hang;

DesignSpec make_deadlock_drain_more() {
    auto s = catalog_spec("deadlock_drain_more",
                          "hangs: the sequence drains 4 objects from a one-shot worker that produces 2");
    s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions& o) {
        ObjectFifo in(object_type(), "in"), out(object_type(), "out");
        Worker w(
            [](ObjectFifoHandle i, ObjectFifoHandle q) {
                for (int k = 0; k < 2; ++k) copy_one(i, q);
            },
            fn_args(in.cons(), out.prod()), {.while_true = false, .name = "once"});
        Runtime rt(fill_then_drain(), fn_args(objects_type(2), objects_type(4), in.prod(), out.cons()));
        return catalog_instance(
            Program(dev, rt, {w}, "deadlock_drain_more"), 2, 4, [](std::int64_t k) { return k % 2; }, o.seed,
            "deadlock_drain_more");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_deadlock_drain_more, 580);

} // namespace npusim::examples

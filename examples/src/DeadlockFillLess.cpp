// deadlock_fill_less: the worker combines 2 input objects into each output object; the sequence
// fills 3 objects and drains 2 outputs. The first output is made, the second waits for a 4th
// input object that the sequence never sends. Case: fill_less_than_consumed.
#include "DeadlockCatalog.hpp"

namespace npusim::examples {

using namespace hang;

DesignSpec make_deadlock_fill_less() {
    auto s = catalog_spec("deadlock_fill_less",
                          "hangs: 2 inputs per output, the sequence fills 3 objects and drains 2 outputs");
    s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions& o) {
        ObjectFifo in(object_type(), "in"), out(object_type(), "out");
        Worker w(
            [](ObjectFifoHandle i, ObjectFifoHandle q) {
                auto x = i.acquire(2);
                auto y = q.acquire(1);
                copy_words(x[0], y);
                i.release(2);
                q.release(1);
            },
            fn_args(in.cons(), out.prod()), {.name = "pairs"});
        Runtime rt(fill_then_drain(), fn_args(objects_type(3), objects_type(2), in.prod(), out.cons()));
        return catalog_instance(
            Program(dev, rt, {w}, "deadlock_fill_less"), 3, 2, [](std::int64_t k) { return 2 * k; }, o.seed,
            "deadlock_fill_less");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_deadlock_fill_less, 590);

} // namespace npusim::examples

// deadlock_partial_object: the sequence fills 24 words into a fifo of 16-word objects: one whole
// object and half of a second. The worker copies the first; the second object's buffer never
// completes, so the worker and the drain of the second output wait forever. Case: partial_object
// (also a resolve-time warning).
#include "DeadlockCatalog.hpp"

namespace npusim::examples {

using namespace hang;

DesignSpec make_deadlock_partial_object() {
    auto s = catalog_spec("deadlock_partial_object",
                          "hangs: the fill moves 1.5 objects; the last, partial object is never complete");
    s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions& o) {
        ObjectFifo in(object_type(), "in"), out(object_type(), "out");
        Worker w(copy_one, fn_args(in.cons(), out.prod()), {.name = "copy"});
        Runtime rt(
            [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle q) {
                i.fill(a, {.tap = TensorAccessPattern({2 * kWords}, 0, {1, 1, 1, kWords + kWords / 2}, {0, 0, 0, 1})});
                q.drain(b, {.wait = true});
            },
            fn_args(objects_type(2), objects_type(2), in.prod(), out.cons()));
        return catalog_instance(
            Program(dev, rt, {w}, "deadlock_partial_object"), 2, 2, [](std::int64_t k) { return k; }, o.seed,
            "deadlock_partial_object");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_deadlock_partial_object, 600);

} // namespace npusim::examples

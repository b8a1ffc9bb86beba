// deadlock_finished_worker: a worker written as a one-shot (while_true=false: IRON runs the body
// once) in a design that streams 4 objects through it. It copies the first and returns; the
// second object waits in its input buffer and the drain of the second output never completes.
// Case: finished_worker.
#include "DeadlockCatalog.hpp"

namespace npusim::examples {

using namespace hang;

DesignSpec make_deadlock_finished_worker() {
    auto s = catalog_spec("deadlock_finished_worker",
                          "hangs: a while_true=false worker returns after one object of a 4-object stream");
    s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions& o) {
        ObjectFifo in(object_type(), "in"), out(object_type(), "out");
        Worker w(copy_one, fn_args(in.cons(), out.prod()), {.while_true = false, .name = "oneshot"});
        Runtime rt(fill_then_drain(), fn_args(objects_type(4), objects_type(4), in.prod(), out.cons()));
        return catalog_instance(
            Program(dev, rt, {w}, "deadlock_finished_worker"), 4, 4, [](std::int64_t k) { return k; }, o.seed,
            "deadlock_finished_worker");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_deadlock_finished_worker, 610);

} // namespace npusim::examples

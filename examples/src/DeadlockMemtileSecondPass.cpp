// deadlock_memtile_second_pass: a mem-tile split hands one half of every 'in' object to each of two
// workers. Worker 'a' is written as a one-shot (while_true=false, one object) while the sequence
// sends two objects. The first pass goes through both workers and both drains; on the second, the
// split still delivers a's half into a's 2-deep input buffer, but 'a' has returned: the second
// half-object of 'out_a' is never made and the sequence's await of the 'out_a' drain hangs, while
// 'b' has done its two objects and waits for a third. (With 6 or more objects the split itself
// stalls on 'a': the mem tile stops taking 'in' and 'b' starves.) Case: finished_worker (also a
// resolve-time warning about the split's rates).
#include "DeadlockCatalog.hpp"

namespace npusim::examples {

using namespace hang;

DesignSpec make_deadlock_memtile_second_pass() {
    auto s = catalog_spec("deadlock_memtile_second_pass",
                          "hangs: a mem-tile split to two workers, one of which stops after the first pass");
    s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions& o) {
        const auto half = tensor<std::int32_t>({kWords / 2});
        ObjectFifo in(object_type(), "in"), out_a(half, "out_a"), out_b(half, "out_b");
        auto parts = in.cons().split({0, kWords / 2}, {.obj_types = {half, half}, .names = {"in_a", "in_b"}});
        Worker a(copy_one, fn_args(parts[0].cons(), out_a.prod()), {.while_true = false, .name = "a"});
        Worker b(copy_one, fn_args(parts[1].cons(), out_b.prod()), {.name = "b"});
        Runtime rt(
            [](RuntimeData x, RuntimeData y, ObjectFifoHandle i, ObjectFifoHandle oa, ObjectFifoHandle ob) {
                i.fill(x);
                // The outputs' halves, each drained into its half of every 'out' object.
                oa.drain(y, {.tap = TensorAccessPattern({2 * kWords}, 0, {1, 1, 2, kWords / 2}, {0, 0, kWords, 1}),
                             .wait = true});
                ob.drain(
                    y, {.tap = TensorAccessPattern({2 * kWords}, kWords / 2, {1, 1, 2, kWords / 2}, {0, 0, kWords, 1}),
                        .wait = true});
            },
            fn_args(objects_type(2), objects_type(2), in.prod(), out_a.cons(), out_b.cons()));
        return catalog_instance(
            Program(dev, rt, {a, b}, "deadlock_memtile_second_pass"), 2, 2, [](std::int64_t k) { return k; }, o.seed,
            "deadlock_memtile_second_pass");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_deadlock_memtile_second_pass, 570);

} // namespace npusim::examples

// deadlock_join_early: two workers' outputs are joined in the mem tile into one 'out' object; the
// runtime sequence waits for the drain of 'out' (a task group finished) before it fills 'in1',
// the input of the second worker. The join needs both halves, so the drain never completes and
// the fill that would unblock it never starts. Case: fill_after_await (the fill that would feed
// the awaited output comes after the wait).
#include "DeadlockCatalog.hpp"

namespace npusim::examples {

using namespace hang;

DesignSpec make_deadlock_join_early() {
    auto s = catalog_spec("deadlock_join_early",
                          "hangs: the sequence awaits a join's output before it fills one of the join's producers");
    s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions& o) {
        const auto half = tensor<std::int32_t>({kWords / 2});
        ObjectFifo in0(half, "in0"), in1(half, "in1"), out(object_type(), "out");
        auto parts = out.prod().join({0, kWords / 2}, {.obj_types = {half, half}, .names = {"out0", "out1"}});
        Worker w0(copy_one, fn_args(in0.cons(), parts[0].prod()), {.name = "left"});
        Worker w1(copy_one, fn_args(in1.cons(), parts[1].prod()), {.name = "right"});
        Runtime rt(
            [](RuntimeData a, RuntimeData b, ObjectFifoHandle i0, ObjectFifoHandle i1, ObjectFifoHandle q) {
                // 'in' holds the left halves, then the right halves.
                TaskGroup g;
                i0.fill(a, {.tap = TensorAccessPattern({2 * kWords}, 0, {1, 1, 1, kWords}, {0, 0, 0, 1}), .group = &g});
                q.drain(b, {.wait = true, .group = &g});
                g.finish(); // awaits the joined output ...
                TaskGroup later;
                i1.fill(a, {.tap = TensorAccessPattern({2 * kWords}, kWords, {1, 1, 1, kWords}, {0, 0, 0, 1}),
                            .group = &later});
                later.finish(); // ... before the right halves are filled
            },
            fn_args(objects_type(2), objects_type(1), in0.prod(), in1.prod(), out.cons()));
        auto inst = catalog_instance(
            Program(dev, rt, {w0, w1}, "deadlock_join_early"), 2, 1, [](std::int64_t) { return 0; }, o.seed,
            "deadlock_join_early");
        // The joined object: the left halves' first object, then the right halves' first object.
        inst.reference = [](const Tensors& t) {
            const auto x = get(t, "in").values<std::int32_t>();
            std::vector<std::int32_t> y(x.begin(), x.begin() + kWords / 2);
            y.insert(y.end(), x.begin() + kWords, x.begin() + kWords + kWords / 2);
            return tensors("out", Tensor::from(objects_type(1).shape, y));
        };
        return inst;
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_deadlock_join_early, 560);

} // namespace npusim::examples

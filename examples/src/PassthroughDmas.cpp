// E2 basic/passthrough_dmas: no compute. Fifo `in` is forwarded through a mem tile (`in_fwd`):
// shim -> mem tile -> shim. Three runtime arguments, the middle one unused. Golden: c == a.
#include "Design.hpp"

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_passthrough_dmas() {
    DesignSpec s;
    s.name = "passthrough_dmas";
    s.description = "E2: shim -> mem tile -> shim through a forwarded fifo, no compute";
    s.params = {{"size", 4096, "i32 elements in the tensors"}, {"tile", 1024, "i32 elements per fifo object"}};
    s.devices = every_device();
    s.kernels_note = "no kernel: data moves by DMA only";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions&) {
        require_multiple("passthrough_dmas", p, "size", "tile");
        const auto size = p.at("size");
        const auto vec_ty = tensor<std::int32_t>({size});
        ObjectFifo of_in(tensor<std::int32_t>({p.at("tile")}), "in", 2);
        ObjectFifo of_out = of_in.cons().forward();
        Runtime rt(
            [](RuntimeData a, RuntimeData, RuntimeData c, ObjectFifoHandle in, ObjectFifoHandle out) {
                in.fill(a);
                out.drain(c, {.wait = true});
            },
            fn_args(vec_ty, vec_ty, vec_ty, of_in.prod({.tile = AnyShimTile}),
                    of_out.cons({.tile = AnyShimTile})));
        std::vector<std::int32_t> a(static_cast<std::size_t>(size));
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int32_t>(i + 1); // a[i] = i + 1 (not seeded)
        auto reference = [](const Tensors& in) { return tensors("c", get(in, "a")); }; // golden: c == a
        return DesignInstance(Program(dev, rt, {}, "passthrough_dmas"),
                              {ArgSpec::input("a", vec_ty), ArgSpec::unused("b", vec_ty), ArgSpec::output("c", vec_ty)},
                              tensors("a", Tensor::from(vec_ty.shape, a)), reference, "passthrough_dmas");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_passthrough_dmas, 20);

} // namespace npusim::examples

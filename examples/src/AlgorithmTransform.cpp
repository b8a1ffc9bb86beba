// IRON's algorithms.transform (mlir-aie python/iron/algorithms/_transform.py transform ->
// _transform_gen) as its docstring example uses it: transform(lambda x: x + 1, tensor_ty) over
// `size` int32 elements in tiles of tile_size (16 by default): one worker, fifos in0 and out, the
// function applied element by element in the core body. Built by npusim::iron::algorithms::transform.
// Golden: a plain loop, c[i] = a[i] + 1 (int32 wraparound), exact.
#include "Design.hpp"
#include "npusim/algorithms/Transform.hpp"

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_algorithm_transform() {
    DesignSpec s;
    s.name = "transform";
    s.description = "IRON algorithms.transform(lambda x: x + 1, i32[size]): one worker, fifos in0/out of tile_size";
    s.params = {{"size", 1024, "i32 elements"}, {"tile_size", 16, "elements per tile (IRON tile_size)"}};
    s.devices = every_device();
    s.kernels_note = "no external kernel: the template applies the callable in the core body";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const auto ty = tensor<std::int32_t>({p.at("size")});
        Program prog = algorithms::transform(
            dev, [](std::int32_t x) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) + 1u); }, ty,
            {.tile_size = p.at("tile_size")});
        std::mt19937_64 rng(o.seed);
        std::vector<std::int32_t> a(static_cast<std::size_t>(p.at("size")));
        for (auto& x : a) x = static_cast<std::int32_t>(rng());
        auto reference = [shape = ty.shape](const Tensors& in) {
            const auto x = get(in, "a").values<std::int32_t>();
            std::vector<std::int32_t> c(x.size());
            for (std::size_t i = 0; i < x.size(); ++i) c[i] = static_cast<std::int32_t>(std::int64_t{x[i]} + 1);
            return tensors("c", Tensor::from(shape, c));
        };
        return DesignInstance(std::move(prog), {ArgSpec::input("a", ty), ArgSpec::output("c", ty)},
                              tensors("a", Tensor::from(ty.shape, a)), reference, "transform");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_algorithm_transform, 210);

} // namespace npusim::examples

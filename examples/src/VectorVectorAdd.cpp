// E4 basic/vector_vector_add: out = in0 + in1, computed by the core body itself (no external
// kernel, like IRON's transform_binary with a lambda). Golden: exact a + b (int32 wraparound).
#include "Design.hpp"

namespace npusim::examples {

using namespace npusim::iron;

// A scalar add loop on the core: load, load, add, store per element [est].
constexpr std::uint64_t kScalarAddCyclesPerElement = 4;

DesignSpec make_vector_vector_add() {
    DesignSpec s;
    s.name = "vector_vector_add";
    s.description = "E4: out = in0 + in1 in the core body (no kernel), 16-element tiles";
    s.params = {{"size", 1024, "i32 elements per input"}, {"tile", 16, "i32 elements per fifo object"}};
    s.devices = every_device();
    s.kernels_note = "no external kernel: the add runs in the core body";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        require_multiple("vector_vector_add", p, "size", "tile");
        const auto size = p.at("size"), tile = p.at("tile");
        const auto vec_ty = tensor<std::int32_t>({size});
        const auto tile_ty = tensor<std::int32_t>({tile});
        ObjectFifo of_in0(tile_ty, "in0", 2), of_in1(tile_ty, "in1", 2), of_out(tile_ty, "out", 2);
        const std::int64_t tiles = size / tile;
        Worker w(
            [tiles](ObjectFifoHandle a, ObjectFifoHandle b, ObjectFifoHandle c) {
                for (std::int64_t t = 0; t < tiles; ++t) {
                    auto ea = a.acquire(1), eb = b.acquire(1), ec = c.acquire(1);
                    auto x = ea.as<std::int32_t>(), y = eb.as<std::int32_t>();
                    auto z = ec.as<std::int32_t>();
                    for (std::size_t j = 0; j < z.size(); ++j)
                        z[j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(x[j]) +
                                                         static_cast<std::uint32_t>(y[j]));
                    add_cycles(kScalarAddCyclesPerElement * z.size());
                    a.release(1);
                    b.release(1);
                    c.release(1);
                }
            },
            fn_args(of_in0.cons(), of_in1.cons(), of_out.prod()), {.name = "add"});
        Runtime rt(
            [](RuntimeData a, RuntimeData b, RuntimeData c, ObjectFifoHandle h0, ObjectFifoHandle h1,
               ObjectFifoHandle ho) {
                h0.fill(a);
                h1.fill(b);
                ho.drain(c, {.wait = true});
            },
            fn_args(vec_ty, vec_ty, vec_ty, of_in0.prod(), of_in1.prod(), of_out.cons()));
        std::mt19937_64 rng(o.seed);
        std::vector<std::int32_t> a(static_cast<std::size_t>(size)), b(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            a[i] = static_cast<std::int32_t>(rng());
            b[i] = static_cast<std::int32_t>(rng());
        }
        auto reference = [shape = vec_ty.shape](const Tensors& in) {
            const auto x = get(in, "a").values<std::int32_t>(), y = get(in, "b").values<std::int32_t>();
            std::vector<std::int32_t> c(x.size());
            for (std::size_t i = 0; i < x.size(); ++i)
                c[i] = static_cast<std::int32_t>(static_cast<std::int64_t>(x[i]) + y[i]); // int64 sum, truncated
            return tensors("c", Tensor::from(shape, c));
        };
        return DesignInstance(Program(dev, rt, {w}, "vector_vector_add"),
                              {ArgSpec::input("a", vec_ty), ArgSpec::input("b", vec_ty), ArgSpec::output("c", vec_ty)},
                              tensors("a", Tensor::from(vec_ty.shape, a), "b", Tensor::from(vec_ty.shape, b)),
                              reference, "vector_vector_add");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_vector_vector_add, 40);

} // namespace npusim::examples

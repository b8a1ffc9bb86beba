// E4 basic/vector_vector_add: out = in0 + in1, computed by the core body itself (no external
// kernel, like IRON's transform_binary with a lambda). Golden: exact a + b (int32 wraparound).
#include "Design.hpp"

namespace npusim::examples {

using namespace npusim::iron;

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
                // vector_vector_add.py's core_body: for _ in range_(N_div_n), then
                // for i in range_(n): elem_out[i] = elem_in1[i] + elem_in2[i] (memref.load, arith.addi,
                // memref.store; three element accesses, core_element_access_cycles each).
                range_(tiles, [&](std::int64_t) {
                    auto ea = a.acquire(1), eb = b.acquire(1), ec = c.acquire(1);
                    range_(ec.elements(), [&](std::int64_t j) {
                        const auto x = static_cast<std::uint32_t>(ea.at<std::int32_t>(j));
                        const auto y = static_cast<std::uint32_t>(eb.at<std::int32_t>(j));
                        ec.at<std::int32_t>(j) = static_cast<std::int32_t>(x + y);
                    });
                    a.release(1);
                    b.release(1);
                    c.release(1);
                });
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

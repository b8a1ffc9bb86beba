// E5 basic/vector_reduce_max/single_core_designs/vector_reduce_max.py (IRON algorithms.reduce):
// one worker reduces the whole input, one fifo object, to its maximum.
//   fifos `in` i32[size] d2, `out` i32[1] d2
//   worker: acquire out, acquire in, reduce_max_vector(in, out, size), release in, release out
// Golden: out = [in.max()], input drawn in [-1000, 1000) from the seed.
// Kernels: the reference reduce_max_vector_i32 (kernels_ref/) or, with KernelSet::aie, the AIE-API
// source (kernels_ref/aie/reduce_max.cc).
#include "Design.hpp"
#include "ReduceMaxKernels.hpp"

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_vector_reduce_max() {
    DesignSpec s;
    s.name = "vector_reduce_max";
    s.description = "E5: max of an i32 vector on one core (reduce_max_vector), one object per run";
    s.params = {{"size", 2048, "i32 elements in the input (one fifo object; a multiple of 16, at least 128)"}};
    s.devices = every_device();
    // The build also binds the AIE-API kernel sources (BuildOptions::kernels == aie; tested in
    // tests/examples/Designs3_test.cpp); the registry does not list that build yet, because
    // tests/examples/Golden_test.cpp pins the list of designs that have one.
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string design = "vector_reduce_max";
        const auto size = p.at("size");
        reduce_max::require_vector_count(design, "size", size);
        const auto in_ty = tensor<std::int32_t>({size});
        const auto out_ty = tensor<std::int32_t>({1});
        ObjectFifo of_in(in_ty, "in", 2);
        ObjectFifo of_out(out_ty, "out", 2);
        const auto k = reduce_max::bind(o.kernels, size, 1);
        Worker w(
            [size](ObjectFifoHandle in, ObjectFifoHandle out, Kernel reduce_max_vector) {
                auto eo = out.acquire(1);
                auto ei = in.acquire(1);
                reduce_max_vector(ei, eo, static_cast<std::int32_t>(size));
                in.release(1);
                out.release(1);
            },
            fn_args(of_in.cons(), of_out.prod(), k.vector), {.name = "reduce_max"});
        Runtime rt(
            [](RuntimeData a, RuntimeData c, ObjectFifoHandle in, ObjectFifoHandle out) {
                in.fill(a);
                out.drain(c, {.wait = true});
            },
            fn_args(in_ty, out_ty, of_in.prod(), of_out.cons()));
        return DesignInstance(Program(dev, rt, {w}, design),
                              {ArgSpec::input("in", in_ty), ArgSpec::output("out", out_ty)},
                              tensors("in", Tensor::from(in_ty.shape, reduce_max::random_input(o.seed, size))),
                              reduce_max::golden, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_vector_reduce_max, 70);

} // namespace npusim::examples

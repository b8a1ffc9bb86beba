// IRON's algorithms.reduce (mlir-aie python/iron/algorithms/reduce.py reduce -> _reduce_gen) with
// the reduce_max kernel, as E5 vector_reduce_max uses it: the whole input (`size` int32) in one
// fifo object, one call reduce_max_vector(in, out, size), out i32[1]. Built by
// npusim::iron::algorithms::reduce; the kernel is the reference reduce_max_vector_i32 or, with
// KernelSet::aie, the AIE-API build (ReduceMaxKernels.hpp). Golden: std::max over the input, exact.
#include "Design.hpp"
#include "ReduceMaxKernels.hpp"
#include "npusim/algorithms/Transform.hpp"

#include <algorithm>

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_algorithm_reduce() {
    DesignSpec s;
    s.name = "reduce";
    s.description = "IRON algorithms.reduce(reduce_max, i32[size] -> i32[1]): the whole input in one kernel call";
    s.params = {{"size", 2048, "i32 elements (the kernel needs a multiple of 16, at least 128)"}};
    s.devices = every_device();
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::int64_t size = p.at("size");
        const auto in_ty = tensor<std::int32_t>({size});
        const auto out_ty = tensor<std::int32_t>({1});
        reduce_max::require_vector_count("reduce", "size", size);
        Program prog = algorithms::reduce(dev, reduce_max::bind(o.kernels, size, size).vector, in_ty, out_ty);
        const auto a = reduce_max::random_input(o.seed, size);
        auto reference = [](const Tensors& in) {
            const auto x = get(in, "a").values<std::int32_t>();
            return tensors("c", Tensor::from({1}, std::vector<std::int32_t>{*std::max_element(x.begin(), x.end())}));
        };
        return DesignInstance(std::move(prog), {ArgSpec::input("a", in_ty), ArgSpec::output("c", out_ty)},
                              tensors("a", Tensor::from(in_ty.shape, a)), reference, "reduce");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_algorithm_reduce, 211);

} // namespace npusim::examples

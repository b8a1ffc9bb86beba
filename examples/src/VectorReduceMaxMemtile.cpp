// E5 split/join variant: basic/vector_reduce_max/single_column_designs/vector_reduce_max_memtile.py.
// Four workers each reduce a quarter of every 2048-element object; the mem tile splits the input
// and joins the four partial maxima, which worker 0 reduces once more.
//   `of_in` i32[2048] -> cons().split([0,512,1024,1536], i32[512] x 4, names memA0..3)
//   `outC` i32[4], dims_to_stream [(1,2),(1,1)] (as upstream) <- prod().join([0,1,2,3], i32[1] x 4,
//       names memC0..3)
//   `of_out` i32[1]
//   Buffers nextC_i, tmp_i: i32[1] = INT32_MIN on worker i's tile
//   worker i: acquire memCi; (size/2048) x { acquire memAi; reduce_max_vector(memAi, tmp_i, 512);
//             compute_max(tmp_i, nextC_i, nextC_i); release memAi }; memCi[0] = nextC_i[0];
//             release memCi
//   worker 0 then: acquire of_out, acquire outC; reduce_max_scalar(outC, of_out, 4); release both.
// Golden: out = [in.max()], input drawn in [-1000, 1000) from the seed.
// Devices: two columns or more (see make_vector_reduce_max_memtile).
#include "Design.hpp"
#include "ReduceMaxKernels.hpp"
#include "npusim/model/Error.hpp"

#include <limits>

#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

namespace {
constexpr std::int64_t kCores = 4;
constexpr std::int64_t kMemElems = 2048; // elements per of_in object
constexpr std::int64_t kPerCore = kMemElems / kCores; // 512
} // namespace

DesignSpec make_vector_reduce_max_memtile() {
    DesignSpec s;
    s.name = "vector_reduce_max_memtile";
    s.description = "E5: max of an i32 vector on 4 cores, split and joined through a mem tile";
    s.params = {{"size", 131072, "i32 elements in the input (512 KiB; a multiple of 2048)"}};
    // Not on one-column devices: the four workers fill one column, and its compute-to-mem-tile
    // boundary has 4 southward stream connections for 5 southward flows (memC0..3 and of_out).
    // Upstream runs it on NPU1Col2 / NPU2Col2.
    for (const auto& d : model::all_devices())
        if (d.cols >= 2) s.devices.push_back(d.name);
    // The build also binds the AIE-API kernel sources (BuildOptions::kernels == aie; tested in
    // tests/examples/Designs3_test.cpp); the registry does not list that build yet, because
    // tests/examples/Golden_test.cpp pins the list of designs that have one.
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string design = "vector_reduce_max_memtile";
        const auto size = p.at("size");
        if (size <= 0 || size % kMemElems != 0)
            throw DesignError(
                fmt::format("design '{}': parameter size={} must be a positive multiple of {} (one of_in object)",
                            design, size, kMemElems));
        const std::int64_t num_iter = size / kMemElems;
        const auto in_ty = tensor<std::int32_t>({size});
        const auto mem_ty = tensor<std::int32_t>({kMemElems});
        const auto op_ty = tensor<std::int32_t>({kPerCore});
        const auto out_ty = tensor<std::int32_t>({1});
        const auto int_ty = tensor<std::int32_t>({kCores});

        ObjectFifo of_in(mem_ty, "of_in");
        ObjectFifo outC(int_ty, "outC", 2, {.dims_to_stream = {{1, 2}, {1, 1}}});
        ObjectFifo of_out(out_ty, "of_out");
        std::vector<std::int64_t> a_offsets, c_offsets;
        std::vector<std::string> a_names, c_names;
        for (std::int64_t i = 0; i < kCores; ++i) {
            a_offsets.push_back(kPerCore * i);
            c_offsets.push_back(i);
            a_names.push_back(fmt::format("memA{}", i));
            c_names.push_back(fmt::format("memC{}", i));
        }
        const auto in_fifos =
            of_in.cons().split(a_offsets, {.obj_types = std::vector<TensorType>(kCores, op_ty), .names = a_names});
        const auto out_fifos =
            outC.prod().join(c_offsets, {.obj_types = std::vector<TensorType>(kCores, out_ty), .names = c_names});
        const auto k = reduce_max::bind(o.kernels, kPerCore, kCores);
        const std::vector<std::int32_t> min_val{std::numeric_limits<std::int32_t>::min()};

        // The part every worker runs: the running max over its segments into memC_i.
        auto partial = [num_iter](ObjectFifoHandle a, ObjectFifoHandle c, const Kernel& reduce_max_vector,
                                  const Kernel& compute_max, const Buffer& next, const Buffer& tmp) {
            auto elem_out = c.acquire(1);
            for (std::int64_t it = 0; it < num_iter; ++it) {
                auto elem_in = a.acquire(1);
                reduce_max_vector(elem_in, tmp.view(), static_cast<std::int32_t>(kPerCore));
                compute_max(tmp.view(), next.view(), next.view());
                a.release(1);
            }
            // elem_out[0] = nextC[0]: a load and a store, core_element_access_cycles each.
            elem_out.at<std::int32_t>(0) = next.at<std::int32_t>(0);
            c.release(1);
        };

        std::vector<Worker> workers;
        for (std::int64_t i = 0; i < kCores; ++i) {
            const auto ui = static_cast<std::size_t>(i);
            Buffer next = Buffer::with_values(out_ty, fmt::format("nextC_{}", i), min_val);
            Buffer tmp = Buffer::with_values(out_ty, fmt::format("tmp_{}", i), min_val);
            const std::string name = fmt::format("reduce_max_{}", i);
            if (i != 0) {
                workers.emplace_back([partial](ObjectFifoHandle a, ObjectFifoHandle c, Kernel vec, Kernel cmp,
                                               Buffer nx, Buffer tp) { partial(a, c, vec, cmp, nx, tp); },
                                     fn_args(in_fifos[ui].cons(), out_fifos[ui].prod(), k.vector, k.combine, next, tmp),
                                     WorkerOptions{.name = name});
            } else {
                workers.emplace_back(
                    [partial](ObjectFifoHandle a, ObjectFifoHandle c, ObjectFifoHandle joined, ObjectFifoHandle out,
                              Kernel vec, Kernel sca, Kernel cmp, Buffer nx, Buffer tp) {
                        partial(a, c, vec, cmp, nx, tp);
                        auto eo = out.acquire(1);
                        auto ei = joined.acquire(1);
                        sca(ei, eo, static_cast<std::int32_t>(kCores));
                        joined.release(1);
                        out.release(1);
                    },
                    fn_args(in_fifos[ui].cons(), out_fifos[ui].prod(), outC.cons(), of_out.prod(), k.vector, k.scalar,
                            k.combine, next, tmp),
                    WorkerOptions{.name = name});
            }
        }
        Runtime rt(
            [](RuntimeData a, RuntimeData c, ObjectFifoHandle in, ObjectFifoHandle out) {
                in.fill(a);
                out.drain(c, {.wait = true});
            },
            fn_args(in_ty, out_ty, of_in.prod(), of_out.cons()));
        return DesignInstance(Program(dev, rt, workers, design),
                              {ArgSpec::input("in", in_ty), ArgSpec::output("out", out_ty)},
                              tensors("in", Tensor::from(in_ty.shape, reduce_max::random_input(o.seed, size))),
                              reduce_max::golden, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_vector_reduce_max_memtile, 80);

} // namespace npusim::examples

// A design whose output changes from one invocation to the next, as on the NPU when a loaded
// design is run again (XRT's run_iters / warm-up runs): the worker keeps a running object count in
// a Buffer, which persists in tile memory across invocations (the xclbin path loads the array
// configuration once). Each invocation fills N elements in objects of n and drains N; object j
// (counted since the design was loaded) comes back with j added to every element.
// Golden at invocation k: out[m*n + i] = in[m*n + i] + k*(N/n) + m.
#include "Design.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_invocation_counter() {
    DesignSpec s;
    s.name = "invocation_counter";
    s.description = "state that persists across invocations: a worker counts objects in a Buffer (try --iters)";
    s.params = {{"N", 1024, "elements per invocation"}, {"n", 256, "elements per object (divides N)"}};
    s.devices = every_device();
    s.kernels_note = "no kernel: the worker body adds the count";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& bo) {
        const std::string design = "invocation_counter";
        const auto N = p.at("N"), n = p.at("n");
        if (N <= 0 || n <= 0 || N % n != 0)
            throw DesignError(fmt::format("design '{}': n={} must divide N={}", design, n, N));
        const auto obj = tensor<std::int32_t>({n});
        const auto all = tensor<std::int32_t>({N});
        ObjectFifo of_in(obj, "of_in", 2), of_out(obj, "of_out", 2);
        Buffer count = Buffer::with_values(tensor<std::int32_t>({1}), "count", std::vector<std::int32_t>{0});
        Worker w(
            [n](ObjectFifoHandle in, ObjectFifoHandle out, Buffer c) {
                auto a = in.acquire(1);
                auto b = out.acquire(1);
                // Element by element in the body (memref.load / arith.addi / memref.store), each
                // access core_element_access_cycles; the adds wrap as the core's adder.
                range_(n, [&](std::int64_t i) {
                    const auto x = static_cast<std::uint32_t>(a.at<std::int32_t>(i));
                    const auto k = static_cast<std::uint32_t>(c.at<std::int32_t>(0));
                    b.at<std::int32_t>(i) = static_cast<std::int32_t>(x + k);
                });
                const auto k = static_cast<std::uint32_t>(c.at<std::int32_t>(0));
                c.at<std::int32_t>(0) = static_cast<std::int32_t>(k + 1U);
                in.release(1);
                out.release(1);
            },
            fn_args(of_in.cons(), of_out.prod(), count), {.name = "counter"});
        Runtime rt(
            [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                i.fill(a);
                o.drain(b, {.wait = true});
            },
            fn_args(all, all, of_in.prod(), of_out.cons()));
        std::mt19937 rng(static_cast<std::uint32_t>(bo.seed));
        std::vector<std::int32_t> in(static_cast<std::size_t>(N));
        for (auto& x : in) x = static_cast<std::int32_t>(rng() % 100000);
        auto at = [N, n, shape = all.shape](const Tensors& t, std::uint32_t k) {
            auto v = get(t, "in").values<std::int32_t>();
            const std::int64_t objects = N / n;
            for (std::int64_t e = 0; e < N; ++e)
                v[static_cast<std::size_t>(e)] += static_cast<std::int32_t>(k * objects + e / n);
            return tensors("out", Tensor::from(shape, v));
        };
        DesignInstance inst(
            Program(dev, rt, {w}, design), {ArgSpec::input("in", all), ArgSpec::output("out", all)},
            tensors("in", Tensor::from(all.shape, in)), [at](const Tensors& t) { return at(t, 0); }, design);
        inst.reference_at = at;
        return inst;
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_invocation_counter, 130);

} // namespace npusim::examples

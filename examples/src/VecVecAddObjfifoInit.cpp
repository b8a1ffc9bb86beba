// mlir-aie test/npu-xrt/vec_vec_add_objfifo_init/aie2.py: operand in1 = arange(1, N + 1) is the
// init_values of a fifo produced by a mem-tile endpoint (one object of N, no repeat); in2 comes
// from the host in objects of n; the worker holds in1 for a whole pass and adds it slice by slice.
// Golden: c = arange(1, N + 1) + b.
#include "Design.hpp"
#include "npusim/model/Error.hpp"

#include <cstring>
#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_vec_vec_add_objfifo_init() {
    DesignSpec s;
    s.name = "vec_vec_add_objfifo_init";
    s.description = "c = in1 + b where in1 is a mem-tile endpoint's init_values (no host transfer)";
    s.params = {{"N", 256, "elements"}, {"n", 16, "elements per object of b and c (divides N)"}};
    s.devices = every_device();
    s.kernels_note = "no kernel: the worker body adds";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& bo) {
        const std::string design = "vec_vec_add_objfifo_init";
        const auto N = p.at("N"), n = p.at("n");
        if (N <= 0 || n <= 0 || N % n != 0)
            throw DesignError(fmt::format("design '{}': n={} must divide N={}", design, n, N));
        const auto all = tensor<std::int32_t>({N});
        const auto tile = tensor<std::int32_t>({n});
        std::vector<std::int32_t> init(static_cast<std::size_t>(N));
        for (std::int64_t i = 0; i < N; ++i) init[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(i + 1);
        std::vector<std::uint8_t> init_bytes(init.size() * 4);
        std::memcpy(init_bytes.data(), init.data(), init_bytes.size());
        ObjectFifo of_in1(all, "in1", 1, {.init_values = {init_bytes}});
        of_in1.prod().set_endpoint(AnyMemTile);
        ObjectFifo of_in2(tile, "in2", 2), of_out(tile, "out", 2);
        Worker w(
            [N, n](ObjectFifoHandle in1, ObjectFifoHandle in2, ObjectFifoHandle out) {
                // As upstream's core body: for j in range_(N_div_n): ... for i in range_(n):
                // out[i] = in1[j * n + i] + in2[i] (the index computed with arith.muli / arith.addi).
                auto a = in1.acquire(1);
                range_(N / n, [&](std::int64_t j) {
                    auto b = in2.acquire(1);
                    auto c = out.acquire(1);
                    range_(n, [&](std::int64_t i) {
                        const auto x = static_cast<std::uint32_t>(a.at<std::int32_t>(j * n + i));
                        const auto y = static_cast<std::uint32_t>(b.at<std::int32_t>(i));
                        c.at<std::int32_t>(i) = static_cast<std::int32_t>(x + y);
                    });
                    in2.release(1);
                    out.release(1);
                });
                in1.release(1);
            },
            fn_args(of_in1.cons(), of_in2.cons(), of_out.prod()), {.name = "add"});
        Runtime rt(
            [](RuntimeData b, RuntimeData c, ObjectFifoHandle i2, ObjectFifoHandle o) {
                i2.fill(b);
                o.drain(c, {.wait = true});
            },
            fn_args(all, all, of_in2.prod(), of_out.cons()));
        std::mt19937 rng(static_cast<std::uint32_t>(bo.seed));
        std::vector<std::int32_t> b(static_cast<std::size_t>(N));
        for (auto& v : b) v = static_cast<std::int32_t>(rng() % 1000000);
        auto reference = [shape = all.shape](const Tensors& t) {
            auto c = get(t, "b").values<std::int32_t>();
            for (std::size_t i = 0; i < c.size(); ++i) c[i] += static_cast<std::int32_t>(i + 1);
            return tensors("c", Tensor::from(shape, c));
        };
        return DesignInstance(Program(dev, rt, {w}, design), {ArgSpec::input("b", all), ArgSpec::output("c", all)},
                              tensors("b", Tensor::from(all.shape, b)), reference, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_vec_vec_add_objfifo_init, 150);

} // namespace npusim::examples

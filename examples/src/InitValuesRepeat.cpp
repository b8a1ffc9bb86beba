// mlir-aie test/npu-xrt/objectfifo_repeat/init_values_repeat/aie2.py: fifo `in` is produced by a
// mem-tile endpoint holding one initial object arange(1, N + 1) (IRON:
// `of.prod().endpoint = ObjectFifoEndpoint(AnyMemTile)`, here `set_endpoint`), with
// repeat_count 4: the mem tile sends it four times. A worker copies each object to `out`; the
// runtime drains N x 4. Lowered as createMemTileDMA does: one MM2S BD with a hardware repeat of 3,
// cons lock starting at 4 (docs/resolve.md). Golden: arange(1, N + 1) tiled 4 times.
#include "Design.hpp"
#include "npusim/model/Error.hpp"

#include <cstring>
#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_init_values_repeat() {
    DesignSpec s;
    s.name = "init_values_repeat";
    s.description = "a mem-tile endpoint sends its init_values 4 times (repeat_count) through a copy worker";
    s.params = {{"N", 4096, "elements of the initial object"}, {"repeat", 4, "repeat_count (1..256)"}};
    s.devices = every_device();
    s.kernels_note = "no kernel: the worker body copies";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions&) {
        const std::string design = "init_values_repeat";
        const auto N = p.at("N"), R = p.at("repeat");
        if (N <= 0 || R < 1 || R > 256)
            throw DesignError(fmt::format("design '{}': N={} must be positive and repeat={} in 1..256", design, N, R));
        const auto obj = tensor<std::int32_t>({N});
        const auto out_ty = tensor<std::int32_t>({N * R});
        std::vector<std::int32_t> init(static_cast<std::size_t>(N));
        for (std::int64_t i = 0; i < N; ++i) init[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(i + 1);
        std::vector<std::uint8_t> init_bytes(init.size() * 4);
        std::memcpy(init_bytes.data(), init.data(), init_bytes.size());
        ObjectFifo of_in(obj, "in", 1, {.repeat_count = static_cast<int>(R), .init_values = {init_bytes}});
        of_in.prod().set_endpoint(AnyMemTile);
        ObjectFifo of_out(obj, "out", 1);
        Worker w(
            [N](ObjectFifoHandle in, ObjectFifoHandle out) {
                auto a = in.acquire(1);
                auto b = out.acquire(1);
                // The upstream core copies element by element: for i in range_(N): b[i] = a[i].
                range_(N, [&](std::int64_t i) { b.at<std::int32_t>(i) = a.at<std::int32_t>(i); });
                out.release(1);
                in.release(1);
            },
            fn_args(of_in.cons(), of_out.prod()), {.name = "copy"});
        Runtime rt([](RuntimeData c, ObjectFifoHandle o) { o.drain(c, {.wait = true}); },
                   fn_args(out_ty, of_out.cons()));
        auto reference = [N, R, shape = out_ty.shape](const Tensors&) {
            std::vector<std::int32_t> c(static_cast<std::size_t>(N * R));
            for (std::int64_t k = 0; k < N * R; ++k)
                c[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(k % N + 1);
            return tensors("c", Tensor::from(shape, c));
        };
        return DesignInstance(Program(dev, rt, {w}, design), {ArgSpec::output("c", out_ty)}, {}, reference, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_init_values_repeat, 140);

} // namespace npusim::examples

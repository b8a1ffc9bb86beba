// basic/tiling_exploration/per_tile/per_tile.py: a worker writes 0, 1, 2, ... into each object of
// one fifo, counting in a Buffer that persists across iterations; the runtime sequence drains one
// tile of the output per task (TensorTiler2D.simple_tiler((H, W), (th, tw)), tiles row-major),
// every drain wait=True in the implicit task group. With the defaults that is 16 drains pushed
// before any await: mlir-aie runs it on hardware (its run.lit / run_strix.lit), so the shim task
// queue must not overflow - each small drain retires before the command processor's next push.
// Golden: element (r, c) holds its position in tile-major order (the tiler's access_order).
#include "Design.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_per_tile() {
    DesignSpec s;
    s.name = "per_tile";
    s.description = "tiling_exploration/per_tile: one drain per tile (16 in one task group), a counter Buffer";
    s.params = {{"H", 8, "tensor height"},
                {"W", 8, "tensor width"},
                {"th", 2, "tile height (divides H)"},
                {"tw", 2, "tile width (divides W)"}};
    s.devices = every_device();
    s.kernels_note = "no kernel: the worker body writes the counter";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions&) {
        const std::string design = "per_tile";
        const auto H = p.at("H"), W = p.at("W"), th = p.at("th"), tw = p.at("tw");
        if (H <= 0 || W <= 0 || th <= 0 || tw <= 0 || H % th != 0 || W % tw != 0)
            throw DesignError(
                fmt::format("design '{}': tiles {}x{} must divide the tensor {}x{}", design, th, tw, H, W));
        const auto tensor_ty = tensor<std::int32_t>({H * W});
        const auto tile_ty = tensor<std::int32_t>({th * tw});
        ObjectFifo of_out(tile_ty, "of_out", 2);
        Buffer counter = Buffer::with_values(tensor<std::int32_t>({1}), "access_counter", std::vector<std::int32_t>{0});
        Worker worker(
            [n = th * tw](ObjectFifoHandle out, Buffer c) {
                auto e = out.acquire(1);
                // for i in range_(n): elem[i] = counter[0]; counter[0] = counter[0] + 1
                range_(n, [&](std::int64_t i) {
                    const std::int32_t k = c.at<std::int32_t>(0);
                    e.at<std::int32_t>(i) = k;
                    c.at<std::int32_t>(0) = static_cast<std::int32_t>(static_cast<std::uint32_t>(k) + 1U);
                });
                out.release(1);
            },
            fn_args(of_out.prod(), counter), {.name = "access_order"});
        std::vector<TensorAccessPattern> tiles;
        for (std::int64_t r = 0; r < H / th; ++r)
            for (std::int64_t c = 0; c < W / tw; ++c)
                tiles.emplace_back(std::vector<std::int64_t>{H, W}, r * th * W + c * tw,
                                   std::vector<std::int64_t>{1, 1, th, tw}, std::vector<std::int64_t>{0, 0, W, 1});
        Runtime rt(
            [tiles](RuntimeData out, ObjectFifoHandle h) {
                for (const auto& t : tiles) h.drain(out, {.tap = t, .wait = true});
            },
            fn_args(tensor_ty, of_out.cons()));
        auto reference = [H, W, th, tw, shape = tensor_ty.shape](const Tensors&) {
            std::vector<std::int32_t> want(static_cast<std::size_t>(H * W));
            std::int32_t k = 0;
            for (std::int64_t r = 0; r < H / th; ++r)
                for (std::int64_t c = 0; c < W / tw; ++c)
                    for (std::int64_t i = 0; i < th; ++i)
                        for (std::int64_t j = 0; j < tw; ++j)
                            want[static_cast<std::size_t>((r * th + i) * W + c * tw + j)] = k++;
            return tensors("tensor_out", Tensor::from(shape, want));
        };
        return DesignInstance(Program(dev, rt, {worker}, design), {ArgSpec::output("tensor_out", tensor_ty)}, {},
                              reference, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_per_tile, 120);

} // namespace npusim::examples

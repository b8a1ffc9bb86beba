// E13 ml/eltwise_unary with op=relu (mlir-aie eltwise_unary.py @ 3ca0193c, L49-64): b = max(a, 0)
// over `size` bf16 elements, through IRON's transform_parallel (python/iron/algorithms/
// _transform.py _transform_parallel_gen, L220-512): one worker per column and channel (L419-432),
// each with its own input fifo `in0_{col}` / `in0_{col}_{chan}` and output fifo `out_{col}` /
// `out_{col}_{chan}` of 1024-element tiles (L322-349), applying the relu kernel to each tile
// (L393-414); the sequence fills every path's disjoint contiguous range in one TaskGroup, finishes
// it, then drains every path with wait in a second (L469-501). Path w = col * channels + chan
// covers elements [w * size / paths, (w + 1) * size / paths) (L438-448).
// IRON uses every column of the device (num_columns = device.cols, L303); `columns` can take fewer,
// for bandwidth scaling. channels is 1 or 2 (L19-29: two shim DMA channels per direction and
// column), 2 by default as in eltwise_unary.py. Workers are pinned one per (column, channel) to
// tile (col, 2 + chan) (IRON leaves them to the placer).
// Golden: a plain loop, b[i] = a[i] < 0 ? 0 : a[i] in bf16, exact (inputs uniform in [-3, 3) as
// eltwise_unary.py's _run_and_verify draws them, L86).
// Kernels: the reference relu_bf16 (kernels_ref/relu.hpp) or, with KernelSet::aie, the AIE-API
// source bf16_relu (kernels_ref/aie/relu.cc).
#include "npusim/kernels/relu.hpp"
#include "Design.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>

#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_relu() {
    DesignSpec s;
    s.name = "relu";
    s.description = "E13: ml/eltwise_unary relu, b = max(a, 0) in bf16, one worker per column and shim channel "
                    "(IRON transform_parallel); for bandwidth scaling over columns";
    s.params = {{"size", 65536, "bf16 elements (IRON --length; a multiple of 1024 x columns x channels)"},
                {"columns", 0, "columns used (0: every column of the device, as IRON)"},
                {"channels", 2, "shim channels per column and direction: 1 or 2 (IRON --channels)"}};
    s.devices = every_device();
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string design = "relu";
        constexpr std::int64_t kTile = kernels::kReluElements; // IRON tile_size=1024
        require_one_of(design, p, "channels", {1, 2});
        const std::int64_t size = p.at("size"), chans = p.at("channels");
        const std::int64_t cols = p.at("columns") ? p.at("columns") : dev.cols;
        if (cols < 1 || cols > dev.cols)
            throw DesignError(
                fmt::format("design '{}': parameter columns={} does not fit device {}, which has {} column{}", design,
                            cols, dev.name, dev.cols, dev.cols == 1 ? "" : "s"));
        const std::int64_t paths = cols * chans;
        if (size <= 0 || size % (kTile * paths) != 0)
            throw DesignError(fmt::format("design '{}': parameter size={} must be a positive multiple of {} "
                                          "(tile_size 1024 x columns={} x channels={})",
                                          design, size, kTile * paths, cols, chans));
        const std::int64_t per_path = size / paths;
        const auto tile_ty = tensor<bfloat16>({kTile});
        const auto tensor_ty = tensor<bfloat16>({size});
        std::vector<ArgType> types{tile_ty, tile_ty};
        auto cost = [](std::span<const KernelArg>) { return kernels::relu_bf16_cycles(kernels::kReluElements); };
        // IRON's relu kernel takes (in, out) only (pass_size_to_kernel=False); n is the fixed tile.
        void (*ref)(const bfloat16*, bfloat16*) =
            +[](const bfloat16* in, bfloat16* out) { kernels::relu_bf16(in, out, kernels::kReluElements); };
        void (*aie)(const bfloat16*, bfloat16*) =
            +[](const bfloat16* in, bfloat16* out) { aie_kernels::bf16_relu(in, out, kernels::kReluElements); };
        std::vector<ObjectFifo> ins, outs;
        std::vector<Worker> workers;
        for (std::int64_t c = 0; c < cols; ++c)
            for (std::int64_t ch = 0; ch < chans; ++ch) {
                const std::string sfx = chans == 1 ? fmt::format("{}", c) : fmt::format("{}_{}", c, ch);
                ins.emplace_back(tile_ty, "in0_" + sfx);
                outs.emplace_back(tile_ty, "out_" + sfx);
                // one kernel object per worker: each core has its own AIE-API mode state
                Kernel k = o.kernels == KernelSet::aie ? aie_kernel("bf16_relu", aie, types, cost)
                                                       : Kernel("bf16_relu", ref, types, cost);
                workers.emplace_back(
                    [tiles = per_path / kTile](ObjectFifoHandle in, ObjectFifoHandle out, Kernel relu) {
                        for (std::int64_t i = 0; i < tiles; ++i) {
                            auto ei = in.acquire(1);
                            auto eo = out.acquire(1);
                            relu(ei, eo);
                            in.release(1);
                            out.release(1);
                        }
                    },
                    fn_args(ins.back().cons(), outs.back().prod(), k),
                    WorkerOptions{.tile = Tile(static_cast<int>(c), static_cast<int>(2 + ch)), .name = "relu_" + sfx});
            }
        std::vector<ObjectFifoHandle> in_prods, out_conses;
        std::vector<TensorAccessPattern> taps;
        for (std::int64_t w = 0; w < paths; ++w) {
            in_prods.push_back(ins[static_cast<std::size_t>(w)].prod());
            out_conses.push_back(outs[static_cast<std::size_t>(w)].cons());
            taps.push_back(TensorAccessPattern({1, size}, per_path * w, {1, 1, 1, per_path}, {0, 0, 0, 1}));
        }
        Runtime rt(
            [taps](RuntimeData a, RuntimeData b, std::vector<ObjectFifoHandle> in, std::vector<ObjectFifoHandle> out) {
                TaskGroup tg_in;
                for (std::size_t w = 0; w < in.size(); ++w) in[w].fill(a, {.tap = taps[w], .group = &tg_in});
                tg_in.finish();
                TaskGroup tg_out;
                for (std::size_t w = 0; w < out.size(); ++w)
                    out[w].drain(b, {.tap = taps[w], .wait = true, .group = &tg_out});
                tg_out.finish();
            },
            fn_args(tensor_ty, tensor_ty, in_prods, out_conses));
        std::mt19937_64 rng(o.seed);
        std::vector<bfloat16> a(static_cast<std::size_t>(size));
        for (auto& x : a) x = bfloat16(static_cast<float>(static_cast<double>(rng() >> 11) * 0x1.0p-53 * 6.0 - 3.0));
        auto reference = [](const Tensors& t) { // golden: an independent plain loop
            const auto in = get(t, "a").values<bfloat16>();
            std::vector<bfloat16> b(in.size());
            for (std::size_t i = 0; i < in.size(); ++i) b[i] = float(in[i]) < 0.0f ? bfloat16(0.0f) : in[i];
            return tensors("b", Tensor::from({static_cast<std::int64_t>(b.size())}, b));
        };
        return DesignInstance(Program(dev, rt, workers, design),
                              {ArgSpec::input("a", tensor_ty), ArgSpec::output("b", tensor_ty)},
                              tensors("a", Tensor::from(tensor_ty.shape, a)), reference, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_relu, 115);

} // namespace npusim::examples

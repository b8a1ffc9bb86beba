// E13 ml/softmax (mlir-aie programming_examples/ml/softmax/softmax.py, the @iron.jit softmax):
// a bf16 softmax of every 1024-element tile of a `size`-element vector, through IRON's
// transform_parallel (python/iron/algorithms/_transform.py _transform_parallel_gen) with
// num_channels 2 and pass_size_to_kernel=True: one worker per column and channel over every column
// of the device (num_columns = device.cols), each with its fifos in0_{col}_{chan} / out_{col}_{chan}
// of 1024 bf16 (in0_{col} / out_{col} with one channel), calling softmax_bf16(in, out, 1024) per
// tile; the sequence fills every path's contiguous range in one TaskGroup, finishes it, then
// drains every path with wait in a second. Path w = col * channels + chan covers elements
// [w * size / paths, (w + 1) * size / paths). Workers are pinned to tile (col, 2 + chan) as relu.
// Golden: kernels.softmax_ref (python/iron/kernels/activation.py): per tile, in float32, subtract
// the maximum, exp, divide by the sum, cast to bf16; inputs uniform in [-4, 8) as _run_and_verify
// draws them; the output matches within rtol 0.128 (assert_pass(..., rtol=0.128)).
// Kernel: the device generation's softmax.cc as reference C++ (kernels_ref/softmax_lut.hpp): on
// AIE2 (npu1) softmax_lut_bf16, the table exp of aie_kernels/aie2/softmax.cc without max
// subtraction; on AIE2P (npu2) softmax_exp2_bf16, aie_kernels/aie2p/softmax.cc's exp2 with the
// maximum subtracted. With KernelSet::aie, the AIE-API builds of the same sources
// (kernels_ref/aie/softmax.cc: softmax_bf16_aie2 / softmax_bf16_aie2p, through the host layer's
// parallel_lookup, exp2 and inv), which compute the reference kernels' bits.
#include "Design.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/softmax_lut.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_softmax() {
    DesignSpec s;
    s.name = "softmax";
    s.description = "E13: ml/softmax, bf16 softmax of each 1024-element tile, one worker per column and shim channel "
                    "on every column (IRON transform_parallel); AIE2's table exp, AIE2P's exp2";
    s.params = {{"size", 262144, "bf16 elements (IRON --length; a multiple of 1024 x columns x channels)"},
                {"channels", 2, "shim channels per column and direction: 1 or 2 (IRON --channels)"}};
    s.devices = every_device();
    // verify.py assert_pass compares with nearly_equal (python/utils/verify.py:89).
    s.tolerance = ToleranceMode::nearly_equal;
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.kernels_note =
        "reference softmax_lut_bf16 (AIE2) / softmax_exp2_bf16 (AIE2P), kernels_ref/softmax_lut.hpp; AIE-API "
        "softmax_bf16_aie2 / softmax_bf16_aie2p (kernels_ref/aie/softmax.cc)";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string design = "softmax";
        constexpr std::int64_t kTile = kernels::kSoftmaxElements;
        require_one_of(design, p, "channels", {1, 2});
        const std::int64_t size = p.at("size"), chans = p.at("channels"), cols = dev.cols;
        const std::int64_t paths = cols * chans;
        if (size <= 0 || size % (kTile * paths) != 0)
            throw DesignError(fmt::format("design '{}': parameter size={} must be a positive multiple of {} "
                                          "(tile_size 1024 x columns={} x channels={})",
                                          design, size, kTile * paths, cols, chans));
        const std::int64_t per_path = size / paths;
        const auto tile_ty = tensor<bfloat16>({kTile});
        const auto tensor_ty = tensor<bfloat16>({size});
        const std::vector<ArgType> types{tile_ty, tile_ty, scalar<std::int32_t>()};
        auto cost = [](std::span<const KernelArg> a) {
            return kernels::softmax_lut_bf16_cycles(static_cast<std::int32_t>(a[2].ivalue));
        };
        auto cost_aie2p = [](std::span<const KernelArg> a) {
            return kernels::softmax_exp2_bf16_cycles(static_cast<std::int32_t>(a[2].ivalue));
        };
        const bool aie2p = dev.arch == model::Arch::AIE2P;
        const bool aie = o.kernels == KernelSet::aie;
        auto make_kernel = [&] {
            if (aie)
                return aie2p ? aie_kernel("softmax_bf16", &aie_kernels::softmax_bf16_aie2p, types, cost_aie2p)
                             : aie_kernel("softmax_bf16", &aie_kernels::softmax_bf16_aie2, types, cost);
            return aie2p ? Kernel("softmax_bf16", &kernels::softmax_exp2_bf16, types, cost_aie2p)
                         : Kernel("softmax_bf16", &kernels::softmax_lut_bf16, types, cost);
        };
        std::vector<ObjectFifo> ins, outs;
        std::vector<Worker> workers;
        for (std::int64_t c = 0; c < cols; ++c)
            for (std::int64_t ch = 0; ch < chans; ++ch) {
                const std::string sfx = chans == 1 ? fmt::format("{}", c) : fmt::format("{}_{}", c, ch);
                ins.emplace_back(tile_ty, "in0_" + sfx);
                outs.emplace_back(tile_ty, "out_" + sfx);
                Kernel k = make_kernel();
                workers.emplace_back(
                    [tiles = per_path / kTile](ObjectFifoHandle in, ObjectFifoHandle out, Kernel softmax) {
                        for (std::int64_t i = 0; i < tiles; ++i) {
                            auto ei = in.acquire(1);
                            auto eo = out.acquire(1);
                            softmax(ei, eo, static_cast<std::int32_t>(kTile)); // pass_size_to_kernel
                            in.release(1);
                            out.release(1);
                        }
                    },
                    fn_args(ins.back().cons(), outs.back().prod(), k),
                    WorkerOptions{.tile = Tile(static_cast<int>(c), static_cast<int>(2 + ch)),
                                  .name = "softmax_" + sfx});
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
        for (auto& x : a) x = bfloat16(static_cast<float>(static_cast<double>(rng() >> 11) * 0x1.0p-53 * 12.0 - 4.0));
        auto reference = [](const Tensors& t) { // softmax_ref: float32 per 1024-element tile
            const auto in = get(t, "a").values<bfloat16>();
            std::vector<bfloat16> b(in.size());
            for (std::size_t base = 0; base < in.size(); base += kTile) {
                float mx = -INFINITY;
                for (std::size_t i = 0; i < kTile; ++i) mx = std::max(mx, float(in[base + i]));
                std::vector<float> e(kTile);
                float sum = 0;
                for (std::size_t i = 0; i < kTile; ++i) sum += (e[i] = std::exp(float(in[base + i]) - mx));
                for (std::size_t i = 0; i < kTile; ++i) b[base + i] = bfloat16(e[i] / sum);
            }
            return tensors("b", Tensor::from({static_cast<std::int64_t>(b.size())}, b));
        };
        return DesignInstance(Program(dev, rt, workers, design),
                              {ArgSpec::input("a", tensor_ty), ArgSpec::output("b", tensor_ty, 0.128, 0.0)},
                              tensors("a", Tensor::from(tensor_ty.shape, a)), reference, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_softmax, 190);

} // namespace npusim::examples

// E13 ml/swiglu (mlir-aie programming_examples/ml/swiglu/swiglu.py @ 3ca0193, the @iron.jit swiglu):
// b = (a * w1) * silu(a * w2) over `size` bf16 elements, one worker per column (num_columns, 4 by
// default), each with fifos in{i} (1024 bf16, depth 2), w{i} (1024 bf16, depth 4) and out{i}; per
// 1024-element line the worker acquires one input, two weight objects (w1's line, then w2's) and one
// output and calls kernels.swiglu(tile_size=1024): swiglu_bf16(in, w1, w2, out). The host packs the
// weights interleaved, w = [w1[0:1024], w2[0:1024], w1[1024:2048], ...] (2 x size elements); column i
// reads a[i*chunk, (i+1)*chunk) and w[2*i*chunk, 2*(i+1)*chunk), chunk = size / num_columns
// (TensorTiler2D.simple_tiler). One TaskGroup: every fill, then every drain with wait, then finish.
// IRON's worker body runs once per while_true iteration; here it loops over the column's lines.
// Golden: _run_and_verify: inputs and both weights uniform in [-1, 1) (bf16), expected
// ((x * w1) * (x * w2) / (1 + exp(-(x * w2)))) in float32 cast to bf16, assert_pass(rtol=0.128).
// Kernel: the generation's swiglu.cc (aie2/ on npu1: run.lit; aie2p/ on npu2: run_strix.lit) through
// npusim's kernel library (harness KernelLibrary swiglu: reference kernels_ref/activation_tanh.hpp, or
// with KernelSet::aie the AIE-API build kernels_ref/aie/activation_tanh.cc).
#include "Design.hpp"
#include "npusim/harness/KernelLibrary.hpp"
#include "npusim/kernels/activation_tanh.hpp"
#include "npusim/model/Error.hpp"

#include <cmath>
#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_swiglu() {
    DesignSpec s;
    s.name = "swiglu";
    s.description = "E13: ml/swiglu, b = (a*w1) * silu(a*w2) in bf16 with interleaved weights, one worker per "
                    "column (IRON kernels.swiglu; AIE2's getTanhBf16, AIE2P's aie::tanh)";
    s.params = {{"size", 16384, "bf16 elements (IRON --length; a multiple of 1024 x columns)"},
                {"columns", 4, "columns used (IRON --columns)"}};
    s.devices = {"npu1", "npu2"};
    s.tolerance = ToleranceMode::nearly_equal; // assert_pass (python/utils/verify.py)
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.kernels_note = "swiglu_bf16 of npusim's kernel library (kernels_ref/activation_tanh.hpp; AIE-API "
                     "kernels_ref/aie/activation_tanh.cc)";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string design = "swiglu";
        constexpr std::int64_t kLine = kernels::kTanhActElements;
        const std::int64_t size = p.at("size"), cols = p.at("columns");
        if (cols < 1 || cols > dev.cols)
            throw DesignError(fmt::format("design '{}': parameter columns={} exceeds device {}'s {} columns (or is "
                                          "below 1)",
                                          design, cols, dev.name, dev.cols));
        if (size <= 0 || size % (kLine * cols) != 0)
            throw DesignError(fmt::format("design '{}': parameter size={} must be a positive multiple of {} "
                                          "(1024-element lines x columns={})",
                                          design, size, kLine * cols, cols));
        const std::int64_t chunk = size / cols;
        const auto line_ty = tensor<bfloat16>({kLine});
        const auto tensor_ty = tensor<bfloat16>({size});
        const auto wts_ty = tensor<bfloat16>({2 * size});
        std::vector<ObjectFifo> ins, wts, outs;
        std::vector<Worker> workers;
        for (std::int64_t c = 0; c < cols; ++c) {
            ins.emplace_back(line_ty, fmt::format("in{}", c));
            wts.emplace_back(line_ty, fmt::format("w{}", c), 4);
            outs.emplace_back(line_ty, fmt::format("out{}", c));
            // one kernel per worker: each core keeps its own AIE-API modes
            Kernel k = harness::iron_kernels::swiglu(dev.arch, kLine, o.kernels);
            workers.emplace_back(
                [lines = chunk / kLine](ObjectFifoHandle in, ObjectFifoHandle w, ObjectFifoHandle out, Kernel swiglu) {
                    for (std::int64_t i = 0; i < lines; ++i) {
                        auto eo = out.acquire(1);
                        auto ei = in.acquire(1);
                        auto ew = w.acquire(2);
                        swiglu(ei, ew[0], ew[1], eo);
                        w.release(2);
                        in.release(1);
                        out.release(1);
                    }
                },
                fn_args(ins.back().cons(), wts.back().cons(), outs.back().prod(), k));
        }
        std::vector<ObjectFifoHandle> in_prods, wts_prods, out_conses;
        std::vector<TensorAccessPattern> taps, taps_w;
        for (std::int64_t c = 0; c < cols; ++c) {
            const auto i = static_cast<std::size_t>(c);
            in_prods.push_back(ins[i].prod());
            wts_prods.push_back(wts[i].prod());
            out_conses.push_back(outs[i].cons());
            taps.push_back(TensorAccessPattern({1, size}, chunk * c, {1, 1, 1, chunk}, {0, 0, 0, 1}));
            taps_w.push_back(TensorAccessPattern({1, 2 * size}, 2 * chunk * c, {1, 1, 1, 2 * chunk}, {0, 0, 0, 1}));
        }
        Runtime rt(
            [taps, taps_w](RuntimeData a, RuntimeData w, RuntimeData b, std::vector<ObjectFifoHandle> in,
                           std::vector<ObjectFifoHandle> wp, std::vector<ObjectFifoHandle> out) {
                TaskGroup tg;
                for (std::size_t i = 0; i < in.size(); ++i) {
                    in[i].fill(a, {.tap = taps[i], .group = &tg});
                    wp[i].fill(w, {.tap = taps_w[i], .group = &tg});
                }
                for (std::size_t i = 0; i < out.size(); ++i)
                    out[i].drain(b, {.tap = taps[i], .wait = true, .group = &tg});
                tg.finish();
            },
            fn_args(tensor_ty, wts_ty, tensor_ty, in_prods, wts_prods, out_conses));
        std::mt19937_64 rng(o.seed);
        auto uniform = [&rng] { return bfloat16(static_cast<float>(static_cast<double>(rng() >> 11) * 0x1.0p-52 - 1.0)); };
        const auto n = static_cast<std::size_t>(size);
        std::vector<bfloat16> a(n), w1(n), w2(n), w(2 * n);
        for (auto& x : a) x = uniform();
        for (auto& x : w1) x = uniform();
        for (auto& x : w2) x = uniform();
        for (std::size_t i = 0; i < n; i += kLine) // the host's interleaving
            for (std::size_t j = 0; j < static_cast<std::size_t>(kLine); ++j) {
                w[2 * i + j] = w1[i + j];
                w[2 * i + kLine + j] = w2[i + j];
            }
        auto reference = [](const Tensors& t) { // _run_and_verify's float32 expectation
            const auto x = get(t, "a").values<bfloat16>();
            const auto wv = get(t, "w").values<bfloat16>();
            std::vector<bfloat16> b(x.size());
            for (std::size_t i = 0; i < x.size(); ++i) {
                const std::size_t line = i / kLine, j = i % kLine;
                const float g = float(x[i]) * float(wv[2 * line * kLine + j]);
                const float l = float(x[i]) * float(wv[2 * line * kLine + kLine + j]);
                b[i] = bfloat16(g * (l / (1.0f + std::exp(-l))));
            }
            return tensors("b", Tensor::from({static_cast<std::int64_t>(b.size())}, b));
        };
        return DesignInstance(Program(dev, rt, workers, design),
                              {ArgSpec::input("a", tensor_ty), ArgSpec::input("w", wts_ty),
                               ArgSpec::output("b", tensor_ty, 0.128, 0.0)},
                              tensors("a", Tensor::from(tensor_ty.shape, a), "w", Tensor::from(wts_ty.shape, w)),
                              reference, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_swiglu, 191);

} // namespace npusim::examples

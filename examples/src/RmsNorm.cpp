// E13 ml/norm with op=rms (mlir-aie programming_examples/ml/norm/norm.py @ 3ca0193, the @iron.jit
// norm): a row-wise RMSNorm of a sequence_length x embedding_dim bf16 matrix, out = x / sqrt(mean(x^2)
// + 1e-5) (gamma 1). NPU2 only, as upstream: aie2p/rms_norm.cc has no aie2 counterpart. Eight
// workers, each with fifos in_{i} / out_{i} of one row (embedding_dim bf16, depth 2), run
// rms_norm(in, out, embedding_dim) on sequence_length / 8 rows (a range_ loop); worker i gets rows
// [i * rows, (i + 1) * rows) (TensorTiler2D.simple_tiler). The sequence fills every input fifo, then
// drains every output with wait (no TaskGroup).
// Golden: _rms_norm_reference: float32 sqrt(sum(x^2) / cols + eps), x / rms cast to bf16; inputs
// uniform in [-1, 1) (bf16); assert_pass(atol=0.05) (rtol its default 0.128).
// Kernel: the reference rms_norm_bf16 (kernels_ref/rms_norm.hpp) or, with KernelSet::aie, the
// AIE-API build rms_norm_bf16_aie2p (kernels_ref/aie/rms_norm.cc).
#include "Design.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/rms_norm.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>

#include <cmath>
#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_rms_norm() {
    DesignSpec s;
    s.name = "rms_norm";
    s.description = "E13: ml/norm op=rms, row-wise RMSNorm of a bf16 matrix on 8 cores (aie2p/rms_norm.cc: "
                    "mul_square, reduce_add, invsqrt); NPU2 only, as upstream";
    s.params = {{"sequence_length", 64, "rows (IRON --sequence_length; a multiple of 8)"},
                {"embedding_dim", 4096, "bf16 values per row (IRON --embedding_dim; a multiple of 16)"}};
    s.devices = {"npu2"};
    s.tolerance = ToleranceMode::nearly_equal; // assert_pass (python/utils/verify.py)
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.kernels_note = "reference rms_norm_bf16 (kernels_ref/rms_norm.hpp); AIE-API rms_norm_bf16_aie2p "
                     "(kernels_ref/aie/rms_norm.cc)";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string design = "rms_norm";
        constexpr std::int64_t kCores = 8, kVec = kernels::kRmsNormLanes;
        const std::int64_t rows = p.at("sequence_length"), cols = p.at("embedding_dim");
        if (rows <= 0 || rows % kCores != 0)
            throw DesignError(fmt::format("design '{}': parameter sequence_length={} must be a positive multiple "
                                          "of {} (the cores)",
                                          design, rows, kCores));
        if (cols <= 0 || cols % kVec != 0)
            throw DesignError(fmt::format("design '{}': parameter embedding_dim={} must be a positive multiple of "
                                          "{} (the kernel's vector)",
                                          design, cols, kVec));
        const std::int64_t per_core = rows / kCores;
        const auto row_ty = tensor<bfloat16>({cols});
        const auto tensor_ty = tensor<bfloat16>({rows, cols});
        const std::vector<ArgType> types{row_ty, row_ty, scalar<std::int32_t>()};
        auto cost = [](std::span<const KernelArg> a) {
            return kernels::rms_norm_bf16_cycles(static_cast<std::int32_t>(a[2].ivalue));
        };
        std::vector<ObjectFifo> ins, outs;
        std::vector<Worker> workers;
        for (std::int64_t i = 0; i < kCores; ++i) {
            ins.emplace_back(row_ty, fmt::format("in_{}", i));
            outs.emplace_back(row_ty, fmt::format("out_{}", i));
            Kernel k = o.kernels == KernelSet::aie ? aie_kernel("rms_norm", &aie_kernels::rms_norm_bf16_aie2p, types, cost)
                                                   : Kernel("rms_norm", &kernels::rms_norm_bf16, types, cost);
            workers.emplace_back(
                [per_core, cols](ObjectFifoHandle in, ObjectFifoHandle out, Kernel norm) {
                    for (std::int64_t r = 0; r < per_core; ++r) {
                        auto ei = in.acquire(1);
                        auto eo = out.acquire(1);
                        norm(ei, eo, static_cast<std::int32_t>(cols));
                        in.release(1);
                        out.release(1);
                    }
                },
                fn_args(ins.back().cons(), outs.back().prod(), k));
        }
        std::vector<ObjectFifoHandle> in_prods, out_conses;
        std::vector<TensorAccessPattern> taps;
        for (std::int64_t i = 0; i < kCores; ++i) {
            in_prods.push_back(ins[static_cast<std::size_t>(i)].prod());
            out_conses.push_back(outs[static_cast<std::size_t>(i)].cons());
            taps.push_back(TensorAccessPattern({rows, cols}, i * per_core * cols, {1, 1, per_core, cols},
                                               {0, 0, cols, 1}));
        }
        Runtime rt(
            [taps](RuntimeData a, RuntimeData c, std::vector<ObjectFifoHandle> in, std::vector<ObjectFifoHandle> out) {
                for (std::size_t i = 0; i < in.size(); ++i) in[i].fill(a, {.tap = taps[i]});
                for (std::size_t i = 0; i < out.size(); ++i) out[i].drain(c, {.tap = taps[i], .wait = true});
            },
            fn_args(tensor_ty, tensor_ty, in_prods, out_conses));
        std::mt19937_64 rng(o.seed);
        std::vector<bfloat16> a(static_cast<std::size_t>(rows * cols));
        for (auto& x : a) x = bfloat16(static_cast<float>(static_cast<double>(rng() >> 11) * 0x1.0p-52 - 1.0));
        auto reference = [rows, cols](const Tensors& t) { // _rms_norm_reference, float32
            const auto x = get(t, "a").values<bfloat16>();
            std::vector<bfloat16> c(x.size());
            for (std::int64_t r = 0; r < rows; ++r) {
                const std::size_t base = static_cast<std::size_t>(r * cols);
                float ss = 0;
                for (std::int64_t j = 0; j < cols; ++j) ss += float(x[base + j]) * float(x[base + j]);
                const float rms = std::sqrt(ss / static_cast<float>(cols) + 1e-5f);
                for (std::int64_t j = 0; j < cols; ++j) c[base + j] = bfloat16(float(x[base + j]) / rms);
            }
            return tensors("c", Tensor::from({rows, cols}, c));
        };
        return DesignInstance(Program(dev, rt, workers, design),
                              {ArgSpec::input("a", tensor_ty), ArgSpec::output("c", tensor_ty, 0.128, 0.05)},
                              tensors("a", Tensor::from(tensor_ty.shape, a)), reference, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_rms_norm, 192);

} // namespace npusim::examples

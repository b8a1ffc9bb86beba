// vision/color_threshold (mlir-aie programming_examples/vision/color_threshold/color_threshold.py,
// the @iron.jit color_threshold; aiecc --alloc-scheme=basic-sequential): each RGBA line u8[4W] is
// split through a mem tile into four contiguous quarters u8[W] (offsets W * i, inOOB_L2L1_i), each
// quarter thresholded on its own worker, and the quarters joined back (outOOB_L1L2_i -> outOOB_L2L3).
// The threshold value, maximum and type come at run time from a Buffer rtp<i> i32[16] with
// use_write_rtp per worker; a WorkerRuntimeBarrier per worker makes the worker wait until the
// sequence has written them: worker body = barrier.wait_for_value(1); thresholdLine(in, out, W,
// trunci(rtp[0]), trunci(rtp[1]), trunci(rtp[2])) (the barrier stays 1, so later lines pass).
// Sequence: rtp[0..2] = 50, 255, 0 for every worker; barrier.set(1) for every worker; fill; drain
// with wait. Runtime arguments [i8[W*H] in, i32[32] unused, i8[W*H] out]: the image is W*H bytes,
// H/4 lines of 4W bytes (tensor_size = width * height in color_threshold.py).
// Golden (_run_and_verify): out = in (as u8) > 50 ? 255 : 0 for every byte, exact.
// Kernels: reference threshold_line (kernels_ref/vision.hpp) or, with KernelSet::aie, the AIE-API
// thresholdLine (kernels_ref/aie/threshold.cc).
#include "Design.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/vision.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>

#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_color_threshold() {
    DesignSpec s;
    s.name = "color_threshold";
    s.description = "vision/color_threshold: RGBA lines split into 4 quarters, each thresholded on its own worker "
                    "with run-time parameters (use_write_rtp Buffers) behind WorkerRuntimeBarriers, joined back";
    s.params = {{"width", 1920, "pixels per line (a multiple of 64: thresholdLine's u8 lanes)"},
                {"height", 1080, "lines of the W x H byte image (a multiple of 4: one RGBA line is 4W bytes)"}};
    s.devices = every_device();
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.alloc_scheme = AllocScheme::BasicSequential;
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string design = "color_threshold";
        constexpr std::int64_t kWorkers = 4, kLanes = 64;
        const std::int64_t w = p.at("width"), h = p.at("height");
        if (w <= 0 || w % kLanes != 0)
            throw DesignError(fmt::format("design '{}': parameter width={} must be a positive multiple of {} "
                                          "(thresholdLine processes {} u8 lanes a step)",
                                          design, w, kLanes, kLanes));
        if (h <= 0 || h % kWorkers != 0)
            throw DesignError(fmt::format("design '{}': parameter height={} must be a positive multiple of 4 (the "
                                          "W x H byte image is read in RGBA lines of 4W bytes)",
                                          design, h));
        const auto tensor_ty = tensor<std::int8_t>({w * h});
        const auto line_channels_ty = tensor<std::uint8_t>({4 * w});
        const auto line_ty = tensor<std::uint8_t>({w});
        const auto unused_ty = tensor<std::int32_t>({32});
        ObjectFifo in_l3l2(line_channels_ty, "inOOB_L3L2"), out_l2l3(line_channels_ty, "outOOB_L2L3");
        std::vector<std::int64_t> offsets;
        std::vector<std::string> in_names, out_names;
        for (std::int64_t i = 0; i < kWorkers; ++i) {
            offsets.push_back(w * i);
            in_names.push_back(fmt::format("inOOB_L2L1_{}", i));
            out_names.push_back(fmt::format("outOOB_L1L2_{}", i));
        }
        const std::vector<TensorType> quarters(kWorkers, line_ty);
        const auto ins = in_l3l2.cons().split(offsets, {.obj_types = quarters, .names = in_names});
        const auto outs = out_l2l3.prod().join(offsets, {.obj_types = quarters, .names = out_names});
        const std::vector<ArgType> types{line_ty,
                                         line_ty,
                                         scalar<std::int32_t>(),
                                         scalar<std::int16_t>(),
                                         scalar<std::int16_t>(),
                                         scalar<std::int8_t>()};
        auto cost = [](std::span<const KernelArg> a) {
            return kernels::threshold_line_cycles(static_cast<std::int32_t>(a[2].ivalue));
        };
        std::vector<Buffer> rtps;
        std::vector<WorkerRuntimeBarrier> barriers;
        std::vector<Worker> workers;
        for (std::int64_t i = 0; i < kWorkers; ++i) {
            const auto ii = static_cast<std::size_t>(i);
            rtps.push_back(Buffer(tensor<std::int32_t>({16}), fmt::format("rtp{}", i)).use_write_rtp());
            barriers.emplace_back(0, fmt::format("barrier{}", i));
            Kernel k = o.kernels == KernelSet::aie
                           ? aie_kernel("thresholdLine", &aie_kernels::thresholdLine, types, cost)
                           : Kernel("thresholdLine", &kernels::threshold_line, types, cost);
            workers.emplace_back(
                [w](ObjectFifoHandle in, ObjectFifoHandle out, Buffer rtp, Kernel threshold,
                    WorkerRuntimeBarrier barrier) {
                    barrier.wait_for_value(1);
                    // my_rtp[i] (memref.load) then arith.trunci to i16, i16 and i8, the scalar types
                    // IRON declares (python/iron/kernels/vision.py threshold); the C kernel reads them
                    // as uint8_t (threshold.cc, BIT_WIDTH 8), as the native one does
                    const auto value = static_cast<std::int16_t>(rtp.at<std::int32_t>(0));
                    const auto max_value = static_cast<std::int16_t>(rtp.at<std::int32_t>(1));
                    const auto type = static_cast<std::int8_t>(rtp.at<std::int32_t>(2));
                    auto ei = in.acquire(1);
                    auto eo = out.acquire(1);
                    threshold(ei, eo, w, value, max_value, type);
                    in.release(1);
                    out.release(1);
                },
                fn_args(ins[ii].cons(), outs[ii].prod(), rtps.back(), k, barriers.back()),
                WorkerOptions{.name = fmt::format("threshold_{}", i)});
        }
        Runtime rt(
            [rtps, barriers](RuntimeData in, RuntimeData, RuntimeData out, ObjectFifoHandle in_h,
                             ObjectFifoHandle out_h) {
                for (const auto& r : rtps) {
                    r[0] = 50;
                    r[1] = 255;
                    r[2] = 0;
                }
                for (const auto& b : barriers) b.set(1);
                in_h.fill(in);
                out_h.drain(out, {.wait = true});
            },
            fn_args(tensor_ty, unused_ty, tensor_ty, in_l3l2.prod(), out_l2l3.cons()));
        std::mt19937_64 rng(o.seed);
        std::vector<std::int8_t> img(static_cast<std::size_t>(w * h));
        for (auto& x : img) x = static_cast<std::int8_t>(static_cast<std::uint8_t>(rng() & 0xff));
        auto reference = [](const Tensors& t) {
            auto v = get(t, "in").values<std::int8_t>();
            for (auto& x : v) x = static_cast<std::uint8_t>(x) > 50 ? static_cast<std::int8_t>(-1) : std::int8_t{0};
            return tensors("out", Tensor::from({static_cast<std::int64_t>(v.size())}, v));
        };
        return DesignInstance(
            Program(dev, rt, workers, design),
            {ArgSpec::input("in", tensor_ty), ArgSpec::unused("b", unused_ty), ArgSpec::output("out", tensor_ty)},
            tensors("in", Tensor::from(tensor_ty.shape, img)), reference, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_color_threshold, 180);

} // namespace npusim::examples

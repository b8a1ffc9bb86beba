// E12 vision/edge_detect (mlir-aie programming_examples/vision/edge_detect/edge_detect.py, the
// @iron.jit edge_detect; aiecc --alloc-scheme=basic-sequential): RGBA lines -> grey -> 3x3 Laplacian
// (a Buffer `kernel` holds the Q12 coefficients) -> binary threshold 10/255 -> back to RGBA ->
// added to the original line, which reaches the last worker through a delay fifo of depth 7.
//   inOF_L3L2 u8[4W] (shim -> two consumers: worker 1 and cons(7).forward(depth=7, "inOF_L2L1") on a
//     mem tile: a broadcast whose second branch delays the RGBA lines)
//   OF_2to3 u8[W] depth 4, OF_3to4 depth 2, OF_4to5 depth 2; OF_local u8[4W] depth 1, producer and
//     consumer on the same worker (a self-loop fifo used as scratch); outOF_L1L2 -> forward outOF_L2L3
//   workers: rgba2grayLine; filter (while_true=False with its own endless loop: top border
//     (l0, l0, l1) after acquire(2), H-2 x (acquire(3), release(1)), bottom (l0, l1, l1), release(2));
//     thresholdLine(W, 10, 255, BINARY); gray2rgbaLine into OF_local, then
//     addWeightedLine(local, delayed, out, 4W, 16384, 16384, 0)
//   sequence: [i8[W*H*4] in, i32(16,16) unused, i8[W*H*4] out]: fill, drain with wait.
// Golden: edge_detect.py's _edge_detect_ref, computed here per image: grey in Q15 rounded half up,
// Laplacian with replicated borders clipped to 0..255, > 10 -> 255, (g, g, g, 255), saturating add;
// the Laplacian takes the left neighbour filter2dLine takes, which for the first pixel of each
// 32-pixel block from the third on is two pixels back (filter2d.cc:144-145; widths of 96 and more).
// Upstream passes when the mean |difference| per pixel is under 2.0 (its addWeighted reference is
// OpenCV's); the kernels' arithmetic (alpha = beta = 1.0 in Q14, Q12 coefficients that are whole
// numbers) makes the result exact, so npusim checks every byte.
// Kernels: reference vision line kernels (kernels_ref/vision.hpp) or, with KernelSet::aie, the
// AIE-API sources kernels_ref/aie/{color,filter2d,threshold,addWeighted}.cc.
#include "Design.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/vision.hpp"
#include "npusim/model/Error.hpp"

#include <limits>
#include <npusim/aie_kernels.hpp>

#include <algorithm>
#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

namespace {

// The golden: one whole-image pass per stage, as _edge_detect_ref does with numpy.
std::vector<std::int8_t> edge_detect_golden(const std::vector<std::int8_t>& in, std::int64_t w, std::int64_t h) {
    auto px = [&](std::int64_t i) {
        return static_cast<std::int64_t>(static_cast<std::uint8_t>(in[static_cast<std::size_t>(i)]));
    };
    std::vector<std::int64_t> gray(static_cast<std::size_t>(w * h));
    for (std::int64_t i = 0; i < w * h; ++i)
        gray[static_cast<std::size_t>(i)] = std::clamp<std::int64_t>(
            (9798 * px(4 * i) + 19235 * px(4 * i + 1) + 3736 * px(4 * i + 2) + (1 << 14)) >> 15, 0, 255);
    auto g = [&](std::int64_t y, std::int64_t x) {
        return gray[static_cast<std::size_t>(std::clamp<std::int64_t>(y, 0, h - 1) * w +
                                             std::clamp<std::int64_t>(x, 0, w - 1))];
    };
    std::vector<std::int8_t> out(in.size());
    for (std::int64_t y = 0; y < h; ++y)
        for (std::int64_t x = 0; x < w; ++x) {
            // filter2dLine's left neighbour of the first pixel of its third and later 32-pixel blocks is
            // two pixels back (mlir-aie aie2/filter2d.cc:144-145 at 3ca0193; kernels_ref/vision.hpp)
            const std::int64_t left = (x % 32 == 0 && x >= 64) ? x - 2 : x - 1;
            const std::int64_t lap =
                std::clamp<std::int64_t>(-4 * g(y, x) + g(y - 1, x) + g(y + 1, x) + g(y, left) + g(y, x + 1), 0, 255);
            const std::int64_t mask = lap > 10 ? 255 : 0;
            const std::int64_t i = y * w + x;
            for (int c = 0; c < 4; ++c) {
                const std::int64_t m = c == 3 ? 255 : mask;
                out[static_cast<std::size_t>(4 * i + c)] =
                    static_cast<std::int8_t>(static_cast<std::uint8_t>(std::min<std::int64_t>(px(4 * i + c) + m, 255)));
            }
        }
    return out;
}

} // namespace

DesignSpec make_edge_detect() {
    DesignSpec s;
    s.name = "edge_detect";
    s.description = "E12: vision/edge_detect, rgba2gray -> 3x3 Laplacian (Buffer) -> threshold -> gray2rgba + "
                    "addWeighted; a broadcast, a delay fifo of depth 7, a self-loop fifo";
    s.params = {{"width", 1920, "pixels per line (a multiple of 32: filter2dLine's lanes)"},
                {"height", 1080, "lines (at least 2)"}};
    s.devices = every_device();
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.alloc_scheme = AllocScheme::BasicSequential;
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string design = "edge_detect";
        const std::int64_t w = p.at("width"), h = p.at("height");
        if (w < kernels::kFilter2dMinWidth || w % kernels::kFilter2dLanes != 0)
            throw DesignError(fmt::format("design '{}': parameter width={} must be a multiple of {} and at least {} "
                                          "(filter2dLine processes {} pixels a step, with a first and a last step)",
                                          design, w, kernels::kFilter2dLanes, kernels::kFilter2dMinWidth,
                                          kernels::kFilter2dLanes));
        if (h < 2)
            throw DesignError(fmt::format("design '{}': parameter height={} must be at least 2 (the filter's top and "
                                          "bottom borders)",
                                          design, h));
        const auto line_bytes_ty = tensor<std::uint8_t>({4 * w});
        const auto line_ty = tensor<std::uint8_t>({w});
        const auto tensor_ty = tensor<std::int8_t>({w * h * 4});
        const auto unused_ty = tensor<std::int32_t>({16, 16});
        const auto kernel_ty = tensor<std::int16_t>({3, 3});
        const bool aie = o.kernels == KernelSet::aie;
        const auto modes = make_aie_core_modes();
        auto bind = [&](const std::string& name, auto ref, auto aiefn, std::vector<ArgType> types, CostModel cost) {
            return aie ? aie_kernel(name, aiefn, std::move(types), std::move(cost), modes)
                       : Kernel(name, ref, std::move(types), std::move(cost));
        };
        const auto i32 = scalar<std::int32_t>();
        Kernel rgba2gray = bind("rgba2grayLine", &kernels::rgba2gray_line, &aie_kernels::rgba2grayLine,
                                {line_bytes_ty, line_ty, i32}, [](std::span<const KernelArg> a) {
                                    return kernels::rgba2gray_line_cycles(static_cast<std::int32_t>(a[2].ivalue));
                                });
        Kernel filter2d = bind("filter2dLine", &kernels::filter2d_line, &aie_kernels::filter2dLine,
                               {line_ty, line_ty, line_ty, line_ty, i32, kernel_ty}, [](std::span<const KernelArg> a) {
                                   return kernels::filter2d_line_cycles(static_cast<std::int32_t>(a[4].ivalue));
                               });
        Kernel threshold =
            bind("thresholdLine", &kernels::threshold_line, &aie_kernels::thresholdLine,
                 {line_ty, line_ty, i32, scalar<std::int16_t>(), scalar<std::int16_t>(), scalar<std::int8_t>()},
                 [](std::span<const KernelArg> a) {
                     return kernels::threshold_line_cycles(static_cast<std::int32_t>(a[2].ivalue));
                 });
        Kernel gray2rgba = bind("gray2rgbaLine", &kernels::gray2rgba_line, &aie_kernels::gray2rgbaLine,
                                {line_ty, line_bytes_ty, i32}, [](std::span<const KernelArg> a) {
                                    return kernels::gray2rgba_line_cycles(static_cast<std::int32_t>(a[2].ivalue));
                                });
        Kernel add_weighted = bind("addWeightedLine", &kernels::add_weighted_line, &aie_kernels::addWeightedLine,
                                   {line_bytes_ty, line_bytes_ty, line_bytes_ty, i32, scalar<std::int16_t>(),
                                    scalar<std::int16_t>(), scalar<std::int8_t>()},
                                   [](std::span<const KernelArg> a) {
                                       return kernels::add_weighted_line_cycles(static_cast<std::int32_t>(a[3].ivalue));
                                   });

        ObjectFifo in_l3l2(line_bytes_ty, "inOF_L3L2");
        ObjectFifo in_l2l1 = in_l3l2.cons(7).forward(AnyMemTile, std::nullopt, 7, "inOF_L2L1");
        ObjectFifo out_l1l2(line_bytes_ty, "outOF_L1L2");
        ObjectFifo out_l2l3 = out_l1l2.cons().forward(AnyMemTile, std::nullopt, std::nullopt, "outOF_L2L3");
        ObjectFifo of_2to3(line_ty, "OF_2to3", 4), of_3to4(line_ty, "OF_3to4", 2), of_4to5(line_ty, "OF_4to5", 2);
        ObjectFifo of_local(line_bytes_ty, "OF_local", 1);
        const std::vector<std::int16_t> laplacian{0, 4096, 0, 4096, -16384, 4096, 0, 4096, 0};
        Buffer filter_kernel = Buffer::with_values(kernel_ty, "kernel", laplacian);

        std::vector<Worker> workers;
        workers.emplace_back(
            [w](ObjectFifoHandle in, ObjectFifoHandle out, Kernel k) {
                auto ei = in.acquire(1);
                auto eo = out.acquire(1);
                k(ei, eo, w);
                in.release(1);
                out.release(1);
            },
            fn_args(in_l3l2.cons(), of_2to3.prod(), rgba2gray), WorkerOptions{.name = "rgba2gray"});
        workers.emplace_back(
            [w, h](ObjectFifoHandle in, ObjectFifoHandle out, Buffer kern, Kernel k) {
                // for _ in range_(sys.maxsize) inside a while_true=False worker; the middle rows are
                // for _ in range_(1, height_minus_1), as edge_detect.py writes them.
                range_(std::numeric_limits<std::int64_t>::max(), [&](std::int64_t) {
                    auto pre = in.acquire(2);
                    auto o1 = out.acquire(1);
                    k(pre[0], pre[0], pre[1], o1, w, kern.view());
                    out.release(1);
                    range_(1, h - 1, [&](std::int64_t) {
                        auto l = in.acquire(3);
                        auto ol = out.acquire(1);
                        k(l[0], l[1], l[2], ol, w, kern.view());
                        in.release(1);
                        out.release(1);
                    });
                    auto post = in.acquire(2);
                    auto o2 = out.acquire(1);
                    k(post[0], post[1], post[1], o2, w, kern.view());
                    in.release(2);
                    out.release(1);
                });
            },
            fn_args(of_2to3.cons(), of_3to4.prod(), filter_kernel, filter2d),
            WorkerOptions{.while_true = false, .name = "filter2d"});
        workers.emplace_back(
            [w](ObjectFifoHandle in, ObjectFifoHandle out, Kernel k) {
                auto ei = in.acquire(1);
                auto eo = out.acquire(1);
                k(ei, eo, w, std::uint8_t{10}, std::uint8_t{255}, std::uint8_t{kernels::kThreshBinary});
                in.release(1);
                out.release(1);
            },
            fn_args(of_3to4.cons(), of_4to5.prod(), threshold), WorkerOptions{.name = "threshold"});
        workers.emplace_back(
            [w](ObjectFifoHandle in, ObjectFifoHandle in2, ObjectFifoHandle out_self, ObjectFifoHandle in_self,
                ObjectFifoHandle out, Kernel to_rgba, Kernel add) {
                auto ei = in.acquire(1);
                auto es = out_self.acquire(1);
                to_rgba(ei, es, w);
                in.release(1);
                out_self.release(1);
                auto e1 = in_self.acquire(1);
                auto e2 = in2.acquire(1);
                auto eo = out.acquire(1);
                add(e1, e2, eo, 4 * w, std::int16_t{16384}, std::int16_t{16384}, std::uint8_t{0});
                in_self.release(1);
                in2.release(1);
                out.release(1);
            },
            fn_args(of_4to5.cons(), in_l2l1.cons(), of_local.prod(), of_local.cons(), out_l1l2.prod(), gray2rgba,
                    add_weighted),
            WorkerOptions{.name = "gray2rgba_addWeighted"});

        Runtime rt(
            [](RuntimeData in, RuntimeData, RuntimeData out, ObjectFifoHandle in_h, ObjectFifoHandle out_h) {
                in_h.fill(in);
                out_h.drain(out, {.wait = true});
            },
            fn_args(tensor_ty, unused_ty, tensor_ty, in_l3l2.prod(), out_l2l3.cons()));

        std::mt19937_64 rng(o.seed);
        std::vector<std::int8_t> img(static_cast<std::size_t>(w * h * 4));
        for (auto& x : img) x = static_cast<std::int8_t>(static_cast<std::uint8_t>(rng() & 0xff));
        auto reference = [w, h](const Tensors& t) {
            const auto out = edge_detect_golden(get(t, "in").values<std::int8_t>(), w, h);
            return tensors("out", Tensor::from({static_cast<std::int64_t>(out.size())}, out));
        };
        return DesignInstance(
            Program(dev, rt, workers, design),
            {ArgSpec::input("in", tensor_ty), ArgSpec::unused("b", unused_ty), ArgSpec::output("out", tensor_ty)},
            tensors("in", Tensor::from(tensor_ty.shape, img)), reference, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_edge_detect, 160);

} // namespace npusim::examples

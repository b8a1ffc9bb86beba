// E12 vision/color_detect (mlir-aie programming_examples/vision/color_detect/color_detect.py, the
// @iron.jit color_detect; aiecc --alloc-scheme=basic-sequential): keep the pixels whose hue lies
// in one of two bands, black out the rest.
//   inOF_L3L2 u8[4W]: consumers cons(6).forward(depth=6, "inOF_L2L1") (the delayed RGBA lines, on a
//     mem tile) and worker 2 (rgba2hueLine) - a broadcast
//   OF_2to34 u8[W]: one producer, two consumers (workers 3 and 4) - a broadcast between cores
//   workers 3 and 4 (threshold_fn): thresholdLine(hue, tmp, W, upper, 255, TOZERO_INV) into a
//     self-loop fifo OF_3to3 / OF_4to4 (depth 1), then thresholdLine(tmp, out, W, lower, 255,
//     BINARY) into OF_3to5 / OF_4to5; bands (upper, lower) = (40, 30) and (160, 90)
//   worker 5: bitwiseORLine of the two masks into OF_5to5a (self-loop, depth 1), gray2rgbaLine into
//     OF_5to5b (self-loop u8[4W], depth 1), bitwiseANDLine(mask_rgba, delayed line, out, 4W) into
//     outOF_L1L2 -> forward outOF_L2L3
//   sequence [i8[4WH] in, i32(16,16) unused, i8[4WH] out]: fill, drain with wait.
// Golden (_color_detect_ref, exact): per pixel the hue of rgba2hue.cc's scalar formula, each band
// thresholded (> upper -> 0, then > lower -> 255), OR of the bands, replicated to R, G, B with alpha
// 255, AND with the original pixel.
// Kernels: reference (kernels_ref/vision.hpp) or, with KernelSet::aie, the AIE-API thresholdLine,
// gray2rgbaLine, bitwiseORLine and bitwiseANDLine (kernels_ref/aie); rgba2hue is the reference
// rgba2hue_line in both (upstream's scalar kernel, which it runs on AIE2P). The AIE-API build of the
// AIE2 vector path (aie_kernels::rgba2hueLine_vector) exists but is not used: its floored table
// inverse gives one hue step less than the scalar formula on about a quarter of all RGB triples,
// and the golden (_color_detect_ref, the scalar formula) is exact.
#include "Design.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/vision.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

namespace {

// _color_detect_ref over the whole image (numpy-port style: the quotient truncated in double).
std::vector<std::int8_t> color_detect_golden(const std::vector<std::int8_t>& in) {
    std::vector<std::int8_t> out(in.size());
    for (std::size_t px = 0; px < in.size() / 4; ++px) {
        const auto c = [&](int k) { return static_cast<double>(static_cast<std::uint8_t>(in[4 * px + k])); };
        const double r = c(0), g = c(1), b = c(2);
        const double mx = std::max({r, g, b}), mn = std::min({r, g, b}), range = mx - mn;
        double h = 0;
        if (mx != 0 && range != 0) {
            if (mx == r)
                h = std::trunc(85 * (g - b) / range);
            else if (mx == g)
                h = 170 + std::trunc(85 * (b - r) / range);
            else
                h = 340 + std::trunc(85 * (r - g) / range);
        }
        const int hue = static_cast<int>(std::floor((h + 1) / 2)) & 0xff;
        auto band = [&](int upper, int lower) {
            const int t = hue > upper ? 0 : hue; // TOZERO_INV
            return t > lower ? 255 : 0; // BINARY
        };
        const int mask = band(40, 30) | band(160, 90);
        for (int k = 0; k < 4; ++k)
            out[4 * px + static_cast<std::size_t>(k)] =
                static_cast<std::int8_t>((k == 3 ? 255 : mask) & static_cast<std::uint8_t>(in[4 * px + k]));
    }
    return out;
}

} // namespace

DesignSpec make_color_detect() {
    DesignSpec s;
    s.name = "color_detect";
    s.description = "E12: vision/color_detect, rgba2hue -> two threshold bands on two cores (a broadcast) -> "
                    "bitwiseOR -> gray2rgba -> bitwiseAND with the delayed line; self-loop fifos";
    s.params = {{"width", 1920, "pixels per line (a multiple of 64: thresholdLine's and bitwiseORLine's u8 lanes)"},
                {"height", 1080, "lines"}};
    s.devices = every_device();
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.kernels_note = "rgba2hue is the reference (scalar) kernel in both: the AIE2 vector path's AIE-API build "
                     "(rgba2hueLine_vector) differs from the exact golden by one hue step on some pixels";
    s.alloc_scheme = AllocScheme::BasicSequential;
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string design = "color_detect";
        constexpr std::int64_t kLanes = 64;
        const std::int64_t w = p.at("width"), h = p.at("height");
        if (w <= 0 || w % kLanes != 0)
            throw DesignError(fmt::format("design '{}': parameter width={} must be a positive multiple of {} "
                                          "(thresholdLine and bitwiseORLine process {} u8 lanes a step)",
                                          design, w, kLanes, kLanes));
        if (h <= 0) throw DesignError(fmt::format("design '{}': parameter height={} must be positive", design, h));
        const auto line_bytes_ty = tensor<std::uint8_t>({4 * w});
        const auto line_ty = tensor<std::uint8_t>({w});
        const auto tensor_ty = tensor<std::int8_t>({w * h * 4});
        const auto unused_ty = tensor<std::int32_t>({16, 16});
        const bool aie = o.kernels == KernelSet::aie;
        const auto modes = make_aie_core_modes();
        auto bind = [&](const std::string& name, auto ref, auto aiefn, std::vector<ArgType> types, CostModel cost) {
            return aie ? aie_kernel(name, aiefn, std::move(types), std::move(cost), modes)
                       : Kernel(name, ref, std::move(types), std::move(cost));
        };
        const auto i32 = scalar<std::int32_t>();
        // the scalar types IRON declares (python/iron/kernels/vision.py threshold: i16 threshold and
        // max value, i8 type); the C kernel reads them as uint8_t (threshold.cc, BIT_WIDTH 8)
        const auto i16 = scalar<std::int16_t>();
        const auto i8 = scalar<std::int8_t>();
        auto width_cost = [](std::uint64_t (*f)(std::int32_t), std::size_t arg) {
            return [f, arg](std::span<const KernelArg> a) { return f(static_cast<std::int32_t>(a[arg].ivalue)); };
        };
        Kernel rgba2hue("rgba2hueLine", &kernels::rgba2hue_line, {line_bytes_ty, line_ty, i32},
                        width_cost(&kernels::rgba2hue_line_cycles, 2));
        auto threshold_kernel = [&] {
            return bind("thresholdLine", &kernels::threshold_line, &aie_kernels::thresholdLine,
                        {line_ty, line_ty, i32, i16, i16, i8}, width_cost(&kernels::threshold_line_cycles, 2));
        };
        Kernel bit_or = bind("bitwiseORLine", &kernels::bitwise_or_line, &aie_kernels::bitwiseORLine,
                             {line_ty, line_ty, line_ty, i32}, width_cost(&kernels::bitwise_line_cycles, 3));
        Kernel gray2rgba = bind("gray2rgbaLine", &kernels::gray2rgba_line, &aie_kernels::gray2rgbaLine,
                                {line_ty, line_bytes_ty, i32}, width_cost(&kernels::gray2rgba_line_cycles, 2));
        Kernel bit_and =
            bind("bitwiseANDLine", &kernels::bitwise_and_line, &aie_kernels::bitwiseANDLine,
                 {line_bytes_ty, line_bytes_ty, line_bytes_ty, i32}, width_cost(&kernels::bitwise_line_cycles, 3));

        ObjectFifo in_l3l2(line_bytes_ty, "inOF_L3L2");
        ObjectFifo in_l2l1 = in_l3l2.cons(6).forward(AnyMemTile, std::nullopt, 6, "inOF_L2L1");
        ObjectFifo out_l1l2(line_bytes_ty, "outOF_L1L2");
        ObjectFifo out_l2l3 = out_l1l2.cons().forward(AnyMemTile, std::nullopt, std::nullopt, "outOF_L2L3");
        ObjectFifo of_2to34(line_ty, "OF_2to34"), of_3to3(line_ty, "OF_3to3", 1), of_3to5(line_ty, "OF_3to5"),
            of_4to4(line_ty, "OF_4to4", 1), of_4to5(line_ty, "OF_4to5"), of_5to5a(line_ty, "OF_5to5a", 1),
            of_5to5b(line_bytes_ty, "OF_5to5b", 1);

        std::vector<Worker> workers;
        workers.emplace_back(
            [w](ObjectFifoHandle in, ObjectFifoHandle out, Kernel k) {
                auto ei = in.acquire(1);
                auto eo = out.acquire(1);
                k(ei, eo, w);
                in.release(1);
                out.release(1);
            },
            fn_args(in_l3l2.cons(), of_2to34.prod(), rgba2hue), WorkerOptions{.name = "rgba2hue"});
        auto threshold_fn = [w](std::uint8_t upper, std::uint8_t lower) {
            return [w, upper, lower](ObjectFifoHandle in, ObjectFifoHandle self_out, ObjectFifoHandle self_in,
                                     ObjectFifoHandle out, Kernel k) {
                auto ei = in.acquire(1);
                auto et = self_out.acquire(1);
                k(ei, et, w, upper, std::uint8_t{255}, std::uint8_t{kernels::kThreshToZeroInv});
                in.release(1);
                self_out.release(1);
                auto es = self_in.acquire(1);
                auto eo = out.acquire(1);
                k(es, eo, w, lower, std::uint8_t{255}, std::uint8_t{kernels::kThreshBinary});
                self_in.release(1);
                out.release(1);
            };
        };
        workers.emplace_back(
            threshold_fn(40, 30),
            fn_args(of_2to34.cons(), of_3to3.prod(), of_3to3.cons(), of_3to5.prod(), threshold_kernel()),
            WorkerOptions{.name = "threshold_a"});
        workers.emplace_back(
            threshold_fn(160, 90),
            fn_args(of_2to34.cons(), of_4to4.prod(), of_4to4.cons(), of_4to5.prod(), threshold_kernel()),
            WorkerOptions{.name = "threshold_b"});
        workers.emplace_back(
            [w](ObjectFifoHandle in, ObjectFifoHandle in2, ObjectFifoHandle self_a_out, ObjectFifoHandle self_a_in,
                ObjectFifoHandle self_b_out, ObjectFifoHandle self_b_in, ObjectFifoHandle in3, ObjectFifoHandle out,
                Kernel k_or, Kernel k_rgba, Kernel k_and) {
                auto e1 = in.acquire(1);
                auto e2 = in2.acquire(1);
                auto ta = self_a_out.acquire(1);
                k_or(e1, e2, ta, w);
                in.release(1);
                in2.release(1);
                self_a_out.release(1);
                auto ea = self_a_in.acquire(1);
                auto tb = self_b_out.acquire(1);
                k_rgba(ea, tb, w);
                self_a_in.release(1);
                self_b_out.release(1);
                auto eb = self_b_in.acquire(1);
                auto orig = in3.acquire(1);
                auto eo = out.acquire(1);
                k_and(eb, orig, eo, 4 * w);
                self_b_in.release(1);
                in3.release(1);
                out.release(1);
            },
            fn_args(of_3to5.cons(), of_4to5.cons(), of_5to5a.prod(), of_5to5a.cons(), of_5to5b.prod(), of_5to5b.cons(),
                    in_l2l1.cons(), out_l1l2.prod(), bit_or, gray2rgba, bit_and),
            WorkerOptions{.name = "or_gray2rgba_and"});

        Runtime rt(
            [](RuntimeData in, RuntimeData, RuntimeData out, ObjectFifoHandle in_h, ObjectFifoHandle out_h) {
                in_h.fill(in);
                out_h.drain(out, {.wait = true});
            },
            fn_args(tensor_ty, unused_ty, tensor_ty, in_l3l2.prod(), out_l2l3.cons()));

        std::mt19937_64 rng(o.seed);
        std::vector<std::int8_t> img(static_cast<std::size_t>(w * h * 4));
        for (auto& x : img) x = static_cast<std::int8_t>(static_cast<std::uint8_t>(rng() & 0xff));
        auto reference = [](const Tensors& t) {
            const auto out = color_detect_golden(get(t, "in").values<std::int8_t>());
            return tensors("out", Tensor::from({static_cast<std::int64_t>(out.size())}, out));
        };
        return DesignInstance(
            Program(dev, rt, workers, design),
            {ArgSpec::input("in", tensor_ty), ArgSpec::unused("b", unused_ty), ArgSpec::output("out", tensor_ty)},
            tensors("in", Tensor::from(tensor_ty.shape, img)), reference, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_color_detect, 170);

} // namespace npusim::examples

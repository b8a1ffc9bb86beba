// E14 ml/conv2d (mlir-aie programming_examples/ml/conv2d/conv2d.py, the @iron.jit conv2d with
// fuse_relu=False, and test.py): a 1x1 int8 convolution of a W x H image with Ci input and Co
// output channels on one core, one image row per kernel call.
//   inOF_act_L3L2 i8[2 W Ci] -> forward(obj_type = i8[W Ci], "act_L2_02") through a mem tile
//   inOF_wts_0_L3L2 i8[Ci Co] depth 1, shim -> core
//   out_02_L2 i8[W Co] -> forward(obj_type = i8[2 W Co], "outOFL2L3")
//   worker (stack_size 0x600): acquire the weights; H x { acquire act and out;
//     conv2dk1_i8(act, wts, out, W, Ci, Co, scale); release both }; release the weights
//   sequence [i8[W H Ci] act, i8[Ci Co] wts, i8[W H Co] out]: fill act, fill wts, drain out (wait).
// scale is a compile-time constant upstream (conv2d.py lifts the former RTP to CompileTime[int]), so
// it is a design parameter here, default 10. Layouts (aie.utils.ml DataShaper, test.py): activations
// and output YCXC8 [y][c/8][x][8], weights OIYXI8O8 [co/8][ci/8][ci%8][co%8].
// Inputs as test.py draws them: activations integers in [1, 20), weights in [50, 80).
// Golden (independent of the kernel's layout walk): the convolution in NCHW / OIHW order, each sum
// shifted by scale rounding ties away from zero (conv2dk1_i8.cc's vector kernel: symmetric_inf),
// saturated to int8 (test.py's inputs make every sum positive, where that is rounding half up), then laid out
// as YCXC8; exact. test.py's own check (torch Conv2d x 7.6294e-6, rounded to steps of 0.0078,
// atol 2 x 0.0078) is checked against the same output in tests/examples/Conv2d_test.cpp.
// Kernels: the built-in library's conv2dk1_i8 (harness/KernelLibraryConv.hpp): the reference
// (kernels_ref/conv2d.hpp) or, with KernelSet::aie, the AIE-API source (kernels_ref/aie/conv2dk1_i8.cc,
// aie::mmul<4, 8, 8, int8, int8>).
#include "Design.hpp"
#include "npusim/harness/KernelLibraryConv.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_conv2d() {
    DesignSpec s;
    s.name = "conv2d";
    s.description = "E14: ml/conv2d, 1x1 int8 convolution on one core in the YCXC8 / OIYXI8O8 layouts, rows "
                    "forwarded through mem tiles";
    s.params = {{"width", 32, "pixels per row (a multiple of 8, at least 8)"},
                {"height", 32, "rows (even, at least 2: the mem tile moves 2 rows per object)"},
                {"in_channels", 64, "input channels (a multiple of 8)"},
                {"out_channels", 64, "output channels (a multiple of 8)"},
                {"scale", 10, "right shift of each sum, rounding ties away from zero (0..31)"}};
    s.devices = every_device();
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string design = "conv2d";
        const std::int64_t w = p.at("width"), h = p.at("height"), ci = p.at("in_channels"), co = p.at("out_channels"),
                           scale = p.at("scale");
        // conv2d.py's ValueErrors
        if (w % 8 != 0 || w < 8)
            throw DesignError(fmt::format(
                "design '{}': parameter width={}: width must be a multiple of 8 and >= 8 (conv2d.py)", design, w));
        if (ci % 8 != 0 || ci < 8 || co % 8 != 0 || co < 8)
            throw DesignError(fmt::format("design '{}': parameters in_channels={} and out_channels={} must be "
                                          "multiples of 8 and >= 8 (conv2d.py)",
                                          design, ci, co));
        if (h < 2 || h % 2 != 0)
            throw DesignError(fmt::format(
                "design '{}': parameter height={} must be even and at least 2 (conv2d.py requires height > 1; the "
                "mem-tile fifos hold 2 rows per object, so the last row of an odd height would never be forwarded)",
                design, h));
        if (scale < 0 || scale > 31)
            throw DesignError(fmt::format("design '{}': parameter scale={} must be in 0..31", design, scale));
        const auto act_ty = tensor<std::int8_t>({w * ci}), buf_in_ty = tensor<std::int8_t>({2 * w * ci});
        const auto wts_ty = tensor<std::int8_t>({ci * co});
        const auto out_ty = tensor<std::int8_t>({w * co}), buf_out_ty = tensor<std::int8_t>({2 * w * co});
        const auto tensor_in_ty = tensor<std::int8_t>({w * h * ci}), tensor_out_ty = tensor<std::int8_t>({w * h * co});
        Kernel conv = harness::iron_kernels::conv2dk1_i8(w, ci, co, o.kernels);

        ObjectFifo act_l3l2(buf_in_ty, "inOF_act_L3L2");
        ObjectFifo act_l2 = act_l3l2.cons().forward({.obj_type = act_ty, .name = "act_L2_02"});
        ObjectFifo wts_l3l2(wts_ty, "inOF_wts_0_L3L2", 1);
        ObjectFifo out_l2(out_ty, "out_02_L2");
        ObjectFifo out_l3 = out_l2.cons().forward({.obj_type = buf_out_ty, .name = "outOFL2L3"});
        Worker worker(
            [w, h, ci, co, scale](ObjectFifoHandle wts, ObjectFifoHandle act, ObjectFifoHandle out, Kernel k) {
                auto ew = wts.acquire(1);
                for (std::int64_t y = 0; y < h; ++y) {
                    auto ea = act.acquire(1);
                    auto eo = out.acquire(1);
                    k(ea, ew, eo, w, ci, co, scale);
                    act.release(1);
                    out.release(1);
                }
                wts.release(1);
            },
            fn_args(wts_l3l2.cons(), act_l2.cons(), out_l2.prod(), conv),
            WorkerOptions{.stack_size = 0x600, .name = "conv2dk1_i8"});
        Runtime rt(
            [](RuntimeData in, RuntimeData wts, RuntimeData out, ObjectFifoHandle act_h, ObjectFifoHandle wts_h,
               ObjectFifoHandle out_h) {
                act_h.fill(in);
                wts_h.fill(wts);
                out_h.drain(out, {.wait = true});
            },
            fn_args(tensor_in_ty, wts_ty, tensor_out_ty, act_l3l2.prod(), wts_l3l2.prod(), out_l3.cons()));

        // test.py's inputs: NCHW activations in [1, 20), OIHW weights in [50, 80), laid out for the array.
        std::mt19937_64 rng(o.seed);
        std::vector<std::int8_t> act(static_cast<std::size_t>(w * h * ci)), wts(static_cast<std::size_t>(ci * co));
        for (std::int64_t c = 0; c < ci; ++c) // act[c][y][x] -> [y][c/8][x][c%8]
            for (std::int64_t y = 0; y < h; ++y)
                for (std::int64_t x = 0; x < w; ++x)
                    act[static_cast<std::size_t>(((y * (ci / 8) + c / 8) * w + x) * 8 + c % 8)] =
                        static_cast<std::int8_t>(1 + rng() % 19);
        for (std::int64_t oc = 0; oc < co; ++oc) // wts[oc][ic] -> [oc/8][ic/8][ic%8][oc%8]
            for (std::int64_t ic = 0; ic < ci; ++ic)
                wts[static_cast<std::size_t>(((oc / 8 * (ci / 8) + ic / 8) * 8 + ic % 8) * 8 + oc % 8)] =
                    static_cast<std::int8_t>(50 + rng() % 30);
        auto reference = [w, h, ci, co, scale](const Tensors& t) {
            const auto a = get(t, "act").values<std::int8_t>(), k = get(t, "wts").values<std::int8_t>();
            auto in_at = [&](std::int64_t c, std::int64_t y, std::int64_t x) { // NCHW view of YCXC8
                return std::int64_t{a[static_cast<std::size_t>(((y * (ci / 8) + c / 8) * w + x) * 8 + c % 8)]};
            };
            auto w_at = [&](std::int64_t oc, std::int64_t ic) { // OIHW view of OIYXI8O8
                return std::int64_t{
                    k[static_cast<std::size_t>(((oc / 8 * (ci / 8) + ic / 8) * 8 + ic % 8) * 8 + oc % 8)]};
            };
            std::vector<std::int8_t> out(static_cast<std::size_t>(w * h * co));
            for (std::int64_t oc = 0; oc < co; ++oc)
                for (std::int64_t y = 0; y < h; ++y)
                    for (std::int64_t x = 0; x < w; ++x) {
                        std::int64_t sum = 0;
                        for (std::int64_t ic = 0; ic < ci; ++ic) sum += in_at(ic, y, x) * w_at(oc, ic);
                        const std::int64_t mag = sum < 0 ? -sum : sum; // ties away from zero
                        const std::int64_t m = scale > 0 ? (mag + (std::int64_t{1} << (scale - 1))) >> scale : mag;
                        const std::int64_t r = sum < 0 ? -m : m;
                        out[static_cast<std::size_t>(((y * (co / 8) + oc / 8) * w + x) * 8 + oc % 8)] =
                            static_cast<std::int8_t>(std::clamp<std::int64_t>(r, -128, 127));
                    }
            return tensors("out", Tensor::from({static_cast<std::int64_t>(out.size())}, out));
        };
        return DesignInstance(
            Program(dev, rt, {worker}, design),
            {ArgSpec::input("act", tensor_in_ty), ArgSpec::input("wts", wts_ty), ArgSpec::output("out", tensor_out_ty)},
            tensors("act", Tensor::from(tensor_in_ty.shape, act), "wts", Tensor::from(wts_ty.shape, wts)), reference,
            design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_conv2d, 200);

} // namespace npusim::examples

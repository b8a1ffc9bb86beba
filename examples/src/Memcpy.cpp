// E11 basic/memcpy/memcpy.py: copy an i32 tensor through columns x channels parallel paths, each
// moving one contiguous chunk of size / (columns * channels) elements in 1024-element lines.
//   fifos `in{i}_{j}` i32[1024] (column i, channel j)
//   bypass=1: `in{i}_{j}.cons().forward()` through a mem tile (`in{i}_{j}_fwd`), no compute
//   bypass=0: fifos `out{i}_{j}` i32[1024] and one worker per path:
//             acquire out, acquire in, passThroughLine(in, out, 1024), release in, release out
//   tap of path w = i*channels + j: off w*chunk, sizes [1,1,1,chunk] (simple_tiler((1,size),(1,chunk)))
//   sequence: every fill first, then every drain with wait (runtime args a, b).
// Placement is left to the placer, as upstream (SequentialPlacer) does. Known limit: with
// bypass=1 and more than 6 paths the resolve fails, because Resolver::place_links puts every
// unpinned forward on the same mem tile (it hands back each link's channel reservation before
// placing the next) and a mem tile has 6 S2MM channels.
// Golden: b == a, inputs drawn from the seed (upstream: arange(1..n)).
// Kernels (bypass=0): the reference passThroughLine_i32 or, with KernelSet::aie, the AIE-API
// passThrough source.
#include "Design.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/passthrough.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>

#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

namespace {
constexpr std::int64_t kLine = 1024; // line_size: i32 elements per fifo object
} // namespace

DesignSpec make_memcpy() {
    DesignSpec s;
    s.name = "memcpy";
    s.description =
        "E11: b = a through columns x channels parallel shim paths (mem-tile bypass or a passThrough worker each)";
    s.params = {{"size", 16384, "i32 elements in the tensors (a multiple of 1024 * columns * channels)"},
                {"columns", 1, "columns used (at most the device's)"},
                {"channels", 1, "paths per column: 1 or 2"},
                {"bypass", 1, "1: forward through a mem tile (DMA only); 0: a passThroughLine worker per path"}};
    s.devices = every_device();
    // The build also binds the AIE-API kernel sources (BuildOptions::kernels == aie; tested in
    // tests/examples/Designs3_test.cpp); the registry does not list that build yet, because
    // tests/examples/Golden_test.cpp pins the list of designs that have one.
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.kernels_note = "passThroughLine with bypass=0; no kernel with bypass=1 (DMA only)";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string design = "memcpy";
        require_one_of(design, p, "channels", {1, 2});
        require_one_of(design, p, "bypass", {0, 1});
        const auto size = p.at("size"), cols = p.at("columns"), chans = p.at("channels");
        const bool bypass = p.at("bypass") != 0;
        if (cols < 1 || cols > dev.cols)
            throw DesignError(
                fmt::format("design '{}': parameter columns={} does not fit device {}, which has {} column{}", design,
                            cols, dev.name, dev.cols, dev.cols == 1 ? "" : "s"));
        const std::int64_t paths = cols * chans;
        if (size <= 0 || size % (kLine * paths) != 0)
            throw DesignError(
                fmt::format("design '{}': parameter size={} must be a positive multiple of {} (1024-element lines x "
                            "columns={} x channels={})",
                            design, size, kLine * paths, cols, chans));
        const std::int64_t chunk = size / paths;
        const auto line_ty = tensor<std::int32_t>({kLine});
        const auto xfr_ty = tensor<std::int32_t>({size});

        std::vector<ObjectFifo> of_ins, of_outs;
        for (std::int64_t i = 0; i < cols; ++i)
            for (std::int64_t j = 0; j < chans; ++j) of_ins.emplace_back(line_ty, fmt::format("in{}_{}", i, j), 2);
        std::vector<Worker> workers;
        if (bypass) {
            for (const auto& f : of_ins) of_outs.push_back(f.cons().forward());
        } else {
            for (std::int64_t i = 0; i < cols; ++i)
                for (std::int64_t j = 0; j < chans; ++j)
                    of_outs.emplace_back(line_ty, fmt::format("out{}_{}", i, j), 2);
            std::vector<ArgType> types{line_ty, line_ty, scalar<std::int32_t>()};
            auto cost = [](std::span<const KernelArg> a) {
                return kernels::passThroughLine_cycles(static_cast<std::int32_t>(a[2].ivalue),
                                                       static_cast<int>(sizeof(std::int32_t)));
            };
            void (*aie)(const std::int32_t*, std::int32_t*, std::int32_t) = &aie_kernels::passThroughLine;
            const Kernel pass = o.kernels == KernelSet::aie
                                    ? aie_kernel("passThroughLine", aie, types, cost)
                                    : Kernel("passThroughLine", &kernels::passThroughLine_i32, types, cost);
            for (std::size_t w = 0; w < of_ins.size(); ++w)
                workers.emplace_back(
                    [](ObjectFifoHandle in, ObjectFifoHandle out, Kernel k) {
                        auto eo = out.acquire(1);
                        auto ei = in.acquire(1);
                        k(ei, eo, static_cast<std::int32_t>(kLine));
                        in.release(1);
                        out.release(1);
                    },
                    fn_args(of_ins[w].cons(), of_outs[w].prod(), pass),
                    WorkerOptions{.name = fmt::format("copy{}_{}", static_cast<std::int64_t>(w) / chans,
                                                      static_cast<std::int64_t>(w) % chans)});
        }
        // memcpy.py: taps = TensorTiler2D.simple_tiler((1, size), (1, chunk)); path w uses taps[w]
        const std::vector<TensorAccessPattern> taps =
            TensorTiler2D::simple_tiler({1, size}, std::vector<std::int64_t>{1, chunk}).taps();
        std::vector<ObjectFifoHandle> in_prods, out_conses;
        for (std::size_t w = 0; w < of_ins.size(); ++w) {
            in_prods.push_back(of_ins[w].prod());
            out_conses.push_back(of_outs[w].cons());
        }
        Runtime rt(
            [taps](RuntimeData a, RuntimeData b, std::vector<ObjectFifoHandle> ins,
                   std::vector<ObjectFifoHandle> outs) {
                for (std::size_t w = 0; w < ins.size(); ++w) ins[w].fill(a, {.tap = taps[w]});
                for (std::size_t w = 0; w < outs.size(); ++w) outs[w].drain(b, {.tap = taps[w], .wait = true});
            },
            fn_args(xfr_ty, xfr_ty, in_prods, out_conses));
        auto reference = [](const Tensors& t) { return tensors("b", get(t, "a")); }; // golden: b == a
        return DesignInstance(Program(dev, rt, workers, design),
                              {ArgSpec::input("a", xfr_ty), ArgSpec::output("b", xfr_ty)},
                              tensors("a", Tensor::random_bits(xfr_ty.dtype, xfr_ty.shape, o.seed)), reference, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_memcpy, 110);

} // namespace npusim::examples

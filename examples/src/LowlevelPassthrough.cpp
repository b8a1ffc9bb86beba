// lowlevel_passthrough: a hand-written copy below ObjectFifo, in the style of mlir-aie's
// programming_examples/basic/chaining_channels and packet_switch (IRON Buffer, Lock, Flow, TileDma,
// Worker with explicit locks). The shim's MM2S 0 streams `a` (Flow shim_symbol "in") into the
// compute tile's S2MM 0, whose one self-looping BD fills `in_buf` (acquire in_empty, release
// in_full); the worker waits on in_full and out_empty, copies in_buf to out_buf, releases in_empty
// and out_full; the compute tile's MM2S 0 BD (acquire out_full, release out_empty) streams out_buf
// to the shim's S2MM 0 (Flow shim_symbol "out"), which writes `c`. Golden: c == a.
#include "Design.hpp"
#include "SymbolSequence.hpp"

#include <algorithm>

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_lowlevel_passthrough() {
    DesignSpec s;
    s.name = "lowlevel_passthrough";
    s.description = "low-level API: Buffers, Locks, Flows and a TileDma copy through a compute tile";
    s.params = {{"size", 4096, "i32 elements in the tensors"}, {"tile", 1024, "i32 elements per compute-tile buffer"}};
    s.devices = every_device();
    s.kernels_note = "no kernel: the worker body copies the buffer itself";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        require_multiple("lowlevel_passthrough", p, "size", "tile");
        const auto size = p.at("size");
        const auto tile = p.at("tile");
        const auto vec_ty = tensor<std::int32_t>({size});
        const auto tile_ty = tensor<std::int32_t>({tile});
        const Tile shim(0, 0), core(0, 2);

        Buffer in_buf(tile_ty, "in_buf"), out_buf(tile_ty, "out_buf");
        Lock in_empty(core, std::nullopt, 1, "in_empty"), in_full(core, std::nullopt, 0, "in_full");
        Lock out_empty(core, std::nullopt, 1, "out_empty"), out_full(core, std::nullopt, 0, "out_full");

        Worker w(
            [tile](Buffer in, Buffer out, Lock in_e, Lock in_f, Lock out_e, Lock out_f) {
                in_f.acquire();
                out_e.acquire();
                // for i in range_(tile): out[i] = in[i] (memref.load / memref.store)
                range_(tile, [&](std::int64_t i) { out.at<std::int32_t>(i) = in.at<std::int32_t>(i); });
                in_e.release();
                out_f.release();
            },
            fn_args(in_buf, out_buf, in_empty, in_full, out_empty, out_full), {.tile = core, .name = "copy"});

        TileDma dma(core,
                    {DmaChannel{.direction = DMAChannelDir::S2MM,
                                .channel = 0,
                                .bds = {Bd{.buffer = in_buf, .acquires = {{in_empty}}, .releases = {{in_full}}}}},
                     DmaChannel{.direction = DMAChannelDir::MM2S,
                                .channel = 0,
                                .bds = {Bd{.buffer = out_buf, .acquires = {{out_full}}, .releases = {{out_empty}}}}}},
                    "core_dma");
        Flow to_core(shim, core, {.shim_symbol = "in"});
        Flow from_core(core, shim, {.shim_symbol = "out"});

        Runtime rt(in_out_symbol_sequence, fn_args(vec_ty, vec_ty));
        rt.add_flow(to_core);
        rt.add_flow(from_core);
        for (const auto& l : {in_empty, in_full, out_empty, out_full}) rt.add_lock(l);
        rt.add_tile_dma(dma);

        std::mt19937 gen(static_cast<std::uint32_t>(o.seed));
        std::uniform_int_distribution<std::int32_t> dist(-1000000, 1000000);
        std::vector<std::int32_t> a(static_cast<std::size_t>(size));
        for (auto& x : a) x = dist(gen);
        auto reference = [](const Tensors& in) { return tensors("c", get(in, "a")); }; // golden: c == a
        return DesignInstance(Program(dev, rt, {w}, "lowlevel_passthrough"),
                              {ArgSpec::input("a", vec_ty), ArgSpec::output("c", vec_ty)},
                              tensors("a", Tensor::from(vec_ty.shape, a)), reference, "lowlevel_passthrough");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_lowlevel_passthrough, 220);

} // namespace npusim::examples

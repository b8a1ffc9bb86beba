// manual_switchbox: mlir-aie programming_examples/basic/manual_switchbox, written for npusim. The
// shim's MM2S 0 streams `a` into a compute tile's S2MM 0 (a hand-written BD and lock pair); the
// worker copies the buffer; the compute MM2S 0 streams it back to the shim's S2MM 0, which writes
// `c`. Every stream-switch hop is pinned by hand, as upstream pins them (aie.shim_mux and one
// aie.switchbox per tile of the column: Switchbox / ShimMux), so no route comes from the router:
// shim mux DMA 0 -> North 3, shim switch South 3 -> North 1, mem tile South 1 -> North 1, compute
// tile South 1 -> DMA 0, and back DMA 0 -> South 0, North 0 -> South 0, North 0 -> South 2, mux
// North 2 -> DMA 0. The shim side is programmed by registers, as upstream does: two npu_writebd,
// their npu_address_patch, two npu_push_queue and an npu_sync on the S2MM. Golden: c == a.
#include "Design.hpp"

#include "npusim/model/RegisterMap.hpp"

#include <algorithm>

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_manual_switchbox() {
    DesignSpec s;
    s.name = "manual_switchbox";
    s.description = "hand-pinned switchbox routes (aie.switchbox / aie.shim_mux) and a register-level runtime "
                    "sequence: a compute-tile copy whose shim side is hand-written BDs, queue pushes and a sync";
    s.params = {{"n", 64, "i32 elements in the tensors"}};
    s.devices = every_device();
    s.kernels_note = "no kernel: the worker body copies the buffer itself";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const auto n = p.at("n");
        if (n < 1 || n > 2048) throw DesignError("design 'manual_switchbox': parameter n must be within 1..2048");
        const auto ty = tensor<std::int32_t>({n});
        const Tile shim(0, 0), core(0, 2);
        const Buffer in_buf(ty, "in_buf", {}, core), out_buf(ty, "out_buf", {}, core);
        const Lock in_prod(core, 0, 1, "in_prod"), in_cons(core, 1, 0, "in_cons");
        const Lock out_prod(core, 2, 1, "out_prod"), out_cons(core, 3, 0, "out_cons");
        const TileDma dma(
            core,
            {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = in_buf, .acquires = {{in_prod}}, .releases = {{in_cons}}}}},
             DmaChannel{DMAChannelDir::MM2S, 0,
                        {Bd{.buffer = out_buf, .acquires = {{out_cons}}, .releases = {{out_prod}}}}}},
            "comp_dma");
        Worker w(
            [n](Lock ic, Lock ip, Lock op, Lock oc, Buffer ib, Buffer ob) {
                ic.acquire(1);
                op.acquire(1);
                range_(n, [&](std::int64_t i) { ob.at<std::int32_t>(i) = ib.at<std::int32_t>(i); });
                ip.release(1);
                oc.release(1);
            },
            fn_args(in_cons, in_prod, out_prod, out_cons, in_buf, out_buf), {.tile = core, .name = "copy"});
        const auto& regs = model::RegisterMap::of(dev);
        const auto bd0 = model::RegisterMap::join({0, 0}, regs.bd_word(model::TileKind::Shim, 0, 1));
        const auto bd1 = model::RegisterMap::join({0, 0}, regs.bd_word(model::TileKind::Shim, 1, 1));
        Runtime rt(
            [n, bd0, bd1](RuntimeData, RuntimeData) {
                npu_writebd({.bd_id = 0, .buffer_length = n, .column = 0, .row = 0}); // a -> array
                npu_address_patch(bd0, 0, 0);
                npu_writebd({.bd_id = 1, .buffer_length = n, .column = 0, .row = 0}); // array -> c
                npu_address_patch(bd1, 1, 0);
                npu_push_queue(0, 0, 1, 0, false, 0, 0);
                npu_push_queue(0, 0, 0, 0, true, 0, 1);
                npu_sync(0, 0, 0, 0, 1, 1);
            },
            fn_args(ty, ty));
        using B = WireBundle;
        const Tile mem(0, 1);
        rt.add_switchbox(ShimMux(shim, {{B::DMA, 0, B::North, 3}, {B::North, 2, B::DMA, 0}}));
        rt.add_switchbox(Switchbox(shim, {{B::South, 3, B::North, 1}, {B::North, 0, B::South, 2}}));
        rt.add_switchbox(Switchbox(mem, {{B::South, 1, B::North, 1}, {B::North, 0, B::South, 0}}));
        rt.add_switchbox(Switchbox(core, {{B::South, 1, B::DMA, 0}, {B::DMA, 0, B::South, 0}}));
        for (const auto& l : {in_prod, in_cons, out_prod, out_cons}) rt.add_lock(l);
        rt.add_tile_dma(dma);

        std::mt19937 gen(static_cast<std::uint32_t>(o.seed));
        std::uniform_int_distribution<std::int32_t> dist(-1000000, 1000000);
        std::vector<std::int32_t> a(static_cast<std::size_t>(n));
        for (auto& x : a) x = dist(gen);
        auto reference = [](const Tensors& in) { return tensors("c", get(in, "a")); };
        return DesignInstance(Program(dev, rt, {w}, "manual_switchbox"),
                              {ArgSpec::input("a", ty), ArgSpec::output("c", ty)},
                              tensors("a", Tensor::from(ty.shape, a)), reference, "manual_switchbox");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_manual_switchbox, 223);

} // namespace npusim::examples

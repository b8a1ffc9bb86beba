// custom_dma: the idea of mlir-aie programming_examples/basic/custom_dma, written for npusim. A mem
// tile buffer holds four rows of 16 i32 (row r: (r+1)*100 + 0..15); a hand-written chain of three
// mem-tile MM2S BDs reads rows 0, 1 and 3 (non-uniform offsets), each BD acquiring a lock that the
// runtime sequence sets to 3 (set_lock_value, aiex.set_lock: the lock's value register). The
// compute tile's S2MM BD receives each row (its own lock pair); the worker copies it into an
// ObjectFifo the sequence drains. Golden: c == rows 0, 1, 3.
#include "Design.hpp"

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_custom_dma() {
    DesignSpec s;
    s.name = "custom_dma";
    s.description = "register-level runtime sequence: set_lock_value starts a hand-written mem-tile BD chain that "
                    "reads rows at non-uniform offsets";
    s.params = {{"cols", 16, "i32 elements per row"}};
    s.devices = every_device();
    s.kernels_note = "no kernel: the worker body copies each row itself";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions&) {
        const auto cols = p.at("cols");
        if (cols < 1 || cols > 1024) throw DesignError("design 'custom_dma': parameter cols must be within 1..1024");
        const auto buf_ty = tensor<std::int32_t>({4 * cols});
        const auto row_ty = tensor<std::int32_t>({cols});
        const auto out_ty = tensor<std::int32_t>({3 * cols});
        const Tile mem(0, 1), core(0, 2);

        std::vector<std::int32_t> init(static_cast<std::size_t>(4 * cols));
        for (std::int64_t r = 0; r < 4; ++r)
            for (std::int64_t i = 0; i < cols; ++i)
                init[static_cast<std::size_t>(r * cols + i)] = static_cast<std::int32_t>((r + 1) * 100 + i);
        const Buffer src = Buffer::with_values(buf_ty, "scatter_buf", init, mem);
        // The mem side's consumer lock starts at 0: nothing moves until the sequence sets it.
        const Lock mem_prod(mem, std::nullopt, 0, "scatter_prod"), mem_cons(mem, std::nullopt, 0, "scatter_cons");
        const Buffer recv(row_ty, "scatter_buf_recv", {}, core);
        const Lock comp_prod(core, std::nullopt, 1, "recv_prod"), comp_cons(core, std::nullopt, 0, "recv_cons");

        auto row_bd = [&](std::int64_t row, int next) {
            return Bd{.buffer = src,
                      .offset = row * cols,
                      .length = cols,
                      .acquires = {{mem_cons, 1}},
                      .releases = {{mem_prod, 1}},
                      .next = next};
        };
        const TileDma mem_dma(mem, {DmaChannel{DMAChannelDir::MM2S, 0, {row_bd(0, 1), row_bd(1, 2), row_bd(3, 0)}}},
                              "scatter_dma");
        const TileDma core_dma(
            core, {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = recv, .acquires = {{comp_prod}}, .releases = {{comp_cons}}}}}},
            "recv_dma");
        ObjectFifo out(row_ty, "out", 1);
        Worker w(
            [cols](Buffer in, Lock cons, Lock prod, ObjectFifoHandle o) {
                for (int row = 0; row < 3; ++row) {
                    cons.acquire(1);
                    auto e = o.acquire(1);
                    range_(cols, [&](std::int64_t i) { e.at<std::int32_t>(i) = in.at<std::int32_t>(i); });
                    prod.release(1);
                    o.release(1);
                }
            },
            fn_args(recv, comp_cons, comp_prod, out.prod()), {.tile = core, .name = "scatter_copy"});
        Runtime rt(
            [mem_cons](RuntimeData c, ObjectFifoHandle o) {
                TaskGroup tg;
                o.drain(c, {.wait = true, .group = &tg});
                set_lock_value(mem_cons, 3); // one acquire for each of the three BDs
                tg.finish();
            },
            fn_args(out_ty, out.cons()));
        rt.add_flow(Flow(mem, core));
        for (const auto& l : {mem_prod, mem_cons, comp_prod, comp_cons}) rt.add_lock(l);
        rt.add_tile_dma(mem_dma);
        rt.add_tile_dma(core_dma);

        std::vector<std::int32_t> expect;
        for (std::int64_t r : {0, 1, 3})
            expect.insert(expect.end(), init.begin() + r * cols, init.begin() + (r + 1) * cols);
        auto reference = [expect, out_ty](const Tensors&) { return tensors("c", Tensor::from(out_ty.shape, expect)); };
        return DesignInstance(Program(dev, rt, {w}, "custom_dma"), {ArgSpec::output("c", out_ty)}, Tensors{}, reference,
                              "custom_dma");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_custom_dma, 222);

} // namespace npusim::examples

// chaining_channels: the idea of mlir-aie programming_examples/basic/chaining_channels, written
// for npusim. A mem tile buffer starts with 1..n; its MM2S 0 BD waits on a lock that only the
// runtime sequence releases, by writing the lock's value register (npu_write32 of Lock0_value,
// offset 0xC0000 of the mem tile: model/RegisterMap). The sequence then programs two shim BDs by
// hand (npu_writebd + npu_address_patch) and chains the shim's channels with the shim's own locks:
// the S2MM BD that writes `a` releases shim lock 1 when done; the MM2S BD that reads `b` into the
// compute tile waits until that lock equals 1 (Lock_Acq_Value >= 0: acquire-equal). Both are
// started with npu_push_queue and the sequence syncs on the MM2S (npu_sync). The compute tile only
// toggles its locks (its data is discarded). Golden: a == 1..n.
#include "Design.hpp"
#include "npusim/model/RegisterMap.hpp"

#include <array>
#include <numeric>

namespace npusim::examples {

using namespace npusim::iron;

namespace {

// The shim BD of one transfer: linear, `words` long, with the given lock fields.
NpuWriteBd shim_bd(int bd_id, std::int64_t words, int col, int acq_id, int acq_val, int rel_id, int rel_val) {
    return NpuWriteBd{.bd_id = bd_id,
                      .buffer_length = words,
                      .column = col,
                      .row = 0,
                      .lock_acq_enable = 1,
                      .lock_acq_id = acq_id,
                      .lock_acq_val = acq_val,
                      .lock_rel_id = rel_id,
                      .lock_rel_val = rel_val,
                      .valid_bd = 1};
}

} // namespace

DesignSpec make_chaining_channels() {
    DesignSpec s;
    s.name = "chaining_channels";
    s.description = "register-level runtime sequence: a lock write starts a mem-tile BD, hand-written shim BDs "
                    "chained by shim locks";
    s.params = {{"n", 256, "i32 elements the mem tile sends to `a` (b has 4n)"},
                {"kick", 1, "1: the sequence writes the mem tile's lock; 0: it does not (the run deadlocks)"}};
    s.devices = every_device();
    s.kernels_note = "no kernel: the worker only toggles its locks";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions&) {
        const auto n = p.at("n");
        if (n < 1 || n > 4096) throw DesignError("design 'chaining_channels': parameter n must be within 1..4096");
        const bool kick = p.at("kick") != 0;
        const int col = 0;
        const auto vec_ty = tensor<std::int32_t>({n});
        const auto read_ty = tensor<std::int32_t>({4 * n});
        const Tile shim(col, 0), mem(col, 1), core(col, 2);

        std::vector<std::int32_t> init(static_cast<std::size_t>(n));
        std::iota(init.begin(), init.end(), 1);
        const Buffer mem_buf = Buffer::with_values(vec_ty, "memtile_buff", init, mem);
        const Lock mem_lock(mem, 0, 0, "memtile_lock");
        const Buffer core_buf(read_ty, "compute_buff", {}, core);
        const Lock prod(core, 0, 1, "compute_prod_lock"), cons(core, 1, 0, "compute_cons_lock");

        const Flow mem_to_shim(mem, shim), shim_to_core(shim, core);
        // The mem tile's BD takes the lock (>= 1) and gives back 0: it runs once per lock write.
        const TileDma mem_dma(mem,
                              {DmaChannel{.direction = DMAChannelDir::MM2S,
                                          .channel = 0,
                                          .bds = {Bd{.buffer = mem_buf,
                                                     .length = n,
                                                     .acquires = {{mem_lock, 1}},
                                                     .releases = {{mem_lock, 0}}}}}},
                              "memtile_dma");
        const TileDma core_dma(core,
                               {DmaChannel{.direction = DMAChannelDir::S2MM,
                                           .channel = 0,
                                           .bds = {Bd{.buffer = core_buf,
                                                      .length = 4 * n,
                                                      .acquires = {{prod, 1}},
                                                      .releases = {{cons, 1}}}}}},
                               "compute_dma");
        Worker w(
            [](Lock c, Lock pr) {
                c.acquire(1);
                pr.release(1);
            },
            fn_args(cons, prod), {.tile = core, .name = "spinner"});

        const auto& regs = model::RegisterMap::of(dev);
        Runtime rt(
            [n, col, kick, lock_reg = regs.lock_value(model::TileKind::Mem, 0),
             bd_addr = std::array{model::RegisterMap::join({col, 0}, regs.bd_word(model::TileKind::Shim, 0, 1)),
                                  model::RegisterMap::join({col, 0}, regs.bd_word(model::TileKind::Shim, 1, 1))}](
                RuntimeData, RuntimeData) {
                if (kick) npu_write32(lock_reg, 1, col, 1); // release the mem tile's lock: its MM2S BD runs
                // BD 0 (S2MM 0, mem tile -> a): acquire shim lock 0 == 0, then release lock 1 (+1).
                npu_writebd(shim_bd(0, n, col, 0, 0, 1, 1));
                npu_address_patch(bd_addr[0], 0, 0);
                // BD 1 (MM2S 0, b -> compute tile): wait until shim lock 1 == 1.
                npu_writebd(shim_bd(1, 4 * n, col, 1, 1, 0, 0));
                npu_address_patch(bd_addr[1], 1, 0);
                npu_push_queue(col, 0, 0, 0, false, 0, 0);
                npu_push_queue(col, 0, 1, 0, true, 0, 1);
                npu_sync(col, 0, 1, 0, 1, 1);
            },
            fn_args(vec_ty, read_ty));
        rt.add_flow(mem_to_shim);
        rt.add_flow(shim_to_core);
        for (const auto& l : {mem_lock, prod, cons}) rt.add_lock(l);
        rt.add_tile_dma(mem_dma);
        rt.add_tile_dma(core_dma);

        std::vector<std::int32_t> a(static_cast<std::size_t>(n), static_cast<std::int32_t>(0xDEADBEEF));
        std::vector<std::int32_t> b(static_cast<std::size_t>(4 * n));
        std::iota(b.begin(), b.end(), 0);
        auto reference = [init, vec_ty](const Tensors& in) {
            (void)in;
            return tensors("a", Tensor::from(vec_ty.shape, init));
        };
        return DesignInstance(Program(dev, rt, {w}, "chaining_channels"),
                              {ArgSpec::inout("a", vec_ty), ArgSpec::input("b", read_ty)},
                              tensors("a", Tensor::from(vec_ty.shape, a), "b", Tensor::from(read_ty.shape, b)),
                              reference, "chaining_channels");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_chaining_channels, 221);

} // namespace npusim::examples

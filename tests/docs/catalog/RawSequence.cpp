// The register-level runtime-sequence operations (npu_write32, npu_maskwrite32, npu_blockwrite,
// npu_writebd, npu_address_patch, npu_push_queue, npu_sync, set_lock_value): decoding with the
// generation's register map (frontend/src/resolve/RawOpLowering.cpp, RawShimTasks.cpp,
// model/RegisterMap.hpp). The range checks on BD ids, packet fields and repeat counts are the
// toolchain's verifiers (mlir-aie lib/Dialect/AIEX/IR/AIEXDialect.cpp at 3ca0193:
// NpuPushQueueOp::verify L727-740, NpuWriteBdOp::verify L746-760), with their messages.
#include "Designs.hpp"

namespace npusim::errcat {

namespace {

// The shim's MM2S 0 streams into a compute tile's S2MM 0 (a TileDma BD of 64 words) through a Flow
// without shim symbol; `seq` (one i32[64] argument) drives it by registers.
model::Netlist raw(std::function<void(RuntimeData)> seq, ResolveOptions o = {}) {
    Buffer buf(i32(64), "buf", {}, kCore);
    Lock e(kCore, std::nullopt, 1, "e"), f(kCore, std::nullopt, 0, "f");
    Runtime rt(std::move(seq), fn_args(i32(64)));
    rt.add_lock(e);
    rt.add_lock(f);
    rt.add_flow(Flow(kShim, kCore));
    rt.add_tile_dma(
        TileDma(kCore, {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = buf, .acquires = {{e}}, .releases = {{f}}}}}},
                "rx"));
    return resolve(Program("npu1_1col", rt, {}, "raw"), o);
}

// The shim's MM2S 0 as the source of PacketFlow 5 into a compute tile's S2MM 0; the sequence
// moves one i32[64] through it with shim_dma_single_bd_task(`opts`) on symbol "in".
model::Netlist shim_packet(ShimTaskOptions opts) {
    Buffer buf(i32(64), "buf", {}, kCore);
    Runtime rt(
        [opts](RuntimeData a) {
            const Task t = shim_dma_single_bd_task("in", a, opts);
            dma_start_task(t);
            dma_await_task(t);
        },
        fn_args(i32(64)));
    rt.add_flow(PacketFlow(5, kShim, kCore, {.shim_symbol = "in"}));
    rt.add_tile_dma(TileDma(kCore, {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = buf}}}}, "rx"));
    return resolve(Program("npu1_1col", rt, {}, "pk"));
}

// A valid linear shim BD 0 of 64 words on column 0, changed by `edit`.
NpuWriteBd bd0(const std::function<void(NpuWriteBd&)>& edit = {}) {
    NpuWriteBd b{.bd_id = 0, .buffer_length = 64, .column = 0, .row = 0};
    if (edit) edit(b);
    return b;
}

// BD 0 written (as `edit` makes it) and patched to argument 0, then pushed on MM2S 0.
void write_patch_push(const std::function<void(NpuWriteBd&)>& edit = {}, int repeat = 0) {
    npu_writebd(bd0(edit));
    npu_address_patch(0x1D004, 0, 0);
    npu_push_queue(0, 0, 1, 0, true, repeat, 0);
}
} // namespace

void add_raw_sequence(Catalog& c) {
    c.component("Register-level runtime sequence",
                "IRON's raw sequence operations (`npu_write32`, `npu_maskwrite32`, `npu_blockwrite`, `npu_writebd`, "
                "`npu_address_patch`, `npu_push_queue`, `npu_sync`, `set_lock_value`), decoded with the generation's "
                "register map (`model/RegisterMap.hpp`, `frontend/src/resolve/RawOpLowering.cpp`). A write to a "
                "register npusim does not simulate is a warning naming it (an error under `--werror`).");
    c.site("frontend/src/RawSequence.cpp");
    NPUSIM_ERROR(c, "raw.outside_sequence", kDesign, "npu_write32 called outside the runtime sequence",
                 npu_write32(0xC0000, 1, 0, 1));
    c.site("frontend/src/resolve/RawOpLowering.cpp");
    NPUSIM_ERROR(c, "raw.address_outside_device", kDesign,
                 "npu_write32(0x7e0c0000, 1): address 0x7e0c0000 is outside the device npu1_1col (column 63 row 0; "
                 "it has 1 columns and 6 rows)",
                 raw([](RuntimeData) { npu_write32(0x7E0C0000u, 1); }));
    NPUSIM_ERROR(c, "raw.offset_outside_tile", kDesign,
                 "npu_write32(0x100000, 1) on (0,2): tile (0,2) offset 0x100000 is outside the device npu1_1col (1 "
                 "columns, 6 rows, 0x100000 bytes of registers per tile)",
                 raw([](RuntimeData) { npu_write32(0x100000, 1, 0, 2); }));
    NPUSIM_ERROR(c, "raw.lock_value_range", kDesign,
                 "npu_write32(0x1f000, 64) on (0,2): lock 'e' on (0,2): a lock value must be within 0..63 (the "
                 "lock's state)",
                 raw([](RuntimeData) { npu_write32(0x1F000, 64, 0, 2); }));
    NPUSIM_ERROR(c, "raw.set_lock_not_in_design", kDesign,
                 "set_lock_value(lock 'loose', 1): lock 'loose' is not part of the design; register it with "
                 "Runtime::add_lock (or use it in a Worker or TileDma)",
                 Lock loose(kCore, 5, 0, "loose"); raw([loose](RuntimeData) { set_lock_value(loose, 1); }));
    NPUSIM_ERROR(c, "raw.unsimulated_register", kDesign,
                 "warning treated as an error (--werror): npu_write32(0x32000, 1) on (0,2): writes Core_Control of "
                 "compute tile (0,2) (address 0x00232000), which npusim does not simulate: the write has no effect "
                 "in the simulation",
                 raw([](RuntimeData) { npu_write32(0x32000, 1, 0, 2); }, {.werror = true}));
    c.site("frontend/src/resolve/RawShimTasks.cpp");
    NPUSIM_ERROR(c, "raw.writebd_outside_device", kDesign,
                 "npu_writebd(bd_id=0) on (3,0): tile (3,0) is outside the device npu1_1col",
                 raw([](RuntimeData) { npu_writebd(bd0([](NpuWriteBd& b) { b.column = 3; })); }));
    NPUSIM_ERROR(c, "raw.bd_id_range", kDesign,
                 "npu_writebd(bd_id=17) on (0,0): BD ID exceeds the maximum ID. (tile (0,0) has BDs 0..15)",
                 raw([](RuntimeData) { npu_writebd(bd0([](NpuWriteBd& b) { b.bd_id = 17; })); }));
    NPUSIM_ERROR(c, "raw.packet_id_range", kDesign,
                 "npu_writebd(bd_id=0) on (0,0): Packet ID exceeds the maximum supported by 5 bits.",
                 raw([](RuntimeData) { npu_writebd(bd0([](NpuWriteBd& b) { b.packet_id = 32; })); }));
    NPUSIM_ERROR(c, "raw.packet_type_range", kDesign,
                 "npu_writebd(bd_id=0) on (0,0): Packet Type exceeds the maximum supported by 3 bits.",
                 raw([](RuntimeData) { npu_writebd(bd0([](NpuWriteBd& b) { b.packet_type = 8; })); }));
    NPUSIM_ERROR(c, "raw.shim_bd_padding", kDesign,
                 "npu_writebd(bd_id=0) on (0,0): a shim BD cannot pad (zero_before / zero_after are mem-tile BD "
                 "fields)",
                 raw([](RuntimeData) { npu_writebd(bd0([](NpuWriteBd& b) { b.d0_zero_before = 1; })); }));
    NPUSIM_ERROR(c, "raw.patch_outside_device", kDesign,
                 "npu_address_patch(0x7e01d004, arg_idx=0): address 0x7e01d004 is outside the device npu1_1col",
                 raw([](RuntimeData) { npu_address_patch(0x7E01D004u, 0, 0); }));
    NPUSIM_ERROR(c, "raw.patch_not_address", kDesign,
                 "npu_address_patch(0x1d000, arg_idx=0): patches DMA_BD0_0 of shim tile (0,0), not a shim BD's "
                 "address word (DMA_BD<n>_1 of a shim tile)",
                 raw([](RuntimeData) { npu_address_patch(0x1D000, 0, 0); }));
    NPUSIM_ERROR(c, "raw.patch_argument", kDesign,
                 "npu_address_patch(0x1d004, arg_idx=3): the runtime sequence has 1 argument(s), no argument 3",
                 raw([](RuntimeData) { npu_address_patch(0x1D004, 3, 0); }));
    NPUSIM_ERROR(c, "raw.patch_arg_plus", kDesign,
                 "npu_address_patch(0x1d004, arg_idx=0): arg_plus 2 must be a non-negative multiple of 4 bytes",
                 raw([](RuntimeData) { npu_address_patch(0x1D004, 0, 2); }));
    NPUSIM_ERROR(c, "raw.push_outside_device", kDesign,
                 "npu_push_queue((2,0) MM2S 0, bd_id=0): tile (2,0) is outside the device npu1_1col",
                 raw([](RuntimeData) { npu_push_queue(2, 0, 1, 0, true, 0, 0); }));
    NPUSIM_ERROR(c, "raw.push_bd_id_range", kDesign,
                 "npu_push_queue((0,0) MM2S 0, bd_id=20): BD ID exceeds the maximum ID. (tile (0,0) has BDs 0..15)",
                 raw([](RuntimeData) { npu_push_queue(0, 0, 1, 0, true, 0, 20); }));
    NPUSIM_ERROR(c, "raw.push_repeat_range", kDesign,
                 "npu_push_queue((0,0) MM2S 0, bd_id=0): Repeat count exceeds the [0:255] range.",
                 raw([](RuntimeData) { write_patch_push({}, 256); }));
    NPUSIM_ERROR(c, "raw.push_channel", kDesign,
                 "npu_push_queue((0,0) MM2S 4, bd_id=0): shim tile (0,0) has 2 MM2S channel(s)",
                 raw([](RuntimeData) { npu_push_queue(0, 0, 1, 4, true, 0, 0); }));
    NPUSIM_ERROR(c, "raw.push_no_flow", kDesign,
                 "npu_push_queue((0,0) MM2S 1, bd_id=0): no Flow or PacketFlow has an end at (0,0) MM2S 1: the "
                 "task's data has nowhere to go",
                 raw([](RuntimeData) { npu_push_queue(0, 0, 1, 1, true, 0, 0); }));
    NPUSIM_ERROR(c, "raw.push_unwritten_bd", kDesign,
                 "npu_push_queue((0,0) MM2S 0, bd_id=2): BD 2 of shim tile (0,0) was never written (npu_writebd)",
                 raw([](RuntimeData) { npu_push_queue(0, 0, 1, 0, true, 0, 2); }));
    NPUSIM_ERROR(c, "raw.push_invalid_bd", kDesign,
                 "npu_push_queue((0,0) MM2S 0, bd_id=0): BD 0 of shim tile (0,0) is not valid (valid_bd=0)",
                 raw([](RuntimeData) { write_patch_push([](NpuWriteBd& b) { b.valid_bd = 0; }); }));
    NPUSIM_ERROR(c, "raw.push_unpatched", kDesign,
                 "npu_push_queue((0,0) MM2S 0, bd_id=0): BD 0 of shim tile (0,0) has no host address: patch its "
                 "DMA_BD0_1 with npu_address_patch before pushing it",
                 raw([](RuntimeData) {
                     npu_writebd(bd0());
                     npu_push_queue(0, 0, 1, 0, true, 0, 0);
                 }));
    NPUSIM_ERROR(c, "raw.push_chain_loop", kDesign,
                 "npu_push_queue((0,0) MM2S 0, bd_id=0): BD 0 chains back to BD 0 (use_next_bd): the task would never "
                 "end",
                 raw([](RuntimeData) { write_patch_push([](NpuWriteBd& b) { b.use_next_bd = 1, b.next_bd = 0; }); }));
    NPUSIM_ERROR(c, "raw.push_chain_unwritten", kDesign,
                 "npu_push_queue((0,0) MM2S 0, bd_id=0): BD 1 of shim tile (0,0) was never written (npu_writebd)",
                 raw([](RuntimeData) { write_patch_push([](NpuWriteBd& b) { b.use_next_bd = 1, b.next_bd = 1; }); }));
    NPUSIM_ERROR(c, "raw.push_chain_fields", kDesign,
                 "npu_push_queue((0,0) MM2S 0, bd_id=0): BD 0 of the chain from BD 0 has lock or packet fields: "
                 "npusim models them on single-BD shim tasks only",
                 raw([](RuntimeData) {
                     write_patch_push([](NpuWriteBd& b) { b.use_next_bd = 1, b.next_bd = 1, b.enable_packet = 1; });
                 }));
    NPUSIM_ERROR(c, "raw.push_zero_length", kDesign,
                 "npu_push_queue((0,0) MM2S 0, bd_id=0): BD 0 has buffer_length 0",
                 raw([](RuntimeData) { write_patch_push([](NpuWriteBd& b) { b.buffer_length = 0; }); }));
    NPUSIM_ERROR(c, "raw.push_past_iterations", kDesign,
                 "npu_push_queue((0,0) MM2S 0, bd_id=0): repeat_count 3 runs BD 0 past its 2 iterations (the "
                 "iteration wraps): not modelled",
                 raw([](RuntimeData) { write_patch_push([](NpuWriteBd& b) { b.iteration_size = 1; }, 3); }));
    NPUSIM_ERROR(c, "raw.push_dims_length", kDesign,
                 "npu_push_queue((0,0) MM2S 0, bd_id=0): buffer_length 64 is not a multiple of d0_size x d1_size (5 "
                 "x 1)",
                 raw([](RuntimeData) { write_patch_push([](NpuWriteBd& b) { b.d0_size = 5; }); }));
    NPUSIM_ERROR(c, "raw.push_outside_tensor", kDesign,
                 "npu_push_queue((0,0) MM2S 0, bd_id=0): BD 0 moves bytes 0..511 of runtime argument 0 (256 B)",
                 raw([](RuntimeData) { write_patch_push([](NpuWriteBd& b) { b.buffer_length = 128; }); }));
    NPUSIM_ERROR(c, "raw.packet_on_s2mm", kDesign,
                 "npu_push_queue((0,0) S2MM 0, bd_id=0): BD 0 enables a packet header on an S2MM channel",
                 Buffer b(i32(64), "src", {}, kCore); Runtime rt(
                     [](RuntimeData) {
                         npu_writebd(bd0([](NpuWriteBd& x) { x.enable_packet = 1; }));
                         npu_address_patch(0x1D004, 0, 0);
                         npu_push_queue(0, 0, 0, 0, true, 0, 0);
                     },
                     fn_args(i32(64)));
                 rt.add_flow(Flow(kCore, kShim));
                 rt.add_tile_dma(TileDma(kCore, {DmaChannel{DMAChannelDir::MM2S, 0, {Bd{.buffer = b}}}}, "tx"));
                 resolve(Program("npu1_1col", rt, {}, "raw")));
    NPUSIM_ERROR(c, "raw.sync_outside_device", kDesign,
                 "npu_sync((0,0) MM2S 0): tile (1,0) is outside the device npu1_1col",
                 raw([](RuntimeData) {
                     write_patch_push();
                     npu_sync(0, 0, 1, 0, 2, 1);
                 }));
    NPUSIM_ERROR(c, "raw.sync_not_shim", kDesign,
                 "npu_sync((0,1) MM2S 0): syncs on mem tile (0,1), whose task queues npusim does not simulate: the "
                 "sync would never see a token",
                 raw([](RuntimeData) { npu_sync(0, 1, 1, 0); }));
    NPUSIM_ERROR(c, "raw.sync_no_token", kDesign,
                 "npu_sync((0,0) MM2S 0): no task pushed on shim (0,0) MM2S 0 issues a token that this sync has not "
                 "had: it would wait forever (push with issue_token=true)",
                 raw([](RuntimeData) {
                     write_patch_push();
                     npu_sync(0, 0, 1, 0);
                     npu_sync(0, 0, 1, 0);
                 }));

    c.site("frontend/src/resolve/SequenceLowering.cpp");
    NPUSIM_ERROR(c, "packet.shim_task_id", kDesign,
                 "task 0 ('in' shim_dma_single_bd_task): its packet id 6 matches no PacketFlow from (0,0) MM2S 0 (ids 5)",
                 shim_packet({.issue_token = true, .packet = BdPacket{0, 6}}));
    NPUSIM_ERROR(c, "packet.shim_task_range", kDesign,
                 "shim_dma_single_bd_task of shim_symbol 'in' (<...>): packet (type 8, id 5) must have a type within "
                 "0..7 and an id within 0..31",
                 shim_packet({.issue_token = true, .packet = BdPacket{8, 5}}));
    NPUSIM_ERROR(c, "packet.shim_task_s2mm", kDesign,
                 "shim_dma_single_bd_task of shim_symbol 'out' (<...>): a packet header is sent by an MM2S; (0,0) S2MM "
                 "0 receives",
                 Buffer b(i32(64), "b", {}, kCore); Runtime rt(
                     [](RuntimeData a) {
                         const Task t = shim_dma_single_bd_task("out", a, {.issue_token = true, .packet = BdPacket{0, 1}});
                         dma_start_task(t);
                         dma_await_task(t);
                     },
                     fn_args(i32(64)));
                 rt.add_flow(Flow(kCore, kShim, {.shim_symbol = "out"}));
                 rt.add_tile_dma(TileDma(kCore, {DmaChannel{DMAChannelDir::MM2S, 0, {Bd{.buffer = b}}}}, "tx"));
                 resolve(Program("npu1_1col", rt, {}, "pk")));
}

} // namespace npusim::errcat

// The low-level API: Lock, Flow, TileDma (Bd, Acquire, Release), Runtime.add_flow / add_lock /
// add_tile_dma and shim_dma_single_bd_task (frontend/src/resolve/LowLevelLowering.cpp and the
// classes themselves).
#include "Designs.hpp"

namespace npusim::errcat {

namespace {
const Tile kShim(0, 0), kCore(0, 2);

// A compute tile receiving one buffer (S2MM 0) from the shim through a Flow with shim_symbol
// "in"; `seq` drives it, `locks` are the BD's acquire/release, `bds` replaces its BD list.
struct Low {
    std::vector<Bd> bds = {};
    std::vector<Lock> locks = {};
    std::vector<Flow> flows = {Flow(kShim, kCore, {.shim_symbol = "in"})};
    std::vector<Worker> workers = {};
    std::function<void(RuntimeData)> seq = [](RuntimeData) {};
    Tile dma_tile = kCore;
    int channel = 0;
    std::string device = "npu1_1col";
};

Buffer low_buffer() { return Buffer(i32(64), "buf", {}, kCore); }

model::Netlist resolve_low(Low l) {
    if (l.locks.empty()) l.locks = {Lock(kCore, std::nullopt, 1, "e"), Lock(kCore, std::nullopt, 0, "f")};
    if (l.bds.empty()) l.bds = {Bd{.buffer = low_buffer(), .acquires = {{l.locks[0]}}, .releases = {{l.locks[1]}}}};
    Runtime rt(l.seq, fn_args(i32(64)));
    for (const auto& x : l.locks) rt.add_lock(x);
    for (const auto& f : l.flows) rt.add_flow(f);
    rt.add_tile_dma(TileDma(l.dma_tile, {DmaChannel{DMAChannelDir::S2MM, l.channel, l.bds}}, "rx"));
    return resolve(Program(l.device, rt, l.workers, "low"));
}
} // namespace

void add_lowlevel(Catalog& c) {
    c.component("Low-level API",
                "Hand-written designs below ObjectFifo: IRON's Lock, Flow, TileDma and the runtime sequence's "
                "shim_dma_single_bd_task (`frontend/src/resolve/LowLevelLowering.cpp`, docs/resolve.md "
                "\"Low-level API\").");
    c.site("frontend/src/Lock.cpp");
    NPUSIM_ERROR(c, "lowlevel.lock_outside_body", kDesign, "lock 'l': acquire() called outside a worker body",
                 Lock(kCore, std::nullopt, 0, "l").acquire());
    c.site("frontend/src/Runtime.cpp");
    NPUSIM_ERROR(c, "lowlevel.task_outside_sequence", kDesign,
                 "shim_dma_single_bd_task('in') called outside the runtime sequence",
                 shim_dma_single_bd_task("in", RuntimeData{}));
    NPUSIM_ERROR(c, "lowlevel.task_not_argument", kDesign, "shim_dma_single_bd_task('in'): not a runtime argument",
                 resolve_low({.seq = [](RuntimeData) { shim_dma_single_bd_task("in", RuntimeData{}); }}));
    NPUSIM_ERROR(c, "lowlevel.task_outside_tensor", kDesign,
                 "shim_dma_single_bd_task('in') with runtime argument 0 (i32[64]): access pattern <...> reaches "
                 "elements 0..127, outside the tensor's 64 elements",
                 resolve_low({.seq = [](RuntimeData a) {
                     shim_dma_single_bd_task("in", a, {.tap = TensorAccessPattern::linear({128})});
                 }}));
    NPUSIM_ERROR(c, "lowlevel.start_outside_sequence", kDesign, "dma_start_task called outside the runtime sequence",
                 dma_start_task(Task(0)));
    NPUSIM_ERROR(c, "lowlevel.start_twice", kDesign,
                 "shim_symbol 'in': dma_start_task on a task that is already started",
                 resolve_low({.seq = [](RuntimeData a) {
                     const Task t = shim_dma_single_bd_task("in", a);
                     dma_start_task(t);
                     dma_start_task(t);
                 }}));
    NPUSIM_ERROR(c, "lowlevel.await_not_started", kDesign,
                 "shim_symbol 'in': dma_await_task on a task that was not started (dma_start_task)",
                 resolve_low({.seq = [](RuntimeData a) { dma_await_task(shim_dma_single_bd_task("in", a)); }}));
    NPUSIM_ERROR(c, "lowlevel.await_no_token", kDesign,
                 "shim_symbol 'in': only a wait=true transfer can be awaited (shim_dma_single_bd_task with "
                 "issue_token=true)",
                 resolve_low({.seq = [](RuntimeData a) {
                     const Task t = shim_dma_single_bd_task("in", a);
                     dma_start_task(t);
                     dma_await_task(t);
                 }}));
    c.site("frontend/src/resolve/SequenceLowering.cpp");
    NPUSIM_ERROR(c, "lowlevel.unknown_shim_symbol", kDesign,
                 "shim_dma_single_bd_task: no Flow or PacketFlow declares shim_symbol 'nope': couldn't find "
                 "shim_dma_allocation op.",
                 resolve_low({.seq = [](RuntimeData a) { dma_start_task(shim_dma_single_bd_task("nope", a)); }}));
    c.site("frontend/src/resolve/ResourceLedger.cpp");
    NPUSIM_ERROR(c, "lowlevel.lock_id_range", kDesign,
                 "compute tile (0,2): 'e' lock: lock assigned invalid id (maximum is 15); got lock_id 16",
                 resolve_low({.locks = {Lock(kCore, 16, 1, "e"), Lock(kCore, std::nullopt, 0, "f")}}));
    NPUSIM_ERROR(c, "lowlevel.lock_id_twice", kDesign,
                 "compute tile (0,2): 'f' lock is assigned to the same lock (3) as another op.",
                 resolve_low({.locks = {Lock(kCore, 3, 1, "e"), Lock(kCore, 3, 0, "f")}}));
    NPUSIM_ERROR(c, "lowlevel.channel_range", kDesign,
                 "compute tile (0,2): TileDma 'rx' uses S2MM DMA channel 2 but the tile has channels 0..1",
                 resolve_low({.channel = 2}));
    NPUSIM_ERROR(c, "lowlevel.channel_taken", kDesign,
                 "compute tile (0,2): TileDma 'rx2' uses S2MM DMA channel 0, which TileDma 'rx' already uses",
                 Buffer b = low_buffer();
                 Runtime rt([](RuntimeData) {}, fn_args(i32(64)));
                 rt.add_tile_dma(TileDma(kCore, {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = b}}}}, "rx"));
                 rt.add_tile_dma(TileDma(kCore, {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = b}}}}, "rx2"));
                 resolve(Program("npu1_1col", rt, {})));
    c.site("frontend/src/resolve/LowLevelLowering.cpp");
    NPUSIM_ERROR(
        c, "lowlevel.tile_unplaced", kDesign, "lock 'e': its tile must be placed (Tile(col, row)), not AnyComputeTile",
        resolve_low({.locks = {Lock(AnyComputeTile, std::nullopt, 1, "e"), Lock(kCore, std::nullopt, 0, "f")}}));
    NPUSIM_ERROR(c, "lowlevel.tile_off_device", kDesign, "lock 'e': tile Tile(5,2) is not a tile of npu1_1col",
                 resolve_low({.locks = {Lock(Tile(5, 2), std::nullopt, 1, "e"), Lock(kCore, std::nullopt, 0, "f")}}));
    NPUSIM_ERROR(c, "lowlevel.core_buffer_reach", kDesign,
                 "TileDma 'rx' S2MM channel 0 Bd 0: buffer 'far' is on (0,3): Core tile DMAs can only access a "
                 "buffer in the same tile.",
                 resolve_low({.bds = {Bd{.buffer = Buffer(i32(64), "far", {}, Tile(0, 3))}}}));
    NPUSIM_ERROR(
        c, "lowlevel.core_lock_reach", kDesign,
        "TileDma 'rx' S2MM channel 0 Bd 0: lock 'x' is on (0,3): can only access a lock in the same tile",
        resolve_low({.bds = {Bd{.buffer = low_buffer(), .acquires = {{Lock(Tile(0, 3), std::nullopt, 1, "x")}}}}}));
    NPUSIM_ERROR(c, "lowlevel.memtile_local_only", kDesign,
                 "TileDma 'rx' S2MM channel 4 Bd 0: buffer 'w' is on (0,1): is reachable from DMA channel 4 and "
                 "attempts to access a non-local buffer",
                 resolve_low({.bds = {Bd{.buffer = Buffer(i32(64), "w", {}, Tile(0, 1))}},
                              .flows = {},
                              .dma_tile = Tile(1, 1),
                              .channel = 4,
                              .device = "npu1"}));
    NPUSIM_ERROR(c, "lowlevel.unreachable", kDesign,
                 "TileDma 'rx' S2MM channel 0 Bd 0: buffer 'w' in Column 3 and Row 1 is accessed from an unreachable "
                 "tile in Column 1 and Row 1",
                 resolve_low({.bds = {Bd{.buffer = Buffer(i32(64), "w", {}, Tile(3, 1))}},
                              .flows = {},
                              .dma_tile = Tile(1, 1),
                              .device = "npu1"}));
    NPUSIM_ERROR(
        c, "lowlevel.worker_lock_reach", kDesign,
        "worker 'w': lock 'wl' in Column 2 and Row 2 is accessed from an unreachable tile in Column 0 and "
        "Row 2",
        Lock wl(Tile(2, 2), std::nullopt, 0, "wl");
        resolve_low({.workers = {Worker([](Lock x) { x.acquire(); }, fn_args(wl), {.tile = kCore, .name = "w"})},
                     .device = "npu1"}));
    NPUSIM_ERROR(
        c, "lowlevel.bd_lock_value", kDesign,
        "TileDma 'rx' S2MM channel 0 Bd 0: lock value 64 is outside the lock's state 0..63",
        resolve_low({.bds = {Bd{.buffer = low_buffer(), .releases = {{Lock(kCore, std::nullopt, 0, "x"), 64}}}}}));
    NPUSIM_ERROR(c, "lowlevel.flow_channel_range", kDesign,
                 "Flow Tile(0,0) DMA:2 -> Tile(0,2) DMA:0: shim tile (0,0) has 2 MM2S DMA channels (0..1)",
                 resolve_low({.flows = {Flow(kShim, kCore, {.src_channel = 2})}}));
    NPUSIM_ERROR(c, "lowlevel.flow_dest_twice", kDesign,
                 "Flow Tile(1,0) DMA:0 -> Tile(0,2) DMA:0: another Flow already ends at (0,2) S2MM 0; a "
                 "circuit-switched destination port takes one flow (use PacketFlow to merge streams)",
                 resolve_low({.flows = {Flow(kShim, kCore), Flow(Tile(1, 0), kCore)}, .device = "npu1"}));
    NPUSIM_ERROR(c, "lowlevel.shim_symbol_no_shim", kDesign,
                 "Flow.shim_symbol='x' requires a shim endpoint, but neither src (Tile(0,1)) nor dst (Tile(0,2)) is a "
                 "shim tile.",
                 resolve_low({.flows = {Flow(Tile(0, 1), kCore, {.shim_symbol = "x"})}}));
    NPUSIM_ERROR(c, "lowlevel.shim_symbol_twice", kDesign,
                 "Flow Tile(0,0) DMA:1 -> Tile(0,3) DMA:0: shim_symbol 'in' is already declared by another flow",
                 resolve_low({.flows = {Flow(kShim, kCore, {.shim_symbol = "in"}),
                                        Flow(kShim, Tile(0, 3), {.src_channel = 1, .shim_symbol = "in"})}}));
    NPUSIM_ERROR(c, "lowlevel.flow_end_unprogrammed", kDesign,
                 "Flow Tile(0,0) DMA:0 -> Tile(0,3) DMA:0: (0,3) S2MM 0 has no BD program; add a DmaChannel for it to "
                 "a TileDma of tile (0,3)",
                 resolve_low({.flows = {Flow(kShim, Tile(0, 3))}}));
    NPUSIM_ERROR(c, "lowlevel.tile_dma_on_shim", kDesign,
                 "TileDma 'rx': tile (0,0) is a shim tile; npusim drives shim DMAs from the runtime sequence "
                 "(shim_dma_single_bd_task), not from a TileDma",
                 resolve_low({.flows = {}, .dma_tile = kShim}));
    NPUSIM_ERROR(c, "lowlevel.bd_outside_buffer", kDesign,
                 "TileDma 'rx' S2MM channel 0 Bd 0: offset 60 + length 8 is outside buffer 'buf' of 64 elements",
                 resolve_low({.bds = {Bd{.buffer = low_buffer(), .offset = 60, .length = 8}}}));
    NPUSIM_ERROR(
        c, "lowlevel.bd_length_words", kDesign,
        "TileDma 'rx' S2MM channel 0 Bd 0: 6 B: transfer length must be multiple of 4 (i.e., represent 4 "
        "byte aligned address)",
        resolve_low({.bds = {Bd{.buffer = Buffer(tensor<std::uint8_t>({64}), "b8", {}, kCore), .length = 6}}}));
    NPUSIM_ERROR(
        c, "lowlevel.bd_offset_words", kDesign, "TileDma 'rx' S2MM channel 0 Bd 0: offset 2 B is not 4-byte aligned",
        resolve_low(
            {.bds = {Bd{.buffer = Buffer(tensor<std::uint8_t>({64}), "b8", {}, kCore), .offset = 2, .length = 8}}}));
    NPUSIM_ERROR(c, "lowlevel.bd_sizes_strides", kDesign,
                 "TileDma 'rx' S2MM channel 0 Bd 0: 1 sizes but 2 strides; they must have equal length",
                 resolve_low({.bds = {Bd{.buffer = low_buffer(), .sizes = {4}, .strides = {1, 2}}}}));
    NPUSIM_ERROR(c, "lowlevel.bd_layout", kDesign,
                 "TileDma 'rx' S2MM channel 0 Bd 0: sizes/strides move 256 B within offsets 0..479 from 0 B into a 256 "
                 "B buffer, for a length of 256 B",
                 resolve_low({.bds = {Bd{.buffer = low_buffer(), .sizes = {8, 8}, .strides = {16, 1}}}}));
    NPUSIM_ERROR(c, "lowlevel.bd_two_locks", kDesign,
                 "TileDma 'rx' S2MM channel 0 Bd 0: 2 acquires and 0 releases; a BD has one lock acquire and one lock "
                 "release",
                 Lock a(kCore, std::nullopt, 1, "a"), b(kCore, std::nullopt, 1, "b");
                 resolve_low({.bds = {Bd{.buffer = low_buffer(), .acquires = {{a}, {b}}}}}));
    NPUSIM_ERROR(c, "lowlevel.bd_next_range", kDesign,
                 "TileDma 'rx' S2MM channel 0 Bd 0: Bd.next index 3 out of range for channel with 1 BDs",
                 resolve_low({.bds = {Bd{.buffer = low_buffer(), .next = 3}}}));
    c.site("frontend/src/resolve/BodyTracer.cpp");
    NPUSIM_ERROR(
        c, "lowlevel.worker_lock_value", kDesign,
        "worker 'w': lock 'l'.release(64): a lock value must be within 0..63 (the lock's state)",
        Lock l(kCore, std::nullopt, 0, "l");
        resolve_low({.workers = {Worker([](Lock x) { x.release(64); }, fn_args(l), {.tile = kCore, .name = "w"})}}));
    NPUSIM_ERROR(c, "lowlevel.worker_lock_not_argument", kDesign,
                 "worker 'w': uses a Lock that is not among the worker's fn_args", Lock l(kCore, std::nullopt, 0, "l");
                 resolve_low({.workers = {Worker([l] { l.acquire(); }, {.tile = kCore, .name = "w"})}}));
    c.site("sim/src/CoreProcess.cpp");
    c.internal("lowlevel.sim_lock_not_argument", "worker 'w': uses a lock that is not among its fn_args",
               "The resolve-time trace refuses a body that acquires a Lock it was not given first "
               "(lowlevel.worker_lock_not_argument).");
}

} // namespace npusim::errcat

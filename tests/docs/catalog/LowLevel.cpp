// The low-level API: Lock, Flow, TileDma (Bd, Acquire, Release), Runtime.add_flow / add_lock /
// add_tile_dma and shim_dma_single_bd_task (frontend/src/resolve/LowLevelLowering.cpp and the
// classes themselves).
#include "Designs.hpp"
#include "support/PacketForward.hpp"

namespace npusim::errcat {

namespace {

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

Program low_program(Low l) {
    if (l.locks.empty()) l.locks = {Lock(kCore, std::nullopt, 1, "e"), Lock(kCore, std::nullopt, 0, "f")};
    if (l.bds.empty()) l.bds = {Bd{.buffer = low_buffer(), .acquires = {{l.locks[0]}}, .releases = {{l.locks[1]}}}};
    Runtime rt(l.seq, fn_args(i32(64)));
    for (const auto& x : l.locks) rt.add_lock(x);
    for (const auto& f : l.flows) rt.add_flow(f);
    rt.add_tile_dma(TileDma(l.dma_tile, {DmaChannel{DMAChannelDir::S2MM, l.channel, l.bds}}, "rx"));
    return Program(l.device, rt, l.workers, "low");
}

model::Netlist resolve_low(Low l) { return resolve(low_program(std::move(l))); }

// A compute tile sending one packet (MM2S 0, `bd_packet`) through `flows` (default: PacketFlow id
// 3 to the shim's S2MM 0, "out"); `extra` adds more channels to its TileDma.
struct Pk {
    std::vector<PacketFlow> flows = {PacketFlow(3, kCore, kShim, {.shim_symbol = "out"})};
    std::optional<BdPacket> bd_packet = BdPacket{0, 3};
    std::optional<std::int64_t> bd_length = std::nullopt; ///< elements of the source BD
    std::vector<DmaChannel> extra = {};
    std::vector<Flow> circuit = {};
};

Bd pk_bd(const std::string& name, std::optional<BdPacket> packet) {
    return Bd{.buffer = Buffer(i32(8), name, {}, kCore), .next = Bd::none, .packet = packet};
}

model::Netlist resolve_pk(Pk k) {
    Runtime rt(
        [](RuntimeData c) {
            const Task t = shim_dma_single_bd_task("out", c, {.issue_token = true});
            dma_start_task(t);
            dma_await_task(t);
        },
        fn_args(i32(8)));
    for (const auto& f : k.flows) rt.add_flow(f);
    for (const auto& f : k.circuit) rt.add_flow(f);
    std::vector<DmaChannel> chs = {DmaChannel{DMAChannelDir::MM2S, 0, {pk_bd("a", k.bd_packet)}}};
    chs[0].bds[0].length = k.bd_length;
    for (auto& ch : k.extra) chs.push_back(ch);
    rt.add_tile_dma(TileDma(kCore, chs, "tx"));
    return resolve(Program("npu1_1col", rt, {}, "pk"));
}
} // namespace

void add_lowlevel(Catalog& c) {
    c.component("Low-level API",
                "Hand-written designs below ObjectFifo: IRON's Lock, Flow, TileDma and the runtime sequence's "
                "shim_dma_single_bd_task (`frontend/src/resolve/LowLevelLowering.cpp`, docs/resolve-lowlevel.md "
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
    NPUSIM_ERROR(c, "lowlevel.chain_outside_sequence", kDesign,
                 "shim_dma_bd_chain('in') called outside the runtime sequence",
                 shim_dma_bd_chain("in", {{RuntimeData{}}}));
    NPUSIM_ERROR(c, "lowlevel.chain_empty", kDesign, "shim_dma_bd_chain('in'): a task needs at least one BD",
                 resolve_low({.seq = [](RuntimeData) { shim_dma_bd_chain("in", {}); }}));
    NPUSIM_ERROR(c, "lowlevel.chain_repeat", kDesign,
                 "shim_dma_bd_chain('in'): repeat_count 256 is outside 0..255 (the task queue's repeat field)",
                 resolve_low({.seq = [](RuntimeData a) { shim_dma_bd_chain("in", {{a}}, {.repeat_count = 256}); }}));
    NPUSIM_ERROR(c, "lowlevel.chain_not_argument", kDesign, "shim_dma_bd_chain('in'): BD 1 moves no runtime argument",
                 resolve_low({.seq = [](RuntimeData a) { shim_dma_bd_chain("in", {{a}, {RuntimeData{}}}); }}));
    NPUSIM_ERROR(c, "lowlevel.chain_outside_tensor", kDesign,
                 "shim_dma_bd_chain('in'): BD 1 with runtime argument 0 (i32[64]): access pattern <...> reaches "
                 "elements 32..95, outside the tensor's 64 elements",
                 resolve_low({.seq = [](RuntimeData a) {
                     shim_dma_bd_chain("in", {{a}, {a, TensorAccessPattern({64}, 32, {64}, {1})}});
                 }}));
    c.site("frontend/src/export/SequenceExporter.cpp");
    NPUSIM_ERROR(c, "lowlevel.chain_export", kDesign,
                 "shim_dma_bd_chain('in'): cannot export a task of 2 chained BD(s) run 1 time(s): the export writes "
                 "single-BD tasks only",
                 (void)export_mlir(low_program({.seq = [](RuntimeData a) {
                     dma_start_task(shim_dma_bd_chain("in", {{a, TensorAccessPattern({64}, 0, {32}, {1})},
                                                             {a, TensorAccessPattern({64}, 32, {32}, {1})}}));
                 }})));
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
    c.site("frontend/src/resolve/LowLevelPlacement.cpp");
    // python/iron/device/device.py resolve_tile: an unplaced Tile needs its type.
    NPUSIM_ERROR(c, "lowlevel.tile_type_unset", kDesign,
                 "lock 'e': Cannot resolve Tile(?): tile_type must be set or inferred from coordinates.",
                 resolve_low({.locks = {Lock(Tile(), std::nullopt, 1, "e"), Lock(kCore, std::nullopt, 0, "f")}}));
    // AIEPlacer.cpp SequentialPlacer::place (l.339-373): an unplaced compute logical tile with no
    // free compute tile; the four workers take npu1_1col's four.
    NPUSIM_ERROR(
        c, "lowlevel.no_compute_tile", kDesign,
        "Flow Tile(0,0) DMA:0 -> AnyComputeTile DMA:0: no available compute tiles for placement (4 compute tiles "
        "of npu1_1col, all taken)",
        resolve_low({.locks = {Lock(AnyComputeTile, std::nullopt, 1, "e"), Lock(AnyComputeTile, std::nullopt, 0, "f")},
                     .flows = {Flow(kShim, AnyComputeTile, {.shim_symbol = "in"})},
                     .workers = {Worker([] {}, {.while_true = false}), Worker([] {}, {.while_true = false}),
                                 Worker([] {}, {.while_true = false}), Worker([] {}, {.while_true = false})},
                     .dma_tile = AnyComputeTile}));
    NPUSIM_ERROR(c, "lowlevel.compute_tile_constraint", kDesign,
                 "Flow Tile(0,0) DMA:0 -> Tile(1,?) DMA:0: no compute tile available matching constraint (1, ?)", [] {
                     Tile col1 = Tile::any(TileKind::Compute);
                     col1.col = 1;
                     resolve_low({.locks = {Lock(col1, std::nullopt, 1, "e"), Lock(col1, std::nullopt, 0, "f")},
                                  .flows = {Flow(kShim, col1, {.shim_symbol = "in"})},
                                  .dma_tile = col1});
                 }());
    c.site("frontend/src/resolve/Placement.cpp");
    // AIEPlacer.cpp placeNonCoreTileByCentroid (l.1249-1266): six flows into the one mem tile's
    // six S2MM channels leave none for the unplaced mem tile's flow end.
    NPUSIM_ERROR(
        c, "lowlevel.no_mem_tile", kDesign,
        "Flow Tile(0,0) DMA:1 -> AnyMemTile DMA:0: no MemTile has sufficient DMA capacity for 1 input/0 output "
        "channels near centroid column 0",
        [] {
            std::vector<Flow> flows{Flow(kShim, AnyMemTile, {.src_channel = 1})};
            for (int k = 0; k < 6; ++k) flows.push_back(Flow(kShim, Tile(0, 1), {.dst_channel = k}));
            resolve_low({.flows = flows});
        }());
    c.site("frontend/src/resolve/LowLevelLowering.cpp");
    c.internal("lowlevel.tile_not_placed", "lock 'e': its tile AnyMemTile was not placed",
               "collect_logical_tiles gathers the Tile of every Lock, Buffer, TileDma and flow end before "
               "low_level_tile reads where it went, so each unplaced Tile has its place");
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
    c.site("frontend/src/resolve/LowLevelLowering.cpp");
    NPUSIM_ERROR(c, "packet.bd_type_range", kDesign,
                 "TileDma 'tx' MM2S channel 0 Bd 0: packet type 8: Packet type field can only hold 3 bits.",
                 resolve_pk({.bd_packet = BdPacket{8, 3}}));
    NPUSIM_ERROR(c, "packet.bd_id_range", kDesign,
                 "TileDma 'tx' MM2S channel 0 Bd 0: packet id 32: Packet ID field can only hold 5 bits.",
                 resolve_pk({.bd_packet = BdPacket{0, 32}}));
    NPUSIM_ERROR(c, "packet.bd_s2mm", kDesign,
                 "TileDma 'tx' S2MM channel 0 Bd 0: a packet header is inserted by an MM2S channel only; an S2MM BD "
                 "takes no packet",
                 resolve_pk({.extra = {DmaChannel{DMAChannelDir::S2MM, 0, {pk_bd("r", BdPacket{0, 3})}}}}));
    c.site("frontend/src/resolve/PacketRouter.cpp");
    NPUSIM_ERROR(c, "packet.id_range", kDesign,
                 "PacketFlow(32) Tile(0,2) DMA:0 -> Tile(0,0) DMA:0: packet id 32 exceeds the maximum of 31",
                 resolve_pk({.flows = {PacketFlow(32, kCore, kShim, {.shim_symbol = "out"})}}));
    NPUSIM_ERROR(c, "packet.channel_range", kDesign,
                 "PacketFlow(3) Tile(0,2) DMA:0 -> Tile(0,0) DMA:2: shim tile (0,0) has 2 S2MM DMA channels (0..1)",
                 resolve_pk({.flows = {PacketFlow(3, kCore, kShim, {.dst_channel = 2})}}));
    NPUSIM_ERROR(c, "packet.tile_unplaced", kDesign,
                 "PacketFlow(3) Tile(0,2) DMA:0 -> Tile(?) DMA:0: Cannot resolve Tile(?): tile_type must be set or "
                 "inferred from coordinates.",
                 resolve_pk({.flows = {PacketFlow(3, kCore, Tile())}}));
    NPUSIM_ERROR(c, "packet.tile_off_device", kDesign,
                 "PacketFlow(3) Tile(0,2) DMA:0 -> Tile(5,0) DMA:0: tile Tile(5,0) is not a tile of npu1_1col",
                 resolve_pk({.flows = {PacketFlow(3, kCore, Tile(5, 0))}}));
    NPUSIM_ERROR(c, "packet.circuit_port", kDesign,
                 "PacketFlow(3) Tile(0,2) DMA:0 -> Tile(0,0) DMA:0: (0,2) MM2S 0 is already an end of the "
                 "circuit-switched Flow Tile(0,2) DMA:0 -> Tile(0,0) DMA:1; a DMA port is either circuit- or "
                 "packet-switched",
                 resolve_pk({.circuit = {Flow(kCore, kShim, {.dst_channel = 1})}}));
    NPUSIM_ERROR(c, "packet.shim_symbol_no_shim", kDesign,
                 "PacketFlow.shim_symbol='x' requires a shim endpoint, but neither src (Tile(0,2)) nor dst "
                 "(Tile(0,3)) is a shim tile.",
                 resolve_pk({.flows = {PacketFlow(3, kCore, Tile(0, 3), {.shim_symbol = "x"})}}));
    NPUSIM_ERROR(c, "packet.shim_symbol_twice", kDesign,
                 "PacketFlow(4) Tile(0,2) DMA:1 -> Tile(0,0) DMA:1: shim_symbol 'out' is already declared by another "
                 "flow",
                 resolve_pk({.flows = {PacketFlow(3, kCore, kShim, {.shim_symbol = "out"}),
                                       PacketFlow(4, kCore, kShim,
                                                  {.src_channel = 1, .dst_channel = 1, .shim_symbol = "out"})}}));
    NPUSIM_ERROR(c, "packet.id_reused", kDesign,
                 "PacketFlow(3) Tile(0,2) DMA:0 -> Tile(0,0) DMA:0 and PacketFlow(3) Tile(0,2) DMA:1 -> Tile(0,0) "
                 "DMA:0, Tile(0,1) DMA:0: packet id 3 is reused on port (0,0) S2MM 0 by flows with different "
                 "destinations; the switch routes a packet by its id alone, so each flow's packets would reach the "
                 "other's destinations too",
                 resolve_pk({.flows = {PacketFlow(3, kCore, kShim, {.shim_symbol = "out"}),
                                       PacketFlow(3, kCore, kShim,
                                                  {.src_channel = 1, .extra_dsts = {PacketDest{Tile(0, 1), 0}}})},
                             .extra = {DmaChannel{DMAChannelDir::MM2S, 1, {pk_bd("b", BdPacket{0, 3})}}}}));
    NPUSIM_ERROR(c, "packet.rule_slots", kDesign,
                 "(0,2) MM2S 0: slave port packet rules exceed the 4-slot limit (4 + 1).", Pk k;
                 k.flows.clear(); for (int i = 0; i < 5; ++i) k.flows.push_back(
                     PacketFlow(1 << i, kCore, i == 0 ? kShim : Tile(0, 1),
                                {.dst_channel = i == 0 ? 0 : i - 1, .shim_symbol = i == 0 ? "out" : ""}));
                 resolve_pk(k));
    NPUSIM_ERROR(
        c, "packet.end_unprogrammed", kDesign,
        "PacketFlow(4) Tile(0,2) DMA:0 -> Tile(0,3) DMA:0: (0,3) S2MM 0 has no BD program; add a DmaChannel "
        "for it to a TileDma of tile (0,3)",
        resolve_pk({.flows = {PacketFlow(3, kCore, kShim, {.shim_symbol = "out"}), PacketFlow(4, kCore, Tile(0, 3))}}));
    NPUSIM_ERROR(c, "packet.bd_no_header", kDesign,
                 "TileDma 'tx' MM2S channel 0 Bd 0: its channel (0,2) MM2S 0 is the source of a PacketFlow; the BD "
                 "sends no packet header of its own, so the first word of its data must be one, but it moves 0 B; "
                 "give it packet = {pkt_type, pkt_id} or data that starts with a packet header",
                 resolve_pk({.bd_packet = std::nullopt, .bd_length = 0}));
    NPUSIM_ERROR(c, "packet.bd_id_unrouted", kDesign,
                 "TileDma 'tx' MM2S channel 0 Bd 0: its packet id 5 matches no PacketFlow from (0,2) MM2S 0 (ids 3)",
                 resolve_pk({.bd_packet = BdPacket{0, 5}}));
    c.site("sim/src/PacketSwitch.cpp");
    NPUSIM_ERROR(c, "packet.data_header_unrouted", kProtocol,
                 "DMA (0,1) MM2S 0 BD 1 ('mem_dma' MM2S channel 0 Bd, element 0): sends no packet header of its own, "
                 "so the first word of its data (0x80000003) is the packet's header, and its packet id 3 matches no "
                 "PacketFlow from (0,1) MM2S 0 (ids 1, 2)",
                 // The shim's packet of id 3 reaches the mem tile, whose forwarding BD has no header of
                 // its own; no flow from the mem tile routes id 3 on.
                 simulate(test::packet_forward({.id_b = 3, .id3_to_mem_only = true})));
    c.internal("packet.sim_data_header_short",
               "DMA (0,1) MM2S 0 BD 1 (...): sends no packet header of its own on packet port (0,1) MM2S 0, and its "
               "0 B of data hold no header word",
               "resolve() refuses a BD without a header of its own on a packet flow's source that moves less than a "
               "word (packet.bd_no_header); a shim task moves at least one word (its BD's buffer_length is not 0).");
    c.internal("packet.sim_unrouted_id",
               "packet flows of 'PacketFlow(3) ...' packet flow: packet id 5 from (0,2) MM2S 0 has no packet flow",
               "resolve() checks every BD of a packet flow's source channel against the port's packet ids "
               "(packet.bd_id_unrouted).");
    c.site("sim/src/Elaborator.cpp");
    c.internal("packet.sim_end_unprogrammed",
               "packet flow 'PacketFlow(3) ...' packet flow: destination (0,3) S2MM 0 has no DMA channel program",
               "resolve() refuses a packet flow whose tile end has no BD program (packet.end_unprogrammed).");
    c.internal("packet.sim_source_unprogrammed",
               "packet flow 'PacketFlow(3) ...' packet flow: source (0,2) MM2S 0 has no DMA channel program",
               "resolve() refuses a packet flow whose tile source has no BD program (packet.end_unprogrammed); a "
               "shim source is the shim's channel, which the runtime's tasks drive.");
    c.site("sim/src/CoreProcess.cpp");
    c.internal("lowlevel.sim_lock_not_argument", "worker 'w': uses a lock that is not among its fn_args",
               "The resolve-time trace refuses a body that acquires a Lock it was not given first "
               "(lowlevel.worker_lock_not_argument).");
}

} // namespace npusim::errcat

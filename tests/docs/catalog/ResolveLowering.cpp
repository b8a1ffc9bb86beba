// Program::resolve(), its later passes: memory allocation (and the mem tile spill), BD encoding, the
// depth rule and its overrides, lowering the runtime sequence, symbols, stream routes and --werror,
// trace configuration, cascades. The earlier passes are in Resolve.cpp.
#include "Designs.hpp"

#include "npusim/model/CoreServices.hpp"

#include <array>
#include <stdexcept>

namespace npusim::errcat {

void add_resolve_lowering(Catalog& c) {
    c.component("Resolve: memory allocation",
                "Tile data memory, as aiecc's buffer allocation (`frontend/src/resolve/TileMemoryAllocator.cpp`, "
                "`frontend/src/resolve/Resolver.cpp`).");
    c.site("frontend/src/resolve/TileMemoryAllocator.cpp");
    NPUSIM_ERROR(c, "alloc.basic_sequential", kDesign,
                 "compute tile (0,2): Basic sequential allocation failed. Out of data memory: needs 132096 B (stack "
                 "1024 B, 'in' 2 x 32768 B, 'out' 2 x 32768 B) but the tile has 65536 B",
                 resolve(passthrough({.type = i32(8192)}), {.alloc_scheme = AllocScheme::BasicSequential}));
    NPUSIM_ERROR(c, "alloc.bank_aware", kDesign,
                 "compute tile (0,2): Bank-aware allocation failed. Failed to allocate buffer: in_cons_buff_0 with "
                 "size: 32768 bytes (no bank of 4 x 16384 B has room); needs 132096 B (stack 1024 B, 'in' 2 x 32768 B, "
                 "'out' 2 x 32768 B) but the tile has 65536 B",
                 resolve(passthrough({.type = i32(8192)}), {.alloc_scheme = AllocScheme::BankAware}));
    NPUSIM_ERROR(c, "alloc.both_failed", kDesign,
                 "compute tile (0,2): Basic sequential allocation also failed. Out of data memory: needs 132096 B "
                 "(stack 1024 B, 'in' 2 x 32768 B, 'out' 2 x 32768 B) but the tile has 65536 B",
                 resolve(passthrough({.type = i32(8192)})));
    c.site("frontend/src/resolve/MemTileSpill.cpp");
    NPUSIM_ERROR(c, "alloc.mem_tile_full", kDesign,
                 "mem tile (0,1): Basic sequential allocation also failed. Out of data memory: needs 640000 B ('big' 2 "
                 "x 320000 B) but the tile has 524288 B; buffer big_cons_buff_2 of 320000 B does not fit, nor in its "
                 "neighbour mem tile (1,1) (320000 of 524288 B used)",
                 // 3 x 320000 B at (0,1): the second element goes to (1,1), the third fits neither.
                 ObjectFifo big(i32(80000), "big", 3); ObjectFifo fwd = big.cons().forward();
                 resolve(Program("npu2", Runtime(fill_drain, fn_args(i32(80000), i32(80000), big.prod(), fwd.cons())),
                                 {})));
    c.site("frontend/src/resolve/Resolver.cpp");
    NPUSIM_ERROR(c, "alloc.scheme_conflict", kDesign,
                 "tile (0,2): the link of fifo 'in' asks for allocation_scheme 'basic-sequential' but worker 'w' for "
                 "'bank-aware'",
                 Tile bank(0, 2), seq(0, 2);
                 bank.allocation_scheme = AllocScheme::BankAware; seq.allocation_scheme = AllocScheme::BasicSequential;
                 ObjectFifo in(i32(256), "in"), out(i32(256), "out"); ObjectFifo mid = in.cons().forward({.tile = seq});
                 Worker w(copy, fn_args(mid.cons(), out.prod()), {.tile = bank, .name = "w"}); resolve(Program(
                     "npu1_1col", Runtime(fill_drain, fn_args(i32(1024), i32(1024), in.prod(), out.cons())), {w})));

    c.site("frontend/src/resolve/LinkLowering.cpp");
    c.internal("alloc.join_input_without_link_consumer",
               "join of fifo 'out': input 'out_join0' has no consumer on the link",
               "join() gives every sub-fifo a consumer handle owned by the link when it creates them; the design "
               "API has no way to remove it (std::logic_error).");

    c.component("Resolve: BD encoding",
                "Data layouts (dims_to_stream, dims_from_stream, taps) as buffer descriptor fields "
                "(`frontend/src/resolve/BdEncoding.cpp`).");
    c.site("frontend/src/resolve/BdEncoding.cpp");
    NPUSIM_ERROR(c, "bd.dimensions", kDesign,
                 "fifo 'out' dims_to_stream: 4 dimensions but a compute tile BD supports 3",
                 resolve(passthrough({.out = {.dims_to_stream = {{1, 256}, {2, 128}, {2, 64}, {64, 1}}}})));
    NPUSIM_ERROR(c, "bd.size_zero", kDesign, "fifo 'out' dims_to_stream: dimension 0 has size 0",
                 resolve(passthrough({.out = {.dims_to_stream = {{0, 1}}}})));
    NPUSIM_ERROR(c, "bd.inner_stride_subword", kDesign,
                 "fifo 'out' dims_to_stream: the innermost stride must be 1 for 1-byte elements (got 2); DMA address "
                 "generation works on 32-bit words",
                 resolve(passthrough({.type = tensor<std::uint8_t>({256}), .out = {.dims_to_stream = {{128, 2}}}})));
    NPUSIM_ERROR(
        c, "bd.inner_size_words", kDesign,
        "fifo 'out' dims_to_stream: innermost size 6 x 1 B is not a whole number of 32-bit words",
        resolve(passthrough({.type = tensor<std::uint8_t>({256}), .out = {.dims_to_stream = {{32, 8}, {6, 1}}}})));
    NPUSIM_ERROR(
        c, "bd.stride_words", kDesign,
        "fifo 'out' dims_to_stream: stride 6 x 1 B of dimension 0 is not a whole number of 32-bit words",
        resolve(passthrough({.type = tensor<std::uint8_t>({256}), .out = {.dims_to_stream = {{4, 6}, {8, 1}}}})));
    NPUSIM_ERROR(
        c, "bd.size_field", kDesign,
        "fifo 'out' dims_to_stream: dimension 0 size 256 exceeds the 8-bit size field of a compute tile BD (max 255)",
        resolve(passthrough({.out = {.dims_to_stream = {{256, 1}}}})));
    NPUSIM_ERROR(c, "bd.stride_field", kDesign,
                 "fifo 'out' dims_to_stream: dimension 0 stride 8193 words exceeds the 13-bit stride field of a "
                 "compute tile BD (max 8192)",
                 resolve(passthrough({.out = {.dims_to_stream = {{2, 8193}, {4, 1}}}})));
    NPUSIM_ERROR(c, "bd.length_field", kDesign,
                 "'in' consumer S2MM, element 0: a BD of 65536 B (16384 words) exceeds the 14-bit length field of a "
                 "compute tile BD (max 16383 words)",
                 resolve(passthrough({.type = i32(16384), .depth = 1})));
    NPUSIM_ERROR(c, "bd.layout_object", kDesign,
                 "fifo 'out' producer MM2S: data layout moves 16 B within offsets 0..23, but the object is 64 B",
                 resolve(passthrough({.type = i32(16), .out = {.dims_to_stream = {{2, 4}, {2, 1}}}})));
    NPUSIM_ERROR(
        c, "bd.layout_segment", kDesign,
        "fifo 'in_split0' link MM2S: data layout moves 64 B within offsets 0..63 of a 32 B segment at 0 of a 64 B "
        "buffer",
        ObjectFifo in(i32(16), "in"), out(i32(16), "out");
        auto parts = in.cons().split({0, 8}, {.dims_to_stream = {{{2, 8}, {8, 1}}, {}}});
        Worker w([](F, F, F) {}, fn_args(parts[0].cons(), parts[1].cons(), out.prod()), {.name = "w"});
        resolve(Program("npu1_1col", Runtime(fill_drain, fn_args(i32(64), i32(64), in.prod(), out.cons())), {w})));
    NPUSIM_ERROR(
        c, "bd.padding_tile", kDesign,
        "fifo 'in_fwd': pad_dimensions need a mem tile link; compute tile (0,3) cannot pad",
        ObjectFifo in(i32(16), "in"), out(i32(16), "out");
        ObjectFifo mid =
            in.cons().forward({.tile = AnyComputeTile, .dims_to_stream = {{16, 1}}, .pad_dimensions = {{0, 0}}});
        Worker w(copy, fn_args(mid.cons(), out.prod()), {.name = "w"});
        resolve(Program("npu1_1col", Runtime(fill_drain, fn_args(i32(64), i32(64), in.prod(), out.cons())), {w})));
    NPUSIM_ERROR(
        c, "bd.padding_entries", kDesign, "fifo 'in_fwd': pad_dimensions has 2 entries for 1 dims_to_stream dimensions",
        ObjectFifo in(i32(16), "in"), out(i32(16), "out");
        ObjectFifo mid = in.cons().forward({.dims_to_stream = {{16, 1}}, .pad_dimensions = {{0, 0}, {0, 0}}});
        Worker w(copy, fn_args(mid.cons(), out.prod()), {.name = "w"});
        resolve(Program("npu1_1col", Runtime(fill_drain, fn_args(i32(64), i32(64), in.prod(), out.cons())), {w})));
    NPUSIM_ERROR(c, "bd.padding_words", kDesign,
                 "fifo 'in_fwd': innermost padding 1/3 elements is not a whole number of 32-bit words",
                 const auto u8 = tensor<std::uint8_t>({64});
                 ObjectFifo in(u8, "in"), out(u8, "out");
                 ObjectFifo mid =
                     in.cons().forward({.dims_to_stream = {{4, 16}, {16, 1}}, .pad_dimensions = {{0, 0}, {1, 3}}});
                 Worker w(copy, fn_args(mid.cons(), out.prod()), {.name = "w"});
                 resolve(Program("npu1_1col",
                                 Runtime(fill_drain, fn_args(tensor<std::uint8_t>({256}), tensor<std::uint8_t>({256}),
                                                             in.prod(), out.cons())),
                                 {w})));
    NPUSIM_ERROR(
        c, "bd.shim_offset", kDesign,
        "fill of fifo 'in' (tap(offset=2, sizes=[1,1,1,256], strides=[0,0,0,1])): offset 2 x 1 B is not 4-byte aligned",
        resolve(passthrough({.type = tensor<std::uint8_t>({256}), .seq = [](RuntimeData a, RuntimeData b, F in, F out) {
                                 in.fill(a, {.offset = 2, .transfer_len = 256});
                                 out.drain(b, {.wait = true});
                             }})));
    NPUSIM_ERROR(c, "bd.shim_repeat", kDesign,
                 "fill of fifo 'in' (tap(offset=0, sizes=[100,1,1,16], strides=[16,0,0,1])): Size 3 exceeds the [1:64] "
                 "range. (the outermost (repeat) size 100 is more than 64 + 1; AIEX verifyStridesWraps. "
                 "aie-decompose-large-dma-bd splits only transfers whose inner dimensions are not contiguous)",
                 resolve(passthrough(
                     {.type = i32(16),
                      .seq =
                          [](RuntimeData a, RuntimeData b, F in, F out) {
                              in.fill(a, {.tap = TensorAccessPattern({1600}, 0, {100, 1, 1, 16}, {16, 0, 0, 1})});
                              out.drain(b, {.wait = true});
                          },
                      .host_elements = 1600})));
    c.internal("bd.shim_repeat_count", "fill of fifo 'in' (...): repeat count 64 exceeds 63",
               "The outermost size is first held to the iteration field (at most 64 repeats, bd.shim_repeat); every "
               "device's queue repeat count allows 255.");
    NPUSIM_ERROR(
        c, "bd.shim_inner_stride_subword", kDesign,
        "fill of fifo 'in' (tap(offset=0, sizes=[1,1,1,512], strides=[0,0,0,2])): the innermost stride must be 1 for "
        "1-byte elements",
        resolve(passthrough({.type = tensor<std::uint8_t>({256}), .seq = [](RuntimeData a, RuntimeData b, F in, F out) {
                                 in.fill(a, {.tap = TensorAccessPattern({1024}, 0, {512}, {2})});
                                 out.drain(b, {.wait = true});
                             }})));
    NPUSIM_ERROR(
        c, "bd.shim_words", kDesign,
        "fill of fifo 'in' (tap(offset=0, sizes=[1,1,32,8], strides=[0,0,6,1])): stride 6 x 1 B is not a whole number "
        "of 32-bit words",
        resolve(passthrough({.type = tensor<std::uint8_t>({256}), .seq = [](RuntimeData a, RuntimeData b, F in, F out) {
                                 in.fill(a, {.tap = TensorAccessPattern({1024}, 0, {32, 8}, {6, 1})});
                                 out.drain(b, {.wait = true});
                             }})));
    NPUSIM_ERROR(c, "bd.shim_size_field", kDesign,
                 "fill of fifo 'in' (tap(offset=0, sizes=[1,1,2,1024], strides=[0,0,2048,1])): d0 size 1024 / d1 size "
                 "2 words exceed 1023 (10-bit size field of a shim BD)",
                 resolve(passthrough({.type = i32(2048), .seq = [](RuntimeData a, RuntimeData b, F in, F out) {
                                          in.fill(a, {.tap = TensorAccessPattern({8192}, 0, {2, 1024}, {2048, 1})});
                                          out.drain(b, {.wait = true});
                                      }})));
    NPUSIM_ERROR(
        c, "bd.shim_stride_field", kDesign,
        "fill of fifo 'in' (tap(offset=0, sizes=[1,1,2,4], strides=[0,0,1048577,1])): stride 1048577 words exceeds the "
        "20-bit stride field of a shim BD",
        resolve(passthrough({.type = i32(8),
                             .seq =
                                 [](RuntimeData a, RuntimeData b, F in, F out) {
                                     in.fill(a, {.tap = TensorAccessPattern({1048585}, 0, {2, 4}, {1048577, 1})});
                                     out.drain(b, {.wait = true});
                                 },
                             .host_elements = 1048585})));

    c.component("Resolve: depth rule and depth overrides",
                "How many buffers each fifo end gets, and `ResolveOptions::depth_overrides` (`npusim depth`) "
                "(`frontend/src/resolve/DepthRule.cpp`, `frontend/src/resolve/ResolveContext.cpp`).");
    c.site("frontend/src/resolve/ResolveContext.cpp");
    NPUSIM_ERROR(c, "depth.override_fifo", kDesign,
                 "depth override of fifo 'nope' consumer 0: design 't' has no fifo 'nope' (fifos: in, out)",
                 resolve(passthrough(), {.depth_overrides = {{"nope", 0, 2}}}));
    NPUSIM_ERROR(c, "depth.override_end", kDesign,
                 "depth override of fifo 'in' consumer 3: fifo 'in' has no consumer 3 (its consumers: 0)",
                 resolve(passthrough(), {.depth_overrides = {{"in", 3, 2}}}));
    NPUSIM_ERROR(c, "depth.override_depth", kDesign,
                 "depth override of fifo 'in' consumer 0: depth 0 must be at least 1",
                 resolve(passthrough(), {.depth_overrides = {{"in", 0, 0}}}));
    NPUSIM_ERROR(c, "depth.override_twice", kDesign, "depth override of fifo 'in' consumer 0: given twice",
                 resolve(passthrough(), {.depth_overrides = {{"in", 0, 2}, {"in", 0, 3}}}));
    NPUSIM_ERROR(c, "depth.override_without_buffers", kDesign,
                 "depth override of fifo 'in' producer: the runtime sequence fills or drains it from host memory; it "
                 "has no buffers",
                 resolve(passthrough(), {.depth_overrides = {{"in", -1, 2}}}));
    c.site("frontend/src/resolve/DepthRule.cpp");
    NPUSIM_ERROR(c, "depth.override_init_values", kDesign,
                 "depth override of fifo 'out' producer: its 2 init_values fix its depth at 2, not 3",
                 const std::vector<std::uint8_t> obj(1024);
                 resolve(passthrough({.out = {.init_values = {obj, obj}}}), {.depth_overrides = {{"out", -1, 3}}}));
    NPUSIM_ERROR(c, "depth.override_acquire", kDesign,
                 "depth override of fifo 'in' consumer 0: worker 'w' acquires 2 elements, more than the depth 1",
                 resolve(passthrough({.body = [](F in, F) { in.acquire(2); }}), {.depth_overrides = {{"in", 0, 1}}}));
    c.internal("depth.override_below_one", "depth override of fifo 'in' consumer 0: depth 0 must be at least 1",
               "apply_depth_overrides refuses the same depth first (depth.override_depth).");
    c.internal("depth.acquire_exceeds", "worker 'w' acquires 3 elements of fifo 'in' consumer 0 whose depth is 2",
               "The resolve-time trace checks every acquire against the same declared depth first "
               "(trace.acquire_depth).");

    c.component("Resolve: runtime sequence lowering", "Recording the runtime sequence and lowering it to shim tasks "
                                                      "(`frontend/src/resolve/SequenceLowering.cpp`).");
    c.site("frontend/src/resolve/SequenceLowering.cpp");
    NPUSIM_ERROR(c, "seq.barrier_set_range", kDesign,
                 "phase.set(70): a barrier's value must be within 0..63 (the lock's state)",
                 barrier_design(0, 1, 1, 70));
    NPUSIM_ERROR(c, "seq.host_buffer_size", kDesign,
                 "runtime argument 0 (u8[6]) is 6 B; host buffers must be a multiple of 4 bytes",
                 resolve(passthrough({.type = tensor<std::uint8_t>({4}), .host_elements = 6})));
    NPUSIM_ERROR(c, "seq.sequence_threw", kDesign,
                 "design 't': the runtime sequence threw while it was recorded (after 1 recorded operation(s)): "
                 "tile size out of range",
                 resolve(passthrough({.seq = [](RuntimeData a, RuntimeData, F in, F) {
                     in.fill(a);
                     throw std::runtime_error("tile size out of range");
                 }})));
    NPUSIM_ERROR(c, "seq.sequence_threw_unknown", kDesign,
                 "design 't': the runtime sequence threw an unknown exception while it was recorded (after 0 recorded "
                 "operation(s))",
                 resolve(passthrough({.seq = [](RuntimeData, RuntimeData, F, F) { throw 42; }})));
    NPUSIM_ERROR(c, "seq.mixed_task_groups", kDesign,
                 "runtime sequence mixes the implicit default task group with explicit TaskGroups "
                 "(strict_task_groups); pass group= to every transfer or to none",
                 resolve(passthrough({.seq = [](RuntimeData a, RuntimeData b, F in, F out) {
                     TaskGroup g;
                     in.fill(a, {.group = &g});
                     out.drain(b, {.wait = true});
                     g.finish();
                 }})));
    NPUSIM_ERROR(c, "seq.group_not_finished", kDesign,
                 "runtime sequence ended with TaskGroup 1 not finished; call finish()",
                 resolve(passthrough({.seq = [](RuntimeData a, RuntimeData, F in, F) {
                     TaskGroup g;
                     in.fill(a, {.group = &g});
                 }})));
    NPUSIM_ERROR(c, "seq.buffer_not_used", kDesign,
                 "buffer 'b' is written by the runtime sequence but no worker uses it", Buffer b(i32(16), "b");
                 resolve(passthrough({.seq = [b](RuntimeData a, RuntimeData x, F in, F out) {
                     b.write(0, std::int32_t{1});
                     fill_drain(a, x, in, out);
                 }})));
    c.internal("seq.no_shim_channel", "fill of fifo 'in' producer: no shim DMA channel was allocated for it",
               "Every Runtime endpoint of the design's fifos gets its shim channel before the sequence is lowered "
               "(or place.no_shim_channel is reported), and a fill on any other handle is refused when it is "
               "recorded (seq.handle_not_argument).");

    c.component("Resolve: symbols, routes and warnings",
                "Names the toolchain's symbol table needs unique, stream routing and `--werror` "
                "(`frontend/src/resolve/SymbolTable.cpp`, `StreamRouter.cpp`, `StaticChecks.cpp`).");
    c.site("frontend/src/resolve/SymbolTable.cpp");
    NPUSIM_ERROR(
        c, "misc.symbol_clash", kDesign,
        "buffer 'out_buff_0' of 'out' producer, element 0 clashes with the buffer of the same name of 'out_buff_0' "
        "buffer: redefinition of symbol named 'out_buff_0' (the toolchain's module verification fails); rename one",
        Buffer b(i32(16), "out_buff_0");
        resolve(passthrough({.buffers = {b}})));
    c.site("frontend/src/resolve/StreamRouter.cpp");
    NPUSIM_ERROR(
        c, "misc.no_route", kDesign,
        "no stream route for 'out_join4' stream from (0,5) MM2S 0 to (0,1) S2MM 4: all switch connections on the way "
        "are in use",
        ObjectFifo out(i32(80), "out");
        auto parts = out.prod().join({0, 16, 32, 48, 64});
        Worker w0([](F, F) {}, fn_args(parts[0].prod(), parts[1].prod()), {.name = "w0"});
        Worker w1([](F) {}, fn_args(parts[2].prod()), {.name = "w1"});
        Worker w2([](F) {}, fn_args(parts[3].prod()), {.name = "w2"});
        Worker w3([](F) {}, fn_args(parts[4].prod()), {.name = "w3"}); resolve(Program(
            "npu1_1col", Runtime([](RuntimeData b, F o) { o.drain(b, {.wait = true}); }, fn_args(i32(80), out.cons())),
            {w0, w1, w2, w3})));
    c.site("frontend/src/resolve/StaticChecks.cpp");
    NPUSIM_ERROR(
        c, "misc.werror", kDesign,
        "warning treated as an error (--werror): fill of fifo 'in' moves 4000 B, not a whole number of its 1024 B "
        "objects (3 and 928 B over): the last partial object is never consumed, so the design will hang there",
        resolve(passthrough({.host_elements = 1000}), {.werror = true}));

    c.component("Resolve: trace configuration",
                "`Program::enable_trace` (IRON's enable_trace), checked when the design resolves "
                "(`frontend/src/resolve/TraceLowering.cpp`, `model/src/TraceConfig.cpp`).");
    c.site("frontend/src/resolve/TraceLowering.cpp");
    NPUSIM_ERROR(c, "trace_config.worker", kDesign, "enable_trace: worker 'other' is not one of the program's workers",
                 ObjectFifo f(i32(16), "f");
                 Worker other([](F) {}, fn_args(f.cons()), {.name = "other"}); Program p = passthrough();
                 p.enable_trace(8192, std::vector<Worker>{other}); resolve(p));
    NPUSIM_ERROR(c, "trace_config.tile", kDesign, "enable_trace: tile (5,1) is not on npu1_1col",
                 Program p = passthrough();
                 p.enable_trace({.trace_size = 8192, .tiles = {{5, 1}}}); resolve(p));
    NPUSIM_ERROR(c, "trace_config.compute_tile", kDesign,
                 "enable_trace: tile (0,2) is a compute tile; trace its worker (workers=) instead",
                 Program p = passthrough();
                 p.enable_trace({.trace_size = 8192, .tiles = {{0, 2}}}); resolve(p));
    c.site("model/src/TraceConfig.cpp");
    NPUSIM_ERROR(c, "trace_config.too_many_events", kDesign,
                 "enable_trace coretile_events: at most 8 events can be traced at once, have 9",
                 Program p = passthrough();
                 p.enable_trace(8192, std::nullopt, std::vector<TraceEvent>(9, "INSTR_EVENT_0")); resolve(p));
    NPUSIM_ERROR(c, "trace_config.unknown_event", kDesign,
                 "enable_trace coretile_events: 'NOPE' is not an event npusim knows for core trace units on AIE2 (see "
                 "docs/traces.md for the names)",
                 Program p = passthrough();
                 p.enable_trace(8192, std::nullopt, std::vector<TraceEvent>{"NOPE"}); resolve(p));
    NPUSIM_ERROR(c, "trace_config.port_conflict", kDesign,
                 "enable_trace memtile_events: conflicting port configurations for slot 0: PORT_RUNNING_0 watches DMA "
                 "S2MM 0, but PORT_IDLE_0 watches DMA S2MM 1; events sharing a slot must monitor the same port",
                 Program p = passthrough();
                 p.enable_trace({.trace_size = 8192,
                                 .memtile_events = std::vector<TraceEvent>{TraceEvent::port("PORT_RUNNING_0", 0, true),
                                                                           TraceEvent::port("PORT_IDLE_0", 1, true)},
                                 .tiles = {{0, 1}}});
                 resolve(p));

    c.component(
        "Cascades",
        "CascadeFlow (IRON's), checked and lowered after placement (`frontend/src/resolve/CascadeLowering.cpp`), "
        "and the cascade calls of bodies and kernels at run time (`sim/src/CoreProcess.cpp`).");
    c.site("frontend/src/resolve/CascadeLowering.cpp");
    NPUSIM_ERROR(c, "cascade.not_adjacent", kDesign,
                 "CascadeFlow from worker 'a' on (0,4) to worker 'b' on (0,2): tiles must be adjacent",
                 Worker a([] {}, {.tile = Tile(0, 4), .name = "a"});
                 Worker b([] {}, {.tile = Tile(0, 2), .name = "b"}); CascadeFlow(a, b);
                 resolve(Program("npu1", Runtime([](RuntimeData) {}, fn_args(i32(16))), {a, b})));
    NPUSIM_ERROR(c, "cascade.direction", kDesign,
                 "CascadeFlow from worker 'a' on (0,2) to worker 'b' on (0,3): source tile must be to the North or "
                 "West of the destination tile (cascades run north to south or west to east: input from North or "
                 "West, output to South or East on AIE2)",
                 Worker a([] {}, {.tile = Tile(0, 2), .name = "a"});
                 Worker b([] {}, {.tile = Tile(0, 3), .name = "b"}); CascadeFlow(a, b);
                 resolve(Program("npu1", Runtime([](RuntimeData) {}, fn_args(i32(16))), {a, b})));
    NPUSIM_ERROR(c, "cascade.two_inputs", kDesign,
                 "CascadeFlow from worker 'west' on (0,2) to worker 'dst' on (1,2): worker 'dst' already has a "
                 "cascade input, from worker 'north' on (1,3); a tile has one cascade input (North or West)",
                 Worker n([] {}, {.tile = Tile(1, 3), .name = "north"});
                 Worker w([] {}, {.tile = Tile(0, 2), .name = "west"});
                 Worker d([] {}, {.tile = Tile(1, 2), .name = "dst"}); CascadeFlow(n, d); CascadeFlow(w, d);
                 resolve(Program("npu1", Runtime([](RuntimeData) {}, fn_args(i32(16))), {n, w, d})));
    NPUSIM_ERROR(c, "cascade.two_outputs", kDesign,
                 "CascadeFlow from worker 'src' on (0,3) to worker 'east' on (1,3): worker 'src' already has a "
                 "cascade output, to worker 'south' on (0,2); a tile has one cascade output (South or East)",
                 Worker s([] {}, {.tile = Tile(0, 3), .name = "src"});
                 Worker so([] {}, {.tile = Tile(0, 2), .name = "south"});
                 Worker e([] {}, {.tile = Tile(1, 3), .name = "east"}); CascadeFlow(s, so); CascadeFlow(s, e);
                 resolve(Program("npu1", Runtime([](RuntimeData) {}, fn_args(i32(16))), {s, so, e})));
    NPUSIM_ERROR(c, "cascade.not_in_program", kDesign,
                 "CascadeFlow from worker 'a' on (0,3): its destination worker 'b' is not among the Program's workers",
                 Worker a([] {}, {.tile = Tile(0, 3), .name = "a"});
                 Worker b([] {}, {.tile = Tile(0, 2), .name = "b"}); CascadeFlow(a, b);
                 resolve(Program("npu1", Runtime([](RuntimeData) {}, fn_args(i32(16))), {a})));
    c.internal("cascade.not_compute",
               "CascadeFlow from worker 'a' on (0,2) to worker 'b' on (0,1): memTile row has "
               "no cascade stream interface",
               "A Worker cannot be pinned on a shim or mem tile (Worker: 'tile ... is not a compute tile') and "
               "unpinned workers take compute tiles, so a CascadeFlow's ends are always compute tiles. The check "
               "mirrors CascadeFlowOp::verify (also 'shimTile row has no cascade stream interface') and is tested "
               "directly in tests/frontend/CascadeLowering_test.cpp.");
    c.internal("cascade.shim_end",
               "CascadeFlow from worker 'a' on (0,2) to worker 'b' on (0,0): shimTile row has "
               "no cascade stream interface",
               "As cascade.not_compute: a worker is never on a shim tile.");
    c.site("frontend/src/Worker.cpp");
    NPUSIM_ERROR(c, "cascade.put_outside_body", kDesign, "cascade_put() called outside a worker body",
                 cascade_put(nullptr));
    NPUSIM_ERROR(c, "cascade.get_outside_body", kDesign, "cascade_get() called outside a worker body",
                 cascade_get(nullptr));
    c.site("sim/src/CoreProcess.cpp");
    NPUSIM_ERROR(c, "cascade.no_output", kProtocol,
                 "worker 'w': cascade_put: no CascadeFlow starts at this worker, so its core has no cascade output",
                 int runs = 0;
                 simulate(passthrough({.body = [runs](F in, F out) mutable {
                     if (runs++ == 1) {
                         std::array<std::byte, 64> word{};
                         cascade_put(word.data());
                     }
                     copy(in, out);
                 }})));
    NPUSIM_ERROR(c, "cascade.no_input", kProtocol,
                 "worker 'w': cascade_get: no CascadeFlow ends at this worker, so its core has no cascade input",
                 int runs = 0;
                 simulate(passthrough({.body = [runs](F in, F out) mutable {
                     if (runs++ == 1) {
                         std::array<std::byte, 64> word{};
                         cascade_get(word.data());
                     }
                     copy(in, out);
                 }})));
    NPUSIM_ERROR(c, "stream.no_output_port", kProtocol,
                 "worker 'w': put_ms: no ObjectFifo producer end at this worker is Port::stream, so its core's output "
                 "stream port is not connected",
                 int runs = 0;
                 simulate(passthrough({.body = [runs](F in, F out) mutable {
                     if (runs++ == 1) model::CoreServices::current()->stream_put(1);
                     copy(in, out);
                 }})));
    NPUSIM_ERROR(c, "stream.no_input_port", kProtocol,
                 "worker 'w': get_ss: no ObjectFifo consumer end at this worker is Port::stream, so its core's input "
                 "stream port is not connected",
                 int runs = 0;
                 simulate(passthrough({.body = [runs](F in, F out) mutable {
                     if (runs++ == 1) (void)model::CoreServices::current()->stream_get();
                     copy(in, out);
                 }})));
    c.site("sim/src/Elaborator.cpp");
    c.internal("stream.flow_not_at_core",
               "worker 'w': its output stream port names flow 0, which does not start at its core",
               "resolve() sets CoreProgram::stream_out / stream_in only to the flow it lowers from that core's "
               "Port::stream end (Flow::from_core / to_core); a hand-built netlist could break it.");
    c.internal("stream.flow_without_sender",
               "flow fifo 'out' stream: it starts at a core's stream port, but no core sends on it",
               "As stream.flow_not_at_core: every from_core flow is some core's stream_out.");
    c.site("harness/src/AieKernel.cpp");
    c.internal("stream.aie_kernel_put_outside_core", "put_ms called outside a worker's kernel call",
               "As cascade.aie_kernel_outside_core: the stream hooks run only inside a Kernel call.");
    c.internal("stream.aie_kernel_get_outside_core", "get_ss called outside a worker's kernel call",
               "As stream.aie_kernel_put_outside_core, for the get side.");
    c.site("kernels_ref/aie_api/include/aie_api/detail/stream.hpp");
    c.internal("stream.aie_api_no_hook",
               "put_ms: no stream port is connected (the kernel runs outside a simulated core)",
               "The host layer's own guard when no hooks are installed (also 'get_ss: ...'); tested in "
               "tests/kernels_ref/aie_api.");
    c.site("harness/src/AieKernel.cpp");
    c.internal("cascade.aie_kernel_outside_core", "put_mcd called outside a worker's kernel call",
               "The AIE-API cascade hooks are installed by with_aie_core_modes, whose invoker only runs inside a "
               "Kernel call, and Kernel calls outside a worker body are refused first ('kernel ... called outside a "
               "worker body').");
    c.internal("cascade.aie_kernel_get_outside_core", "get_scd called outside a worker's kernel call",
               "As cascade.aie_kernel_outside_core, for the get side.");
}

} // namespace npusim::errcat

// Program::resolve(), its earlier passes: collecting the design, tracing the worker bodies, the fifo
// rules, stream ports, placement, DMA channels, locks and BDs. The later passes (memory allocation
// onwards) are in ResolveLowering.cpp.
#include "Designs.hpp"

#include "npusim/model/CoreServices.hpp"

#include <array>
#include <stdexcept>

namespace npusim::errcat {

namespace {
// in (runtime -> w) and out (w -> runtime); out's producer end gets `prod`, the fifo `opts`.
model::Netlist stream_out(ProdOptions prod, FifoOptions opts = {}) {
    ObjectFifo in(i32(16), "in"), out(i32(16), "out", 2, std::move(opts));
    Worker w(
        [](F i, F) {
            i.acquire(1);
            i.release(1);
        },
        fn_args(in.cons(), out.prod(std::move(prod))), {.name = "w"});
    return resolve(Program("npu1_1col", Runtime(fill_drain, fn_args(i32(16), i32(16), in.prod(), out.cons())), {w}));
}
// in (runtime -> w) with in's consumer end `cons`.
model::Netlist stream_in(ConsOptions cons) {
    ObjectFifo in(i32(16), "in"), out(i32(16), "out");
    Worker w(
        [](F, F o) {
            o.acquire(1);
            o.release(1);
        },
        fn_args(in.cons(std::move(cons)), out.prod()), {.name = "w"});
    return resolve(Program("npu1_1col", Runtime(fill_drain, fn_args(i32(16), i32(16), in.prod(), out.cons())), {w}));
}
} // namespace

void add_resolve(Catalog& c) {
    c.component("Resolve: the Program and its fifo ends",
                "What `Program::resolve()` checks first: the workers and fifos of the Program "
                "(`frontend/src/resolve/Collect.cpp`).");
    c.site("frontend/src/resolve/Collect.cpp");
    NPUSIM_ERROR(c, "collect.worker_twice", kDesign, "worker 'w' is listed twice in the Program",
                 ObjectFifo in(i32(16), "in");
                 Worker w([](F) {}, fn_args(in.cons()), {.name = "w"});
                 resolve(Program("npu1_1col", Runtime([](RuntimeData, F) {}, fn_args(i32(16), in.prod())), {w, w})));
    NPUSIM_ERROR(c, "collect.worker_names", kDesign,
                 "two workers are named 'w'; worker names must be unique (reports, traces and core symbols name them)",
                 ObjectFifo a(i32(16), "a"), b(i32(16), "b");
                 Worker w1([](F) {}, fn_args(a.cons()), {.name = "w"});
                 Worker w2([](F) {}, fn_args(b.cons()), {.name = "w"}); resolve(Program(
                     "npu1_1col", Runtime([](RuntimeData, F, F) {}, fn_args(i32(16), a.prod(), b.prod())), {w1, w2})));
    NPUSIM_ERROR(c, "collect.fifo_names", kDesign, "two different fifos are named 'x'; fifo names must be unique",
                 ObjectFifo a(i32(16), "x"), b(i32(16), "x");
                 Worker w([](F, F) {}, fn_args(a.cons(), b.cons()), {.name = "w"}); resolve(Program(
                     "npu1_1col", Runtime([](RuntimeData, F, F) {}, fn_args(i32(16), a.prod(), b.prod())), {w})));
    NPUSIM_ERROR(c, "collect.no_producer", kDesign,
                 "fifo 'lonely' has no producer: pass its prod() handle to a Worker or the Runtime",
                 ObjectFifo in(i32(16), "in"), lonely(i32(16), "lonely");
                 Worker w([](F, F) {}, fn_args(in.cons(), lonely.cons()), {.name = "w"});
                 resolve(Program("npu1_1col", Runtime([](RuntimeData, F) {}, fn_args(i32(16), in.prod())), {w})));
    NPUSIM_ERROR(c, "collect.no_consumer", kDesign,
                 "fifo 'lonely' has no consumer: pass a cons() handle to a Worker or the Runtime",
                 ObjectFifo in(i32(16), "in"), lonely(i32(16), "lonely");
                 Worker w([](F, F) {}, fn_args(in.cons(), lonely.prod()), {.name = "w"});
                 resolve(Program("npu1_1col", Runtime([](RuntimeData, F) {}, fn_args(i32(16), in.prod())), {w})));
    NPUSIM_ERROR(c, "collect.worker_not_listed", kDesign,
                 "fifo 'in' consumer 0 belongs to worker 'w', which is not in the Program's workers",
                 ObjectFifo in(i32(16), "in");
                 Worker w([](F) {}, fn_args(in.cons()), {.name = "w"});
                 resolve(Program("npu1_1col", Runtime([](RuntimeData, F) {}, fn_args(i32(16), in.prod())), {})));
    c.internal("collect.no_body", "worker 'w' has no body",
               "Worker's constructor always wraps the body it is given; an empty std::function body fails when it "
               "is traced instead (trace.body_threw).");

    c.component("Resolve: body tracing",
                "Each worker body runs once at resolve time against scratch memory to learn its acquires "
                "(`frontend/src/resolve/BodyTracer.cpp`).");
    c.site("frontend/src/resolve/BodyTracer.cpp");
    NPUSIM_ERROR(c, "trace.body_threw", kDesign, "worker 'w': body threw during its resolve-time trace: boom",
                 resolve(passthrough({.body = [](F, F) { throw std::runtime_error("boom"); }})));
    NPUSIM_ERROR(c, "trace.handle_not_argument", kDesign,
                 "worker 'w': acquire() on a fifo handle that is not among the worker's fn_args",
                 ObjectFifo x(i32(256), "x");
                 F h = x.cons(); resolve(passthrough({.body = [h](F, F) { h.acquire(1); }})));
    NPUSIM_ERROR(c, "trace.acquire_depth", kDesign,
                 "worker 'w': acquire(3) on fifo 'in' consumer 0 exceeds its depth 2",
                 resolve(passthrough({.body = [](F in, F) { in.acquire(3); }})));
    NPUSIM_ERROR(c, "trace.release_more_than_held", kDesign,
                 "worker 'w': release(2) on fifo 'in' consumer 0 but only 1 element(s) are held",
                 resolve(passthrough({.body = [](F in, F) {
                     in.acquire(1);
                     in.release(2);
                 }})));
    NPUSIM_ERROR(c, "trace.buffer_not_argument", kDesign,
                 "worker 'w': uses a Buffer that is not among the worker's fn_args", Buffer b(i32(16), "b");
                 resolve(passthrough({.body = [b](F, F) { b.view(); }})));
    NPUSIM_ERROR(c, "trace.barrier_wait_range", kDesign,
                 "worker 'w': phase.wait_for_value(64): a barrier's value must be within 0..63 (the lock's state)",
                 barrier_design(0, 64, 1, 1));
    NPUSIM_ERROR(c, "trace.barrier_release_range", kDesign,
                 "worker 'w': phase.release_with_value(-1): a barrier's value must be within 0..63 (the lock's "
                 "state)",
                 barrier_design(0, 1, -1, 1));
    NPUSIM_ERROR(
        c, "trace.barrier_not_argument", kDesign, "worker 'w': uses a barrier that is not among the worker's fn_args",
        resolve(passthrough({.body = [](F, F) { model::CoreServices::current()->lock_acquire_equal(1, 0); }})));

    c.component("Resolve: fifo rules", "The rules of the toolchain's ObjectFifoCreateOp::verify and DMA transfers "
                                       "(`frontend/src/resolve/FifoVerifier.cpp`).");
    c.site("frontend/src/resolve/FifoVerifier.cpp");
    NPUSIM_ERROR(c, "verify.shim_producer_layout", kDesign,
                 "fifo 'in': `dimensionsToStream` data layout transformations are not supported on shim tile "
                 "producers (its producer is the runtime sequence: give the layout to fill() as a tap instead)",
                 resolve(passthrough({.in = {.dims_to_stream = {{16, 16}, {16, 1}}}})));
    NPUSIM_ERROR(c, "verify.shim_consumer_layout", kDesign,
                 "fifo 'out': `dimensionsFromStreamPerConsumer` data layout transformations are not supported on shim "
                 "tile consumers (fifo 'out' consumer 0 is drained by the runtime sequence: give the layout to "
                 "drain() as a tap instead)",
                 ObjectFifo in(i32(256), "in"), out(i32(256), "out");
                 Worker w(copy, fn_args(in.cons(), out.prod()), {.name = "w"});
                 resolve(Program("npu1_1col",
                                 Runtime(fill_drain, fn_args(i32(1024), i32(1024), in.prod(),
                                                             out.cons({.dims_from_stream = {{16, 16}, {16, 1}}}))),
                                 {w})));
    NPUSIM_ERROR(c, "verify.shim_repeat_count", kDesign,
                 "fifo 'in': `repeat_count` unavailable for shim tiles (its producer is the runtime sequence)",
                 resolve(passthrough({.in = {.repeat_count = 2}})));
    NPUSIM_ERROR(c, "verify.mem_endpoint_without_init_values", kDesign,
                 "fifo 'c': its producer is a mem-tile endpoint (set_endpoint), which only sends the fifo's "
                 "init_values, and it has none",
                 ObjectFifo k(i32(16), "c"), out(i32(16), "out");
                 k.prod().set_endpoint(AnyMemTile); Worker w([](F, F) {}, fn_args(k.cons(), out.prod()), {.name = "w"});
                 resolve(Program("npu1_1col", Runtime([](RuntimeData, F) {}, fn_args(i32(16), out.cons())), {w})));
    NPUSIM_ERROR(c, "verify.shim_init_values", kDesign,
                 "fifo 'in': `init_values` unavailable for shim tiles (its producer is the runtime sequence)",
                 resolve(passthrough(
                     {.in = {.init_values = {std::vector<std::uint8_t>(1024), std::vector<std::uint8_t>(1024)}}})));
    NPUSIM_ERROR(c, "verify.init_values_count", kDesign,
                 "fifo 'out': `init_values` does not initialize all objects (1 given for a producer depth of 2)",
                 resolve(passthrough({.out = {.init_values = {std::vector<std::uint8_t>(1024)}}})));
    NPUSIM_ERROR(c, "verify.dma_object_size", kDesign,
                 "fifo 'in': object type u8[1022] is 1022 B, but it moves through DMA: transfer length must be "
                 "multiple of 4 (i.e., represent 4 byte aligned address) (DMABDOp::verify). Only a fifo between "
                 "cores that share memory, with no DMA, may carry such objects",
                 resolve(passthrough({.type = tensor<std::uint8_t>({1022})})));

    c.component("Resolve: stream ports",
                "ObjectFifo ends given Port::stream(n) (upstream aie_stream): ObjectFifoCreateOp::verify's aie_stream "
                "rules, reservePinnedChannels and checkAIEStreamIndex (`frontend/src/resolve/StreamPorts.cpp`).");
    c.site("frontend/src/resolve/StreamPorts.cpp");
    NPUSIM_ERROR(c, "stream.one_to_one", kDesign,
                 "fifo 'out': `aie_stream` can only be used in 1-to-1 object FIFOs (its producer is a stream port "
                 "and it has 2 consumers)",
                 ObjectFifo in(i32(16), "in"), out(i32(16), "out");
                 Worker w([](F i, F) { i.acquire(1), i.release(1); },
                          fn_args(in.cons(), out.prod({.port = Port::stream(0)})), {.name = "w"});
                 resolve(Program("npu1_1col",
                                 Runtime([](RuntimeData a, RuntimeData b, RuntimeData d, F i, F o1,
                                            F o2) { i.fill(a), o1.drain(b), o2.drain(d, {.wait = true}); },
                                         fn_args(i32(16), i32(16), i32(16), in.prod(), out.cons(), out.cons())),
                                 {w})));
    NPUSIM_ERROR(
        c, "stream.two_ports", kDesign,
        "fifo 'mid': both ends are stream ports but on ports 0 and 1; upstream's aie_stream=(2, port) gives "
        "both ends one `aie_stream_port`",
        ObjectFifo in(i32(16), "in"), mid(i32(16), "mid"), out(i32(16), "out");
        Worker a([](F i, F) { i.acquire(1), i.release(1); }, fn_args(in.cons(), mid.prod({.port = Port::stream(0)})),
                 {.name = "a"});
        Worker b([](F, F o) { o.acquire(1), o.release(1); }, fn_args(mid.cons({.port = Port::stream(1)}), out.prod()),
                 {.name = "b"});
        resolve(Program("npu1_1col", Runtime(fill_drain, fn_args(i32(16), i32(16), in.prod(), out.cons())), {a, b})));
    NPUSIM_ERROR(
        c, "stream.shim_or_mem", kDesign,
        "fifo 'out': `aie_stream` is not available for shim and mem tiles (fifo 'out' consumer 0 is "
        "Port::stream(0) but is filled or drained by the runtime sequence)",
        ObjectFifo in(i32(16), "in"), out(i32(16), "out");
        Worker w(copy, fn_args(in.cons(), out.prod()), {.name = "w"}); resolve(Program(
            "npu1_1col", Runtime(fill_drain, fn_args(i32(16), i32(16), in.prod(), out.cons({.port = Port::stream(0)}))),
            {w})));
    NPUSIM_ERROR(c, "stream.link_on_compute", kDesign,
                 "fifo 'in_fwd': fifo 'in_fwd' producer is Port::stream(0) but belongs to a link on a compute tile; "
                 "npusim lowers a link's ends only as DMA channels",
                 ObjectFifo in(i32(16), "in"), out(i32(16), "out");
                 ObjectFifo fwd = in.cons().forward(Tile(0, 3)); fwd.prod({.port = Port::stream(0)});
                 Worker w(copy, fn_args(fwd.cons(), out.prod()), {.name = "w"}); resolve(
                     Program("npu1_1col", Runtime(fill_drain, fn_args(i32(16), i32(16), in.prod(), out.cons())), {w})));
    NPUSIM_ERROR(c, "stream.repeat_count", kDesign,
                 "fifo 'out': `repeat_count` unavailable on stream end (its producer is Port::stream(0))",
                 stream_out({.port = Port::stream(0)}, {.repeat_count = 2}));
    NPUSIM_ERROR(c, "stream.init_values", kDesign,
                 "fifo 'out': `init_values` unavailable on stream end (its producer is Port::stream(0))", FifoOptions o;
                 o.init_values = {std::vector<std::uint8_t>(64), std::vector<std::uint8_t>(64)};
                 stream_out({.port = Port::stream(0)}, o));
    c.internal("stream.iter_count",
               "fifo 'out': `iter_count` unavailable on stream end (its producer is "
               "Port::stream(0))",
               "set_iter_count needs a mem-tile end, and a stream producer on a mem tile is refused first "
               "(stream.shim_or_mem); kept in ObjectFifoCreateOp::verify's order.");
    NPUSIM_ERROR(c, "stream.dims_to_stream", kDesign,
                 "fifo 'out': `dimensionsToStream` data layout transformations are unavailable on stream end (its "
                 "producer is Port::stream(0))",
                 stream_out({.port = Port::stream(0)}, {.dims_to_stream = {{4, 4}, {4, 1}}}));
    NPUSIM_ERROR(c, "stream.dims_from_stream", kDesign,
                 "fifo 'in': `dimensionsFromStreamPerConsumer` data layout transformations are unavailable on stream "
                 "end (its consumer is a stream port)",
                 stream_in({.dims_from_stream = {{4, 4}, {4, 1}}, .port = Port::stream(0)}));
    NPUSIM_ERROR(c, "stream.pinned_channel", kDesign,
                 "fifo 'out': cannot pin a DMA channel on an objectfifo that also uses aie_stream (stream ports "
                 "bypass DMA channels) (fifo 'out' producer pins DMA channel 1, its producer is a stream port)",
                 stream_out({.channel = 1, .port = Port::stream(0)}));
    NPUSIM_ERROR(c, "stream.port_range", kDesign,
                 "fifo 'in': fifo 'in' consumer 0 is Port::stream(1), out of range: a compute tile's core has 1 input "
                 "stream port (Core 0; AIE2TargetModel getNumSourceSwitchboxConnections / isLegalTileConnection)",
                 stream_in({.port = Port::stream(1)}));
    NPUSIM_ERROR(c, "stream.output_ports_exceeded", kDesign,
                 "fifo 'o2': 'aie.tile' op number of output Core channels exceeded! (tile (0,2): worker 'w' already "
                 "sends fifo 'o1' on its stream port 0)",
                 ObjectFifo in(i32(16), "in"), o1(i32(16), "o1"), o2(i32(16), "o2");
                 Worker w([](F i, F, F) { i.acquire(1), i.release(1); },
                          fn_args(in.cons(), o1.prod({.port = Port::stream(0)}), o2.prod({.port = Port::stream(0)})),
                          {.tile = Tile(0, 2), .name = "w"});
                 resolve(Program("npu1_1col",
                                 Runtime([](RuntimeData a, RuntimeData b, RuntimeData d, F i, F x,
                                            F y) { i.fill(a), x.drain(b), y.drain(d, {.wait = true}); },
                                         fn_args(i32(16), i32(16), i32(16), in.prod(), o1.cons(), o2.cons())),
                                 {w})));
    NPUSIM_ERROR(c, "stream.input_ports_exceeded", kDesign,
                 "fifo 'i2': 'aie.tile' op number of input Core channels exceeded! (tile (0,2): worker 'w' already "
                 "gets fifo 'i1' on its stream port 0)",
                 ObjectFifo i1(i32(16), "i1"), i2(i32(16), "i2"), out(i32(16), "out");
                 Worker w([](F, F, F o) { o.acquire(1), o.release(1); },
                          fn_args(i1.cons({.port = Port::stream(0)}), i2.cons({.port = Port::stream(0)}), out.prod()),
                          {.tile = Tile(0, 2), .name = "w"});
                 resolve(Program("npu1_1col",
                                 Runtime([](RuntimeData a, RuntimeData b, RuntimeData d, F x, F y,
                                            F o) { x.fill(a), y.fill(b), o.drain(d, {.wait = true}); },
                                         fn_args(i32(16), i32(16), i32(16), i1.prod(), i2.prod(), out.cons())),
                                 {w})));

    c.component(
        "Resolve: placement",
        "Placing workers, links, buffers and runtime endpoints on tiles (`frontend/src/resolve/Placement.cpp`).");
    c.site("frontend/src/resolve/Placement.cpp");
    NPUSIM_ERROR(c, "place.barrier_initial_range", kDesign,
                 "phase: initial value 64 must be within 0..63 (the lock's state)", barrier_design(64, 1, 1, 1));
    NPUSIM_ERROR(c, "place.worker_tile", kDesign,
                 "worker 'w': tile (3,2) is not a compute tile of npu1_1col (1 columns, compute rows 2-5)",
                 resolve(passthrough({.worker = {.tile = Tile(3, 2), .name = "w"}})));
    NPUSIM_ERROR(c, "place.worker_tile_taken", kDesign, "worker 'two': tile (0,2) already runs another worker",
                 ObjectFifo a(i32(16), "a"), b(i32(16), "b");
                 Worker one([](F) {}, fn_args(a.cons()), {.tile = Tile(0, 2), .name = "one"});
                 Worker two([](F) {}, fn_args(b.cons()), {.tile = Tile(0, 2), .name = "two"});
                 resolve(Program("npu1_1col", Runtime([](RuntimeData, F, F) {}, fn_args(i32(16), a.prod(), b.prod())),
                                 {one, two})));
    NPUSIM_ERROR(
        c, "place.no_compute_tile", kDesign,
        "worker 'worker_4': no free compute tile left on npu1_1col (4 compute tiles, 5 workers)",
        std::vector<Worker> ws;
        std::vector<F> ps; for (int i = 0; i < 5; ++i) {
            ObjectFifo f(i32(16), "f" + std::to_string(i));
            ps.push_back(f.prod());
            ws.emplace_back([](F) {}, fn_args(f.cons()));
        } resolve(Program("npu1_1col", Runtime([](RuntimeData, std::vector<F>) {}, fn_args(i32(16), ps)), ws)));
    NPUSIM_ERROR(c, "place.link_tile", kDesign,
                 "link of fifo 'in': tile (0,0) is not a mem or compute tile of npu1_1col",
                 ObjectFifo in(i32(256), "in");
                 auto parts = in.cons().split({0, 128}, {.tile = Tile(0, 0)});
                 Worker w([](F, F) {}, fn_args(parts[0].cons(), parts[1].cons()), {.name = "w"});
                 resolve(Program("npu1_1col", Runtime([](RuntimeData, F) {}, fn_args(i32(1024), in.prod())), {w})));
    NPUSIM_ERROR(c, "place.link_tile_channels", kDesign,
                 "link of fifo 'in': tile (0, 1) requires 1 input/7 output DMA channels, but only 6 input/6 output "
                 "available",
                 ObjectFifo in(i32(112), "in");
                 std::vector<F> cs;
                 for (auto& part
                      : in.cons().split({0, 16, 32, 48, 64, 80, 96}, {.tile = Tile(0, 1)})) cs.push_back(part.cons());
                 Worker w([](std::vector<F>) {}, fn_args(cs), {.name = "w"});
                 resolve(Program("npu1_1col", Runtime([](RuntimeData, F) {}, fn_args(i32(112), in.prod())), {w})));
    NPUSIM_ERROR(c, "place.link_capacity", kDesign,
                 "link of fifo 'in': no MemTile has sufficient DMA capacity for 1 input/7 output channels near "
                 "centroid column 0",
                 ObjectFifo in(i32(112), "in");
                 std::vector<F> cs; for (auto& part
                                         : in.cons().split({0, 16, 32, 48, 64, 80, 96})) cs.push_back(part.cons());
                 Worker w([](std::vector<F>) {}, fn_args(cs), {.name = "w"});
                 resolve(Program("npu1_1col", Runtime([](RuntimeData, F) {}, fn_args(i32(112), in.prod())), {w})));
    NPUSIM_ERROR(
        c, "place.shim_tile", kDesign, "fifo 'in' producer: tile (0,1) is not a shim tile of npu1_1col",
        ObjectFifo in(i32(16), "in");
        Worker w([](F) {}, fn_args(in.cons()), {.name = "w"}); resolve(Program(
            "npu1_1col", Runtime([](RuntimeData, F) {}, fn_args(i32(16), in.prod({.tile = Tile(0, 1)}))), {w})));
    NPUSIM_ERROR(c, "place.no_shim_channel", kDesign,
                 "fifo 'c' producer: no shim tile of npu1_1col has a free MM2S DMA channel", ObjectFifo a(i32(16), "a"),
                 b(i32(16), "b"), k(i32(16), "c");
                 Worker w([](F, F, F) {}, fn_args(a.cons(), b.cons(), k.cons()), {.name = "w"});
                 resolve(Program("npu1_1col",
                                 Runtime(
                                     [](RuntimeData x, F p, F q, F r) {
                                         p.fill(x);
                                         q.fill(x);
                                         r.fill(x);
                                     },
                                     fn_args(i32(16), a.prod(), b.prod(), k.prod())),
                                 {w})));
    NPUSIM_ERROR(c, "place.mem_endpoint_tile", kDesign, "fifo 'c' producer: tile (3,1) is not a mem tile of npu1_1col",
                 ObjectFifo k(i32(16), "c", 1, {.init_values = {std::vector<std::uint8_t>(64)}}), out(i32(16), "out");
                 k.prod().set_endpoint(Tile(3, 1)); Worker w([](F, F) {}, fn_args(k.cons(), out.prod()), {.name = "w"});
                 resolve(Program("npu1_1col", Runtime([](RuntimeData, F) {}, fn_args(i32(16), out.cons())), {w})));
    NPUSIM_ERROR(
        c, "place.no_mem_channel", kDesign, "fifo 'c6' producer: no mem tile of npu1_1col has a free MM2S DMA channel",
        std::vector<F> cs;
        for (int i = 0; i < 7; ++i) {
            ObjectFifo f(i32(16), "c" + std::to_string(i), 1, {.init_values = {std::vector<std::uint8_t>(64)}});
            f.prod().set_endpoint(AnyMemTile);
            cs.push_back(f.cons());
        } std::vector<Worker>
            ws;
        for (int i = 0; i < 4; ++i) ws.emplace_back(
            [](std::vector<F>) {}, fn_args(std::vector<F>(cs.begin() + 2 * i, cs.begin() + std::min(7, 2 * i + 2))));
        resolve(Program("npu1_1col", Runtime([] {}, fn_args()), ws)));
    c.internal("place.no_mem_tile", "fifo 'c' producer: npu1_1col has no mem tile",
               "Every device npusim models has a row of mem tiles (model/src/DeviceSpec.cpp); a mem-tile endpoint "
               "always finds one.");
    NPUSIM_ERROR(c, "place.buffer_tile", kDesign, "buffer 'b': tile (3,2) is not a compute tile of npu1_1col",
                 Buffer b(i32(16), "b", {}, Tile(3, 2));
                 resolve(passthrough({.buffers = {b}})));
    NPUSIM_ERROR(c, "place.buffer_unreachable", kDesign,
                 "buffer 'b' on (0,5) is not reachable from worker 'w' on (0,2) (a core reaches its own, west, north "
                 "and south memory)",
                 Buffer b(i32(16), "b", {}, Tile(0, 5));
                 resolve(passthrough({.buffers = {b}})));
    c.internal("place.endpoint_unused", "fifo 'in' consumer 1 is not used by any worker, the runtime or a link",
               "Only the producer and the consumers in use are placed, and collect.no_producer / "
               "collect.no_consumer refuse a fifo whose producer or every consumer is unused first.");

    c.component("Resolve: DMA channels, locks and BDs",
                "Each tile's DMA channels, locks and buffer descriptors (`frontend/src/resolve/ResourceLedger.cpp`).");
    c.site("frontend/src/resolve/ResourceLedger.cpp");
    NPUSIM_ERROR(c, "ledger.pinned_channel_range", kDesign,
                 "compute tile (0,2): fifo 'a' (consumer 0): pinned S2MM DMA channel 2 is out of range or already in "
                 "use on this tile (the tile has 2 S2MM channels)",
                 ObjectFifo a(i32(16), "a");
                 Worker w([](F) {}, fn_args(a.cons({.channel = 2})), {.name = "w"}); resolve(
                     Program("npu1", Runtime([](RuntimeData x, F p) { p.fill(x); }, fn_args(i32(16), a.prod())), {w})));
    NPUSIM_ERROR(c, "ledger.pinned_channel_taken", kDesign,
                 "compute tile (0,2): fifo 'b' (consumer 0): pinned S2MM DMA channel 1 is out of range or already in "
                 "use on this tile (taken by fifo 'a' (consumer 0))",
                 ObjectFifo a(i32(16), "a"), b(i32(16), "b");
                 Worker w([](F, F) {}, fn_args(a.cons({.channel = 1}), b.cons({.channel = 1})), {.name = "w"});
                 resolve(Program("npu1",
                                 Runtime(
                                     [](RuntimeData x, F p, F q) {
                                         p.fill(x);
                                         q.fill(x);
                                     },
                                     fn_args(i32(16), a.prod(), b.prod())),
                                 {w})));
    NPUSIM_ERROR(c, "ledger.dma_channels", kDesign,
                 "compute tile (0,2): fifo 'c' (consumer 0) needs a S2MM DMA channel but all 2 are in use (by fifo "
                 "'a' (consumer 0), fifo 'b' (consumer 0))",
                 ObjectFifo a(i32(16), "a"), b(i32(16), "b"), k(i32(16), "c");
                 Worker w([](F, F, F) {}, fn_args(a.cons(), b.cons(), k.cons()), {.name = "w"});
                 resolve(Program("npu1",
                                 Runtime(
                                     [](RuntimeData x, F p, F q, F r) {
                                         p.fill(x);
                                         q.fill(x);
                                         r.fill(x);
                                     },
                                     fn_args(i32(16), a.prod(), b.prod(), k.prod())),
                                 {w})));
    NPUSIM_ERROR(
        c, "ledger.locks", kDesign,
        "compute tile (0,2): 'f8' shared pool prod_lock (free slots) needs a lock but all 16 locks are in use: not "
        "allocated a lock.",
        std::vector<F> ps, cs;
        for (int i = 0; i < 9; ++i) {
            ObjectFifo f(i32(16), "f" + std::to_string(i));
            ps.push_back(f.prod());
            cs.push_back(f.cons());
        } Worker a([](std::vector<F>) {}, fn_args(ps), {.tile = Tile(0, 2), .name = "a"});
        Worker b([](std::vector<F>) {}, fn_args(cs), {.tile = Tile(0, 3), .name = "b"});
        resolve(Program("npu1_1col", Runtime([] {}, fn_args()), {a, b})));
    NPUSIM_ERROR(
        c, "ledger.lock_initial_value", kDesign,
        "'in' consumer copy prod_lock (free slots): lock 'in_cons_prod_lock_0' initial value 64 is outside 0..63",
        resolve(passthrough({.type = i32(4)}), {.depth_overrides = {{"in", 0, 64}}}));
    NPUSIM_ERROR(c, "ledger.bds", kDesign,
                 "compute tile (0,2): fifo 'in' (consumer 0) needs 17 BDs on S2MM channel 0 but only 16 of BDs 0-15 "
                 "are free: Allocator exhausted available BD IDs (maximum 16 available for channel 0).",
                 resolve(passthrough({.type = i32(4)}), {.depth_overrides = {{"in", 0, 17}}}));
    NPUSIM_ERROR(c, "ledger.shim_bd_ids", kDesign,
                 "fill of fifo 'in' (tap(offset=0, sizes=[1,1,1,256], strides=[0,0,0,1])): shim tile (0,0) has no free "
                 "BD id (all 16 are held by unfinished tasks; finish a TaskGroup or free tasks first)",
                 resolve(passthrough({.seq = [](RuntimeData a, RuntimeData, F in, F) {
                     for (int k = 0; k < 17; ++k)
                         in.fill(a, {.tap = TensorAccessPattern({1024}, 0, {256}, {1}), .managed = false});
                 }})));
}

} // namespace npusim::errcat

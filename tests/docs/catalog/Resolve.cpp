// Program::resolve(): collecting the design, tracing the worker bodies, the fifo rules, placement,
// DMA channels, locks and BDs, memory allocation, BD encoding, the depth rule and its overrides,
// lowering the runtime sequence, symbols, stream routes and --werror.
#include "Designs.hpp"

#include "npusim/model/CoreServices.hpp"

#include <array>
#include <stdexcept>

namespace npusim::errcat {

namespace {
// A worker that waits for `wait` on a barrier (initial `init`) and releases it by `release`; the
// sequence sets it to `set` and passes one tile through.
model::Netlist barrier_design(int init, int wait, int release, int set) {
    ObjectFifo in(i32(16), "in"), out(i32(16), "out");
    WorkerRuntimeBarrier b(init, "phase");
    Worker w(
        [wait, release](F i, F o, WorkerRuntimeBarrier x) {
            x.wait_for_value(wait);
            i.acquire(1);
            o.acquire(1);
            i.release(1);
            o.release(1);
            x.release_with_value(release);
        },
        fn_args(in.cons(), out.prod(), b), {.name = "w"});
    Runtime rt(
        [b, set](RuntimeData x, RuntimeData y, F i, F o) {
            b.set(set);
            i.fill(x);
            o.drain(y, {.wait = true});
        },
        fn_args(i32(16), i32(16), in.prod(), out.cons()));
    return resolve(Program("npu1_1col", rt, {w}, "t"));
}
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

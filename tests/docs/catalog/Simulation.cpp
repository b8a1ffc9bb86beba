// Run-time errors of the simulator (sim/): deadlocks, limits, kernel and protocol errors.
#include "Designs.hpp"

#include "npusim/model/CoreServices.hpp"

#include <memory>
#include <stdexcept>

namespace npusim::errcat {

namespace {
/// A body that copies, and on its `n`-th run (0: the resolve-time trace, 1: the first simulated
/// iteration) also does `extra` — what the trace cannot see.
std::function<void(F, F)> on_run(int n, std::function<void(F, F)> extra) {
    return [n, extra, runs = std::make_shared<int>(0)](F in, F out) {
        if ((*runs)++ == n) extra(in, out);
        copy(in, out);
    };
}
} // namespace

void add_simulation(Catalog& c) {
    c.component("Simulation",
                "What a run reports (`sim/src/`). Worker bodies run again at every iteration: `on_run(n, f)` is a "
                "copying body that also calls f on its n-th run (run 0 is the resolve-time trace), what the trace "
                "cannot see.");
    c.site("sim/src/DeadlockAnalyzer.cpp");
    NPUSIM_ERROR(
        c, "sim.deadlock", kDeadlock,
        "deadlock at cycle <N> in design 't' on npu1_1col: no process can make progress<...>",
        simulate(passthrough({.seq = [](RuntimeData, RuntimeData b, F, F out) { out.drain(b, {.wait = true}); }})));
    NPUSIM_ERROR(c, "sim.cycle_limit", kLimit,
                 "design 't' on npu1_1col: reached the cycle limit of 1000 cycles before the runtime sequence "
                 "finished (--max-cycles)\n<...>",
                 sim::SimOptions o;
                 o.max_cycles = 1000; simulate(passthrough(), o));
    NPUSIM_ERROR(c, "sim.wall_clock_limit", kLimit,
                 "design 't' on npu1_1col: reached the wall-clock limit of 1e-09 s at cycle <N> before the runtime "
                 "sequence finished (--timeout)\n<...>",
                 sim::SimOptions o;
                 o.wall_timeout_seconds = 1e-9; simulate(passthrough({.host_elements = 256 * 1000}), o));
    c.site("sim/src/SimEngine.cpp");
    NPUSIM_ERROR(c, "sim.host_tensor_count", kMismatch, "design 't' takes 2 host tensors, 0 were given",
                 sim::simulate(resolve(passthrough()), {}, {}));
    NPUSIM_ERROR(
        c, "sim.host_tensor_size", kMismatch, "design 't': host tensor 0 (arg0) must be 4096 B, got 4 B",
        sim::simulate(resolve(passthrough()), {std::vector<std::uint8_t>(4), std::vector<std::uint8_t>(4096)}, {}));
    NPUSIM_ERROR(c, "sim.host_tensors_overlap", kMismatch,
                 "design 't': host tensors 0 and 1 overlap in memory (each tensor of a run needs memory of its own)",
                 std::vector<std::uint8_t> mem(4096);
                 sim::simulate_in_place(resolve(passthrough()), {std::span<std::uint8_t>(mem), std::span<std::uint8_t>(mem)},
                                        {}));
    c.internal("sim.netlist_without_device", "netlist has no device",
               "resolve() always sets the netlist's device; only a model::Netlist built by hand and passed to "
               "sim::simulate lacks one.");
    c.site("sim/src/Elaborator.cpp");
    c.internal("sim.flow_without_program", "flow 'in' stream: destination (0,2) S2MM 0 has no DMA channel program",
               "resolve() gives every flow end a DMA channel program (or a shim task channel); only a hand-built "
               "netlist has a flow without one (also 'source ... has no DMA channel program').");
    c.internal("sim.bd_buffer_unreachable",
               "DMA (0,1) S2MM 0: BD 1 of 'big' link S2MM, element 1 uses buffer 'big_cons_buff_1' on tile (2,1), "
               "whose memory this DMA cannot address",
               "resolve() puts a DMA's buffers on its own tile, or a mem tile's on its west or east neighbour "
               "(DeviceSpec::dma_can_access); only a hand-edited netlist names another tile "
               "(tests/sim/MemTileSpill_test.cpp triggers it so).");
    c.site("sim/src/CoreProcess.cpp");
    NPUSIM_ERROR(c, "sim.kernel_threw", kKernel, "worker 'w': kernel 'boom' threw: bad input",
                 Kernel k("boom", +[](std::int32_t*) { throw std::runtime_error("bad input"); }, {i32(256)});
                 simulate(passthrough({.body = [k](F in, F out) {
                     k(in.acquire(1));
                     copy(in, out);
                 }})));
    NPUSIM_ERROR(c, "sim.kernel_threw_unknown", kKernel, "worker 'w': kernel 'boom' threw an unknown exception",
                 Kernel k("boom", +[](std::int32_t*) { throw 42; }, {i32(256)});
                 simulate(passthrough({.body = [k](F in, F out) {
                     k(in.acquire(1));
                     copy(in, out);
                 }})));
    NPUSIM_ERROR(c, "sim.kernel_thread_service", kProtocol,
                 "worker 'w': a kernel called add_cycles while running on a kernel thread (SimOptions::kernel_threads, "
                 "--kernel-threads); a kernel that uses its worker's services runs only with --kernel-threads 1",
                 Kernel k("cycles", +[](std::int32_t*) { iron::add_cycles(10); }, {i32(256)});
                 sim::SimOptions o; o.check_memory = false; o.kernel_threads = 2; o.kernel_pool_min_nanos = 0;
                 simulate(passthrough({.body =
                                           [k](F in, F out) {
                                               k(in.acquire(1));
                                               copy(in, out);
                                           }}),
                          o));
    NPUSIM_ERROR(c, "sim.kernel_wrote_outside", kKernel,
                 "worker 'w': kernel 'over' wrote outside the views it was given (call at cycle <N>): <...>",
                 Kernel k("over", +[](std::int32_t* x) { x[256] = 1; }, {i32(256)});
                 simulate(passthrough({.body = [k](F in, F out) {
                     k(out.acquire(1));
                     copy(in, out);
                 }})));
    NPUSIM_ERROR(c, "sim.body_wrote_outside", kKernel,
                 "worker 'w': its body wrote outside the objects it holds and its Buffers (between cycle <N>, its "
                 "last fifo or kernel call checked, and cycle <N>, this one): <...>",
                 simulate(passthrough(
                     {.body = on_run(1, [](F, F out) { out.acquire(1).as<std::int32_t>().data()[256] = 1; })})));
    NPUSIM_ERROR(c, "sim.release_more_than_held", kProtocol,
                 "worker 'w': release(2) on fifo 'in' consumer 0 but only 1 element(s) are held",
                 simulate(passthrough({.body = on_run(1, [](F in, F) {
                                           in.acquire(1);
                                           in.release(2);
                                       })})));
    NPUSIM_ERROR(c, "sim.handle_not_argument", kProtocol,
                 "worker 'w': uses a fifo handle that is not among its fn_args", ObjectFifo x(i32(256), "x");
                 F h = x.cons(); simulate(passthrough({.body = on_run(1, [h](F, F) { h.acquire(1); })})));
    NPUSIM_ERROR(c, "sim.buffer_not_argument", kProtocol, "worker 'w': uses a Buffer that is not among its fn_args",
                 Buffer b(i32(16), "b");
                 simulate(passthrough({.body = on_run(1, [b](F, F) { b.view(); })})));
    NPUSIM_ERROR(
        c, "sim.barrier_not_argument", kProtocol, "worker 'w': uses a barrier that is not among its fn_args",
        simulate(passthrough({.body = on_run(1, [](F, F) { model::CoreServices::current()->lock_release(1, 1); })})));
    c.internal("sim.lock_release_behind_run_ahead",
               "lock 'of_cons_lock_0' on (0,2): simulator invariant broken: released at cycle 20 by worker 'x' on "
               "(0,3), before cycle 40, where its one acquirer already took a later release. This is a bug in "
               "npusim, not in the design; please report it with the design",
               "Exit code 5. A lock with one acquiring and one releasing process (model::one_acquirer_one_releaser) "
               "lets its acquirer take a release made ahead of time at once; a release earlier than that would mean "
               "a second releaser the netlist does not show. tests/sim/internal/SemaphoreLock_test.cpp makes one "
               "by hand.");
    c.site("sim/src/SimProcess.cpp");
    NPUSIM_ERROR(c, "sim.body_threw", kProtocol, "worker 'w': body threw: boom",
                 simulate(passthrough({.body = on_run(1, [](F, F) { throw std::runtime_error("boom"); })})));
    NPUSIM_ERROR(c, "sim.body_threw_unknown", kProtocol, "worker 'w': body threw an unknown exception",
                 simulate(passthrough({.body = on_run(1, [](F, F) { throw 42; })})));
    NPUSIM_ERROR(c, "sim.body_design_error", kProtocol,
                 "worker 'w': acquire(0) on fifo 'in' consumer 0: the count must be >= 1",
                 simulate(passthrough({.body = on_run(1, [](F in, F) { in.acquire(0); })})));
    c.site("sim/src/SimProcess.hpp");
    c.internal("sim.thread_not_method",
               "shim DMA (0,0) MM2S 0: simulator invariant broken: spawned as a thread, but it is a method process. "
               "This is a bug in npusim, not in the design; please report it with the design",
               "SimProcess::spawn starts each process as what it says it is (is_method): the DMA channels as "
               "methods, which implement activate(), the cores and the runtime controller as threads, which "
               "implement body().");
    c.site("sim/src/SimProcess.cpp");
    c.internal("sim.spawn_stack_to_method",
               "DMA (0,2) S2MM 0: simulator invariant broken: spawned with a stack, but it is a method process. "
               "This is a bug in npusim, not in the design; please report it with the design",
               "SimEngine spawns the DMA channels, which are methods, without a stack "
               "(sim_internal_tests \"a DMA channel is a method process and refuses a stack\").");
    c.internal("sim.spawn_no_stack_to_thread",
               "worker 'w' on (0,2): simulator invariant broken: spawned without a stack, but it is a thread process. "
               "This is a bug in npusim, not in the design; please report it with the design",
               "SimEngine spawns the cores and the runtime controller with their stacks "
               "(sim_internal_tests \"a core is a thread process and is not spawned without a stack\").");
    c.site("sim/src/SimProcess.hpp");
    c.internal("sim.method_not_thread",
               "worker 'w': simulator invariant broken: spawned as a method, but it is a thread process. "
               "This is a bug in npusim, not in the design; please report it with the design",
               "As sim.thread_not_method.");
    c.site("sim/src/RuntimeController.cpp");
    NPUSIM_ERROR(c, "sim.task_queue_full", kLimit,
                 "runtime sequence op 7 at cycle <N>: the task queue of shim (0,0) S2MM 0 is full (4 tasks queued behind "
                 "the one in progress, task 2 ('out' drain)) when starting task 7 ('out' drain); the hardware would "
                 "drop it (Task_Queue_Overflow) and the design would hang. Await earlier tasks (wait=true + "
                 "TaskGroup.finish) before issuing more, or run with --queue-wait to model a toolchain that waits for "
                 "a free slot",
                 simulate(passthrough({.type = i32(64),
                                       .body =
                                           [](F in, F out) {
                                               copy(in, out);
                                               add_cycles(100000);
                                           },
                                       .seq =
                                           [](RuntimeData a, RuntimeData b, F in, F out) {
                                               in.fill(a);
                                               for (int k = 0; k < 7; ++k)
                                                   out.drain(b, {.tap = TensorAccessPattern({448}, 64 * k, {64}, {1}),
                                                                 .wait = true});
                                           },
                                       .host_elements = 448})));
    c.internal("sim.buffer_write_overrun", "runtime sequence: write of 4 B at 64 overruns buffer 'b' (64 B)",
               "Buffer::write refuses an index outside the buffer when it is recorded (buffer.write_index).");
    c.internal("sim.task_without_flow", "runtime sequence: task 0 ('in' fill) targets (0,0) MM2S 1, which has no flow",
               "resolve() gives every shim task the channel of its fifo's flow; only a hand-built netlist "
               "(tests/sim/internal/RuntimeController_test.cpp) has a task without one.");
    c.internal("sim.await_without_channel",
               "runtime sequence: await of task 0 ('out' drain) on (0,0) S2MM 0, which has no channel",
               "As sim.task_without_flow: every task resolve() emits, awaited or not, is on a channel of its fifo.");
    c.site("sim/src/ShimDmaChannel.cpp");
    c.internal("sim.shim_task_without_flow", "shim DMA (0,0) MM2S 0: task 0 has no stream flow",
               "As sim.task_without_flow: the runtime controller refuses such a task before the channel runs it.");
    c.site("sim/src/TileDmaChannel.cpp");
    c.internal("sim.bd_outside_buffer", "DMA (0,2) MM2S 0: BD 3 of 'f' test reaches outside buffer 'buf'",
               "resolve() checks every layout against its object or segment (bd.layout_object, bd.layout_segment); "
               "only a hand-built netlist (tests/sim/internal/TileDmaChannel_test.cpp) has such a BD.");
    c.site("sim/src/SemaphoreLock.cpp");
    c.internal("sim.lock_overflow",
               "lock 'in_cons_prod_lock_0' on (0,2) overflows: value 63 + release 1 exceeds 63 (released by worker 'w' "
               "on (0,2)); a release without a matching acquire",
               "The two locks of a ring start at values summing to at most 63 (ledger.lock_initial_value) and every "
               "release matches an acquire of the other lock: a worker cannot release more than it holds "
               "(sim.release_more_than_held) and DMA chains alternate. Only a hand-built netlist "
               "(tests/sim/internal/SemaphoreLock_test.cpp) overflows a lock.");
    c.internal("sim.lock_set_out_of_range", "lock 'b' on (0,2): set to 64 outside 0..63 (by runtime sequence)",
               "No design API emits a lock set (RuntimeOp::SetLock); only a hand-built netlist "
               "(tests/sim/internal/SemaphoreLock_test.cpp) has one.");
    c.site("sim/src/SimProcess.cpp");
    c.internal("sim.process_threw", "shim DMA (0,0) MM2S 0: vector::_M_range_check: ...",
               "A DMA channel or the runtime controller runs npusim's own code only (a worker body's exceptions are "
               "sim.body_threw): an exception from one is a bug, reported as a protocol error naming the process.");
    c.site("sim/src/InvariantChecker.cpp");
    c.internal("sim.invariant",
               "design 't': simulator invariant broken: <what>. This is a bug in npusim, not in the "
               "design; please report it with the design",
               "Exit code 5 (internal error). Checks of the simulator's own bookkeeping before and after every run "
               "(buffers inside tile memory, lock values and their ledger, what each flow receiver wrote); "
               "tests/sim/internal/InvariantChecker_test.cpp breaks them on purpose.");
}

} // namespace npusim::errcat

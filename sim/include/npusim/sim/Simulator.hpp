#pragma once
// The simulator's front door: execute a netlist on host tensors and return the outputs, the
// simulated cycle count and statistics. Throws SimulationError (deadlock, protocol violation,
// limit reached, kernel failure). Each call builds a fresh SystemC simulation context, so one
// process can simulate any number of designs.
#include "npusim/model/Netlist.hpp"
#include "npusim/model/TimingParams.hpp"
#include "npusim/sim/CriticalPath.hpp"
#include "npusim/sim/TraceSink.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <span>
#include <vector>

namespace npusim::sim {

/// How far a run has come (SimOptions::progress).
struct SimProgress {
    std::uint64_t cycles = 0; ///< simulated so far
    std::uint64_t ops_done = 0; ///< runtime-sequence instructions completed, over all invocations
    std::uint64_t ops_total = 0; ///< instructions of the sequence x invocations
    std::uint64_t bytes_moved = 0; ///< over all stream flows so far
    double wall_seconds = 0; ///< since the simulation started
    bool final = false; ///< the last report: the run ended (finished, failed or stopped)
    /// Simulated cycles per wall-clock second so far.
    double cycles_per_second() const { return wall_seconds > 0 ? static_cast<double>(cycles) / wall_seconds : 0; }
};

/// The bounds of SimOptions::core_stack_bytes: 1 MiB up to 1 GiB (SystemC takes the size as an int).
inline constexpr std::size_t kMinCoreStackBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxCoreStackBytes = std::size_t{1} << 30;

struct SimOptions {
    model::TimingParams timing; ///< use TimingParams::for_arch(device.arch) by default
    std::uint64_t max_cycles = 0; ///< 0: no limit
    TraceSink* trace = nullptr; ///< optional
    /// Host stack of each core process, kMinCoreStackBytes to kMaxCoreStackBytes (a value outside
    /// is taken as the nearer bound).
    std::size_t core_stack_bytes = 4u << 20;
    /// Called about every `progress_interval_cycles` simulated cycles (0: never), and once more
    /// with `final` set when the run ends however it ends.
    std::function<void(const SimProgress&)> progress;
    std::uint64_t progress_interval_cycles = 0;
    /// Model a toolchain that waits for a free task-queue slot before each push (mlir-aie PR 3734,
    /// on by default there; `--no-enforce-dma-queue-depth` turns it off): the runtime sequence
    /// blocks until the channel's queue has room. Off: a push onto a full queue is an error, as
    /// the hardware drops it.
    bool queue_wait = false;
    /// After the runtime sequence's end, how long the shim tasks still in flight (pushed, not
    /// awaited) may run before the host reads the outputs. On hardware the host's run.wait()
    /// returns when the command processor reaches the end of the instruction stream, and the DMAs
    /// it started keep running; npusim lets them complete, for at most this many cycles (1 ms at
    /// 1 GHz, far longer than the host's read-back takes), and reports them. A task that cannot
    /// move ends the run at once (docs/notes/runtime-sequence-semantics.md §3).
    std::uint64_t drain_cycles = 1'000'000;
    /// How often the runtime sequence runs on the configured array, as XRT runs a loaded kernel
    /// again (xrt_test_wrapper.h: warm-up and measured iterations): cores, locks, buffers, rotating
    /// indices and the host tensors persist between invocations; init_values are not re-applied.
    std::uint32_t invocations = 1;
    /// With more than one invocation: which host tensors InvocationResult::host keeps (by index;
    /// empty: all) and from which invocation on, so long runs keep only what will be checked.
    std::vector<int> snapshot_tensors;
    std::uint32_t snapshot_from = 0;
    /// Find writes of native code outside the memory it was given: a kernel outside its view
    /// arguments, a worker body outside the objects it holds and its Buffers (MemoryGuard: the
    /// tile memories a core reaches are compared around each kernel call and between its
    /// synchronisations). Such a write is a SimulationError (Kernel) naming the buffer written.
    bool check_memory = true;
    /// What-if ablation (`npusim run --what-if free-kernels`): kernels run (outputs stay exact) but
    /// cost no cycles, call overhead included; what the run takes then is data movement and sync.
    bool free_kernels = false;
    /// Kernel calls run on this many threads at once (0: one per hardware thread; 1: every call
    /// on the simulating thread, as before): kernel_threads - 1 pool threads, and the simulating
    /// thread, which runs queued calls while it waits for one to end. A core hands its call to the pool, waits in
    /// simulated time until the call's modelled end while other cores go on (and hand theirs
    /// over), and then joins it; results, cycles and trace events are those of the serial run.
    /// Calls stay on the simulating thread while check_memory is on (the check compares tile
    /// memories around a call with nobody else writing them), on cores with cascade or stream
    /// ports (a kernel moves their words on the core's clock), and for kernels whose last timed call
    /// took less than kernel_pool_min_nanos of host time (a hand-over costs more; a kernel's first
    /// call in a run stays on the simulating thread and is timed, as is every 32nd call that stays
    /// there after it).
    unsigned kernel_threads = 0;
    std::uint64_t kernel_pool_min_nanos = 20000;
    /// A lock with one acquiring and one releasing process (model::one_acquirer_one_releaser: the
    /// ObjectFifo ring locks) lets its acquirer take a release its releaser made ahead of simulated
    /// time at once, at that release's cycle, instead of waiting in SystemC until that cycle.
    /// Results, cycles and traces are the same either way (tested on every registered design);
    /// off only to compare (fewer SystemC waits and activations: SimResult::scheduler_waits,
    /// scheduler_activations).
    bool lock_run_ahead = true;
    /// Wall-clock limit of the run in seconds (0: none). The run stops with a Limit error and the
    /// progress report when it is reached between two slices of simulated time (checked every
    /// 100,000 simulated cycles). Native code that never returns is not stopped here: see
    /// `npusim run --timeout`, whose watchdog ends the process then.
    double wall_timeout_seconds = 0;
    /// The host's control scratchpad (ScratchpadParameters): one 32-bit word per
    /// Netlist::scratchpad_params entry, by state-table index, as the host library writes them
    /// (test_lib/parameter_scratchpad.h ParameterScratchpad::writeBits: a "core" parameter's bits
    /// shifted left by 2, an "addr" parameter's value raw). Missing words are 0 (the library clears
    /// the scratchpad); more words than parameters is a Mismatch error.
    std::vector<std::uint32_t> scratchpad;
};

/// One run of the runtime sequence.
struct InvocationResult {
    std::uint64_t begin_cycle = 0; ///< when its first instruction issued
    std::uint64_t end_cycle = 0; ///< when its last instruction completed
    std::uint64_t cycles() const { return end_cycle - begin_cycle; }
    /// The host tensors when it ended (filled only when the run has more than one invocation, for
    /// the invocations and tensors SimOptions::snapshot_* select, others left empty;
    /// SimResult::host holds the last).
    std::vector<std::vector<std::uint8_t>> host;
};

/// Where a core's time went. busy = kernel + body; stall = waiting on locks (an acquire of a fifo
/// or a barrier); the rest of the run the core was idle (done, or before its first action).
struct CoreStats {
    std::string worker;
    model::TileCoord tile;
    std::uint64_t busy_cycles = 0; ///< kernels and explicit cycles
    std::uint64_t kernel_cycles = 0; ///< kernel calls, their call overhead included
    std::uint64_t body_cycles = 0; ///< cycles the body charged itself (add_cycles)
    std::uint64_t stall_cycles = 0; ///< waiting on locks and cascades
    std::uint64_t cascade_stall_cycles = 0; ///< the part of stall_cycles spent waiting on cascade words or room
    std::uint64_t kernel_calls = 0;
    /// Of kernel_calls, those handed to the kernel threads (SimOptions::kernel_threads). It depends
    /// on host timing (kernel_pool_min_nanos), so it is not in the run's reports.
    std::uint64_t pooled_kernel_calls = 0;
    std::uint64_t iterations = 0; ///< completed body iterations
    /// Multiply-accumulates the kernels declared (model::KernelWork; 0 when no kernel declares
    /// any) and the peak of the matrix unit they ran on (MACs per cycle, the largest over them).
    std::uint64_t macs = 0;
    double peak_macs_per_cycle = 0;
};

/// Where a DMA channel's time went: moving data, waiting on the stream (a sender for its receivers
/// to post: back-pressure; a receiver for data), waiting for a BD's lock; the rest is BD setup,
/// task overhead and idle.
struct ChannelStats {
    model::StreamEndpoint channel;
    std::string label; ///< provenance
    std::uint64_t bytes = 0;
    std::uint64_t bds = 0; ///< BD executions (tasks on shim channels)
    std::uint64_t active_cycles = 0; ///< cycles spent moving data
    std::uint64_t stream_stall_cycles = 0;
    std::uint64_t lock_stall_cycles = 0;
    double peak_bytes_per_cycle = 0; ///< the channel's own rate (shim or tile DMA)
};

/// A memory path several channels share (the host memory, each mem tile's banks).
struct SharedPathStats {
    std::string label; ///< "host memory (DDR)", "mem tile (0,1) banks"
    std::uint64_t bytes = 0; ///< moved through it
    double bytes_per_cycle = 0; ///< its rate
    std::uint64_t delay_cycles = 0; ///< cycles it held transfers beyond their own stream time
};

struct SimResult {
    std::uint64_t cycles = 0; ///< simulated cycles until the run ended
    std::vector<std::vector<std::uint8_t>> host; ///< host tensors after the run
    std::vector<CoreStats> cores;
    std::vector<ChannelStats> channels;
    std::vector<SharedPathStats> shared_paths;
    std::uint64_t bytes_moved = 0; ///< bytes delivered over all stream flows
    std::uint64_t bd_transfers = 0; ///< BD executions over all channels
    std::uint64_t shim_tasks = 0;
    std::uint64_t queue_waits = 0; ///< task pushes that waited for a free queue slot (queue_wait)
    /// SystemC waits made by all the run's thread processes, the cores and the runtime controller
    /// (each suspends one and resumes it later: two coroutine switches and a trip through
    /// SystemC's scheduler): with scheduler_activations, the simulator's own cost besides the
    /// copies and the kernels (docs/performance.md). A fact about the engine, not the design (a
    /// core waits differently when its calls go to kernel threads): not in the reports.
    std::uint64_t scheduler_waits = 0;
    /// Activations of the run's method processes after a trigger (the DMA channels, state
    /// machines with no stack: each activation is a trip through the scheduler without a coroutine
    /// switch, about 0.4x a thread's wait). Their waits, not counted in scheduler_waits.
    std::uint64_t scheduler_activations = 0;
    std::vector<std::string> warnings; ///< e.g. tasks still pending at the end
    std::vector<InvocationResult> invocations; ///< one per run of the runtime sequence
    /// The run's critical path (CriticalPath): the chain of work and waits that ended the run, its
    /// cycles by the timing parameter or cost model that priced them; they add up to `cycles`.
    CriticalPath critical_path;
};

/// Simulate `net` with `host` tensors (one per netlist host tensor, sized exactly).
SimResult simulate(const model::Netlist& net, std::vector<std::vector<std::uint8_t>> host, const SimOptions& opts);

/// The same run on host tensors the caller owns (one span per netlist host tensor, sized exactly,
/// none overlapping another): the shim channels read and write them in place, so a caller whose
/// tensors already live in memory of its own (the Python module's numpy arrays) copies nothing in
/// or out. SimResult::host stays empty; the spans hold the tensors after the run.
SimResult simulate_in_place(const model::Netlist& net, std::vector<std::span<std::uint8_t>> host,
                            const SimOptions& opts);

} // namespace npusim::sim

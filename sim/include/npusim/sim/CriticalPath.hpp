#pragma once
// The run's critical path, priced by what set each of its cycles. Every process carries the chain
// of work and waits that ends at its own local time (ProcessClock::path): the cycles it charged
// itself, each under the timing parameter (or cost model) that priced them, on top of the chain of
// whatever it last waited for. A process that waits for another (a lock released, a stream chunk
// arrived or a receiver posted, a task pushed or completed) takes the other's chain when that one
// ends later than its own time (CriticalPath::join: the later of the two determined when it could
// go on), and keeps its own otherwise. So the chain of the process that ends the run (the runtime
// controller's last await) is the run's critical path, and its cycles per cost are what each
// parameter contributed to the predicted time: no second simulation and no graph kept, one copy of
// a small array per hand-off. Time a process spent that no cost or hand-off explains (a wait on a
// hand-off that carries no chain: cascade words, core stream ports, packet arbitration, the
// runtime controller's queue-slot waits) is counted as Unattributed, so the parts always add up to
// the chain's end.
#include "npusim/model/TimingParams.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace npusim::sim {

/// What priced a cycle of a chain: a timing parameter (model::TimingParams), a kernel's or body's
/// cost model, or nothing known.
enum class PathCost : std::uint8_t {
    StreamRate, ///< stream_bytes_per_cycle: a chunk's data at the stream port's rate
    ShimDmaRate, ///< shim_dma_bytes_per_cycle: the same, when the shim channel is slower
    TileDmaRate, ///< tile_dma_bytes_per_cycle: the same, when the tile channel is slower
    SwitchHop, ///< switch_hop_latency_cycles: route latency on a BD's first chunk
    HostMemory, ///< ddr_bytes_per_cycle: cycles the shared host memory held a chunk
    MemTileBanks, ///< memtile_memory_bytes_per_cycle: the same for a mem tile's banks
    LockAcquire, ///< lock_acquire_cycles
    LockRelease, ///< lock_release_cycles
    BdSetup, ///< bd_setup_cycles
    ShimDispatch, ///< shim_task_dispatch_cycles
    ShimColdDispatch, ///< shim_cold_task_dispatch_cycles (its excess over the pipelined dispatch)
    ShimMm2sOverhead, ///< shim_mm2s_task_overhead_cycles
    ShimS2mmOverhead, ///< shim_s2mm_task_overhead_cycles
    KernelCallOverhead, ///< kernel_call_overhead_cycles
    ElementAccess, ///< core_element_access_cycles
    RuntimeOp, ///< runtime_op_cycles
    KernelModel, ///< a kernel's own cost model (the call's cycles without its overhead)
    BodyCycles, ///< a worker body's add_cycles
    Unattributed, ///< waits on a hand-off that carries no chain (see above)
    Count
};
inline constexpr std::size_t kPathCosts = static_cast<std::size_t>(PathCost::Count);

/// The timing parameter's name (a row of model::timing_param_table()) for the costs that are one,
/// else "kernel cost models", "worker body cycles" or "not attributed".
const char* path_cost_name(PathCost c);
/// True for the costs that are timing parameters.
bool path_cost_is_parameter(PathCost c);

/// A chain's cycles by what priced them; `total` is their sum, the time the chain ends.
struct CriticalPath {
    std::array<std::uint64_t, kPathCosts> cycles{};
    std::uint64_t total = 0;

    void add(PathCost c, std::uint64_t n) {
        cycles[static_cast<std::size_t>(c)] += n;
        total += n;
    }
    std::uint64_t operator[](PathCost c) const { return cycles[static_cast<std::size_t>(c)]; }
    /// The chain reaches time `at`: what it does not explain up to there is Unattributed.
    void settle(std::uint64_t at) {
        if (at > total) add(PathCost::Unattributed, at - total);
    }
    /// A hand-off from `other`: the later chain is the one that determined this point.
    void join(const CriticalPath& other) {
        if (other.total > total) *this = other;
    }
    /// A chain of `at` cycles that nothing explains (a hand-off whose sender keeps no chain).
    static CriticalPath unknown(std::uint64_t at) {
        CriticalPath p;
        p.add(PathCost::Unattributed, at);
        return p;
    }
};

/// Which parameter prices a chunk on a link of rate `bytes_per_cycle` (the slowest of its stream
/// and channels): the stream port when the link runs at its rate (a tie goes to the port, as in
/// the trust lines), else the shim or the tile DMA rate, whichever it equals (the tile's on a tie).
PathCost rate_cost(const model::TimingParams& t, double bytes_per_cycle);

} // namespace npusim::sim

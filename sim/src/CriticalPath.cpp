#include "npusim/sim/CriticalPath.hpp"

namespace npusim::sim {

const char* path_cost_name(PathCost c) {
    switch (c) {
    case PathCost::StreamRate: return "stream_bytes_per_cycle";
    case PathCost::ShimDmaRate: return "shim_dma_bytes_per_cycle";
    case PathCost::TileDmaRate: return "tile_dma_bytes_per_cycle";
    case PathCost::SwitchHop: return "switch_hop_latency_cycles";
    case PathCost::HostMemory: return "ddr_bytes_per_cycle";
    case PathCost::MemTileBanks: return "memtile_memory_bytes_per_cycle";
    case PathCost::LockAcquire: return "lock_acquire_cycles";
    case PathCost::LockRelease: return "lock_release_cycles";
    case PathCost::BdSetup: return "bd_setup_cycles";
    case PathCost::ShimDispatch: return "shim_task_dispatch_cycles";
    case PathCost::ShimColdDispatch: return "shim_cold_task_dispatch_cycles";
    case PathCost::ShimMm2sOverhead: return "shim_mm2s_task_overhead_cycles";
    case PathCost::ShimS2mmOverhead: return "shim_s2mm_task_overhead_cycles";
    case PathCost::KernelCallOverhead: return "kernel_call_overhead_cycles";
    case PathCost::ElementAccess: return "core_element_access_cycles";
    case PathCost::RuntimeOp: return "runtime_op_cycles";
    case PathCost::KernelModel: return "kernel cost models";
    case PathCost::BodyCycles: return "worker body cycles";
    case PathCost::Unattributed:
    case PathCost::Count: break;
    }
    return "not attributed";
}

bool path_cost_is_parameter(PathCost c) { return c < PathCost::KernelModel; }

PathCost rate_cost(const model::TimingParams& t, double bytes_per_cycle) {
    if (bytes_per_cycle >= t.stream_bytes_per_cycle) return PathCost::StreamRate;
    if (bytes_per_cycle >= t.tile_dma_bytes_per_cycle) return PathCost::TileDmaRate;
    if (bytes_per_cycle >= t.shim_dma_bytes_per_cycle) return PathCost::ShimDmaRate;
    return PathCost::StreamRate; // a receiver slower than every table rate: no parameter binds it alone
}

} // namespace npusim::sim

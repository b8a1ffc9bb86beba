#pragma once
// Where a run's time went (the run summary's breakdown): per tile, the busy and stalled cycles of its
// core and DMA channels by cause; the MACs the kernels declared against the matrix units' peak;
// and the unit whose busy share of the run is largest, the one that bounds throughput. Computed
// from sim::SimResult only, so `npusim run`'s table, its --json and the HTML report agree.
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/sim/Simulator.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::harness {

/// One tile's time, in cycles of the run (a tile has at most one core; its channels are summed).
struct TileTime {
    model::TileCoord tile;
    model::TileKind kind = model::TileKind::Compute;
    std::string worker; ///< the core's worker, empty when the tile runs none
    // core
    std::uint64_t kernel_cycles = 0;
    std::uint64_t body_cycles = 0;
    std::uint64_t core_lock_stall_cycles = 0; ///< waits on locks (and barriers)
    std::uint64_t core_cascade_stall_cycles = 0; ///< waits on cascade words or room
    // DMA channels of the tile, summed
    int channels = 0;
    std::uint64_t dma_active_cycles = 0;
    std::uint64_t dma_stream_stall_cycles = 0;
    std::uint64_t dma_lock_stall_cycles = 0;
    std::uint64_t dma_bytes = 0;
};

/// A unit busy for at least this share of the run is reported as the one that bounds throughput.
inline constexpr double kBoundBusyFraction = 0.8;

/// The unit busy for the largest share of the run: it bounds throughput when that share is at
/// least kBoundBusyFraction.
struct Bottleneck {
    enum class Kind { None, Core, Channel, SharedPath } kind = Kind::None;
    std::string name; ///< "core (0,2) mm_0_0", "(0,0) MM2S 0 (fifo 'in' ...)", "host memory (DDR)"
    double busy_fraction = 0; ///< busy cycles / run cycles
    std::string why; ///< one sentence: what it was busy with
};

struct RunBreakdown {
    std::uint64_t cycles = 0;
    std::vector<TileTime> tiles; ///< tiles with a core or a channel, in (col, row) order
    std::uint64_t macs = 0; ///< declared by the kernels over all cores
    double peak_macs_per_cycle = 0; ///< summed over the cores that ran a MAC-declaring kernel
    int mac_cores = 0; ///< how many cores those are
    std::uint64_t mac_kernel_cycles = 0; ///< their kernel cycles
    /// MACs per cycle over the run, and per kernel cycle of the cores that ran them.
    double macs_per_cycle() const { return cycles ? static_cast<double>(macs) / static_cast<double>(cycles) : 0; }
    double macs_per_kernel_cycle() const {
        return mac_kernel_cycles ? static_cast<double>(macs) / static_cast<double>(mac_kernel_cycles) : 0;
    }
    Bottleneck bound;
};

/// Compute the breakdown of `res` on `device`.
RunBreakdown run_breakdown(const sim::SimResult& res, const model::DeviceSpec& device);

} // namespace npusim::harness

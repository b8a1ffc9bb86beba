#pragma once
// What the simulator reports about time: tracks (one per core, DMA channel, lock) carrying spans
// (a kernel call, a lock stall, a BD transfer) and counters (lock values). traces/ implements
// sinks (Perfetto JSON, VCD, summary). Spans are reported when they end, in time order per track.
#include <cstdint>
#include <string>
#include <string_view>

namespace npusim::sim {

struct TrackInfo {
    enum class Kind { Core, Dma, Lock, Runtime } kind = Kind::Core;
    int col = 0;
    int row = 0;
    std::string name; ///< "core (0,2) worker_0", "(0,2) S2MM 0", "in_cons_prod_lock_0"
};

class TraceSink {
public:
    virtual ~TraceSink() = default;
    /// Called once per track before the run; returns nothing, tracks are numbered in call order.
    virtual void add_track(int track, const TrackInfo& info) = 0;
    /// A span [begin, end) in cycles on a track.
    virtual void span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) = 0;
    /// A counter value from `cycle` on (lock values).
    virtual void counter(int track, std::uint64_t cycle, std::int64_t value) = 0;
    /// The run ended at `end_cycle` (flush files here).
    virtual void finish(std::uint64_t end_cycle) = 0;
};

} // namespace npusim::sim

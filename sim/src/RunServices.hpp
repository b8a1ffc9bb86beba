#pragma once
// The services every part of a run uses: its control state (errors, warnings, teardown), the
// trace tracks and the timing table. Components get this (and the few other services they need,
// see the *Services structs next to each component) instead of the whole engine.
#include "RunControl.hpp"
#include "npusim/model/TimingParams.hpp"
#include "npusim/sim/TraceSink.hpp"

#include <cstdint>

namespace npusim::sim {

/// Trace tracks of a run, numbered in the order they are added. Without a sink nothing is traced.
class TraceTracks {
public:
    explicit TraceTracks(TraceSink* sink) : sink_(sink) {}
    TraceSink* sink() const { return sink_; }
    /// Register a track with the sink; returns its id, or -1 without a sink.
    int add(const TrackInfo& info) {
        if (!sink_) return -1;
        const int id = next_++;
        sink_->add_track(id, info);
        return id;
    }

private:
    TraceSink* sink_;
    int next_ = 0;
};

/// Totals over all channels of a run.
struct RunStats {
    std::uint64_t bytes_moved = 0; ///< bytes delivered over all stream flows
    std::uint64_t bd_transfers = 0; ///< BD executions (tasks on shim channels)
};

struct RunServices {
    RunControl& run;
    TraceTracks& tracks;
    const model::TimingParams& timing;
};

} // namespace npusim::sim

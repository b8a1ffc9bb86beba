#pragma once
// Per-track totals of a run and a text table of them:
//
//   track                 tile   spans  busy cycles  busy %  values
//   core (0,2) worker_0   (0,2)      4          400    40.0
//   in_cons_prod_lock_0   (0,2)      0            0     0.0  0..2
//   end cycle: 1000
//
// busy cycles = sum of span lengths (overlapping spans on one track count each); busy % is of the
// end cycle given to finish() ("-" before finish() or if it was 0). "values" is min..max of the
// counter values reported on the track (lock values). Runtime tracks show "-" as tile.
#include "npusim/sim/TraceSink.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npusim::traces {

class SummaryTraceSink final : public sim::TraceSink {
public:
    struct TrackTotals {
        int track = 0; ///< the id given to add_track
        sim::TrackInfo info;
        std::uint64_t spans = 0;
        std::uint64_t busy_cycles = 0; ///< sum of span lengths
        std::uint64_t counter_updates = 0;
        std::optional<std::int64_t> min_value; ///< over all counter values, if any
        std::optional<std::int64_t> max_value;
    };

    /// Throws std::invalid_argument if `track` was already added.
    void add_track(int track, const sim::TrackInfo& info) override;
    /// span()/counter() throw std::out_of_range for a track that was never added.
    void span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) override;
    void counter(int track, std::uint64_t cycle, std::int64_t value) override;
    void finish(std::uint64_t end_cycle) override;

    /// All tracks, in add_track order.
    const std::vector<TrackTotals>& tracks() const noexcept { return tracks_; }
    /// The totals of track id `track`, or nullptr.
    const TrackTotals* find(int track) const;
    /// The end cycle given to finish(), if it was called.
    std::optional<std::uint64_t> end_cycle() const noexcept { return end_cycle_; }
    /// busy_cycles as a percentage of the end cycle; nullopt before finish() or if it was 0.
    std::optional<double> busy_percent(const TrackTotals& t) const;

    /// The aligned table above: one row per track in add_track order, then "end cycle: N".
    std::string table() const;

private:
    TrackTotals& at(int track, const char* call);

    std::vector<TrackTotals> tracks_;
    std::unordered_map<int, std::size_t> index_; ///< track id -> index into tracks_
    std::optional<std::uint64_t> end_cycle_;
};

} // namespace npusim::traces

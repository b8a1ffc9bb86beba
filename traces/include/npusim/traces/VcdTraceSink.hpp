#pragma once
// A Value Change Dump for GTKWave (IEEE 1364 section 18). Layout of the file:
//
//   $version npusim VcdTraceSink $end
//   $timescale 1ns $end                      1 ns = 1 cycle (a 1 GHz clock), whatever the clock
//   $scope module npusim $end
//     $scope module runtime $end ...         the Runtime tracks, if any
//     $scope module tile_<col>_<row> $end    one scope per tile, ordered by (col, row)
//       $var wire 1 <id> <name> $end         Core / Dma / Runtime track: 1 while a span is active
//       $var reg 6 <id> <name> $end          Lock track: its value (wider only if a value > 63 or
//                                            < 0 was reported or is the initial one: enough bits,
//                                            or 64 for negatives)
//       $var event 1 <id> <name>_acquire $end  Lock track: triggered at each acquire instant; also
//       $var event 1 <id> <name>_release $end  _release and _set (runtime set_lock), each declared
//                                            only if the lock has such instants
//   ...
//   #0 $dumpvars <initial values> $end       wires 1 if a span begins at 0, else 0; regs their
//                                            TrackInfo::initial (the lock's initial value), else
//                                            the value reported at cycle 0, else x
//   <changes at cycle 0>                     a lock's value at the end of cycle 0 (after the
//                                            acquires there) when it differs from the initial one
//   #<t> <changes>                           increasing t; within a step in track-id order
//   #<end_cycle>                             if the run ended after the last change
//
// Wire values count active spans per track, so overlapping spans stay 1 until the last ends;
// a wire is 0/1 only, so back-to-back spans (end == next begin) read as one stretch and
// zero-length spans do not show. Counters on wire tracks and spans on lock tracks are ignored.
// Several counter values for one track at one cycle: the last reported wins.
// Only real changes are written (a value equal to the previous one is dropped). Event variables
// are triggered ("1<id>") after the values of their time step, in the order the instants were
// reported, once per kind and step, so a
// release and an acquire of one lock in the same cycle show as two triggers at that time (GTKWave
// draws events as arrows) even when the value ends where it started. Instants on other tracks
// are ignored.
//
// Identifiers are printable ASCII, shortest first ("!" .. "~", then "!!", "\"!", ...).
// Names: every character outside [A-Za-z0-9_] becomes '_' (runs collapsed, ends trimmed); a name
// starting with a digit gets the track kind as prefix ("(0,2) S2MM 0" -> "dma_0_2_S2MM_0");
// duplicates within a scope get "_2", "_3", ...
//
// Everything is buffered in memory and written, sorted, by finish(), which throws
// std::runtime_error naming the path if the file cannot be written.
#include "npusim/sim/TraceSink.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npusim::traces {

class VcdTraceSink final : public sim::TraceSink {
public:
    explicit VcdTraceSink(std::string path);

    /// Throws std::invalid_argument if `track` was already added.
    void add_track(int track, const sim::TrackInfo& info) override;
    /// span()/counter() throw std::out_of_range for a track that was never added.
    void span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) override;
    void counter(int track, std::uint64_t cycle, std::int64_t value) override;
    /// Lock acquire / release / set instants trigger the lock's event variables.
    void instant(int track, sim::TraceKind kind, std::string_view name, std::uint64_t cycle,
                 sim::TraceArgs args) override;
    /// Writes the file (again, if called twice).
    void finish(std::uint64_t end_cycle) override;

    const std::string& path() const noexcept { return path_; }

    /// The n-th identifier code: 0 -> "!", 93 -> "~", 94 -> "!!", 95 -> "\"!", ...
    static std::string identifier(std::size_t n);
    /// `name` made a legal VCD reference: [A-Za-z0-9_] kept, other runs -> '_', ends trimmed.
    /// May be empty or start with a digit (the sink prefixes those).
    static std::string sanitize(std::string_view name);
    /// The scope of a track: "tile_<col>_<row>", or "runtime" for Runtime tracks.
    static std::string scope_name(const sim::TrackInfo& info);

private:
    struct Change {
        std::uint64_t time = 0;
        std::int64_t value = 0; ///< +1/-1 for span edges, the value for counters
        std::uint32_t track = 0; ///< index into tracks_
    };

    std::uint32_t index_of(int track, const char* call) const;

    std::string path_;
    std::vector<int> ids_; ///< track id per track index
    std::vector<sim::TrackInfo> tracks_; ///< in add_track order
    std::unordered_map<int, std::uint32_t> index_; ///< track id -> index
    static constexpr int kAcquire = 0, kRelease = 1, kSet = 2, kStrobeKinds = 3;
    struct Strobe {
        std::uint64_t time = 0;
        std::uint32_t track = 0; ///< index into tracks_
        std::uint8_t kind = kAcquire;
    };

    std::vector<Change> changes_; ///< in call order
    std::vector<Strobe> strobes_; ///< lock instants, in call order
};

} // namespace npusim::traces

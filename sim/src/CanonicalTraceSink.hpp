#pragma once
// CanonicalTraceSink: puts a run's trace events in an order that depends only on what happened,
// not on the order the simulator's processes (or the kernel threads, SimOptions::kernel_threads)
// happened to report them, and forwards them to the user's sink at the end of the run.
//
// - Events are sorted by the cycle they are reported at (a span's end, an instant's or a counter's
//   cycle), then by track, record type, kind (a lock's sets and releases before its acquires),
//   begin, name and arguments: two runs with the same events give their sink the same calls in
//   the same order, so trace files are byte-identical.
// - A lock's counter track gets one value per cycle in which the lock changed: its value at the
//   end of that cycle. The simulator reports each change as the value after it, in the order it
//   applied them (a release made ahead of simulated time is applied when somebody next looks at
//   the lock), so two changes at one cycle could show a transient value in one order and another
//   in the other. The changes are kept as differences and summed in cycle order instead.
//   (The lock's acquire and release instants still show every operation.)
// - Tracks, begin_run and warnings pass straight through.
#include "npusim/sim/TraceSink.hpp"

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npusim::sim {

class CanonicalTraceSink final : public TraceSink {
public:
    explicit CanonicalTraceSink(TraceSink& inner) : inner_(inner) {}

    void begin_run(const RunInfo& info) override { inner_.begin_run(info); }
    void add_track(int track, const TrackInfo& info) override;
    void span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) override;
    void detailed_span(int track, TraceKind kind, std::string_view name, std::uint64_t begin, std::uint64_t end,
                       TraceArgs args) override;
    void instant(int track, TraceKind kind, std::string_view name, std::uint64_t cycle, TraceArgs args) override;
    void counter(int track, std::uint64_t cycle, std::int64_t value) override;
    /// Sorts what was reported, hands it to the inner sink and finishes it.
    void finish(std::uint64_t end_cycle) override;
    std::vector<std::string> warnings() const override { return inner_.warnings(); }

private:
    enum class Type : std::uint8_t { Counter, Instant, Span, DetailedSpan };
    /// A string kept once for the run (names and argument texts repeat across events).
    using Text = const std::string*;
    struct Arg {
        Text key = nullptr;
        Text text = nullptr;
        std::int64_t number = 0;
        bool is_number = false;
    };
    struct Event {
        std::uint64_t at = 0; ///< the cycle it is reported at
        int track = 0;
        Type type = Type::Counter;
        TraceKind kind = TraceKind::Other;
        std::uint64_t begin = 0;
        Text name = nullptr;
        std::vector<Arg> args;
        std::int64_t value = 0; ///< counter: its value
        std::uint64_t seq = 0; ///< report order, the last key
    };
    static bool before(const Event& a, const Event& b);
    Text intern(std::string_view s);
    void record(Event e, TraceArgs args);
    void forward(const Event& e);

    TraceSink& inner_;
    std::vector<Event> events_; ///< everything but lock counters
    struct LockChange {
        std::uint64_t at;
        int track;
        std::int64_t change;
    };
    std::vector<LockChange> lock_changes_; ///< lock counters, as changes in report order
    std::vector<bool> lock_track_; ///< per track id: a lock's value counter
    std::vector<std::int64_t> last_value_; ///< per lock track: the value last reported
    std::uint64_t seq_ = 0;
    std::deque<std::string> texts_; ///< interned strings (stable addresses)
    std::unordered_map<std::string_view, Text> text_index_;
};

} // namespace npusim::sim

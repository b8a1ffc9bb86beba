#include "CanonicalTraceSink.hpp"

#include <algorithm>
#include <functional>
#include <tuple>

namespace npusim::sim {

void CanonicalTraceSink::add_track(int track, const TrackInfo& info) {
    if (track >= 0) {
        const auto n = static_cast<std::size_t>(track) + 1;
        if (lock_track_.size() < n) lock_track_.resize(n, false), last_value_.resize(n, 0);
        lock_track_[static_cast<std::size_t>(track)] = info.kind == TrackInfo::Kind::Lock;
    }
    inner_.add_track(track, info);
}

CanonicalTraceSink::Text CanonicalTraceSink::intern(std::string_view s) {
    if (const auto it = text_index_.find(s); it != text_index_.end()) return it->second;
    const Text t = &texts_.emplace_back(s);
    text_index_.emplace(*t, t);
    return t;
}

void CanonicalTraceSink::record(Event e, TraceArgs args) {
    e.args.reserve(args.size());
    for (const auto& a : args) e.args.push_back({intern(a.key), intern(a.text), a.number, a.is_number});
    e.seq = seq_++;
    events_.push_back(std::move(e));
}

void CanonicalTraceSink::span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) {
    record({end, track, Type::Span, TraceKind::Other, begin, intern(name), {}, 0, 0}, {});
}

void CanonicalTraceSink::detailed_span(int track, TraceKind kind, std::string_view name, std::uint64_t begin,
                                       std::uint64_t end, TraceArgs args) {
    record({end, track, Type::DetailedSpan, kind, begin, intern(name), {}, 0, 0}, args);
}

void CanonicalTraceSink::instant(int track, TraceKind kind, std::string_view name, std::uint64_t cycle,
                                 TraceArgs args) {
    record({cycle, track, Type::Instant, kind, cycle, intern(name), {}, 0, 0}, args);
}

void CanonicalTraceSink::counter(int track, std::uint64_t cycle, std::int64_t value) {
    const auto t = static_cast<std::size_t>(track);
    if (track >= 0 && t < lock_track_.size() && lock_track_[t]) {
        // Every change of the lock is reported, in the order it was applied: the difference to
        // the value reported before is this change.
        lock_changes_.push_back({cycle, track, value - last_value_[t]});
        last_value_[t] = value;
        return;
    }
    record({cycle, track, Type::Counter, TraceKind::Other, cycle, intern({}), {}, value, 0}, {});
}

namespace {
// Lock instants at one cycle in the order that can have happened: a set or a release before the
// acquires it may have let through (an acquire never takes a lock below zero on the timeline).
int rank(TraceKind k) {
    switch (k) {
    case TraceKind::LockSet: return 0;
    case TraceKind::LockRelease: return 1;
    case TraceKind::LockAcquire: return 2;
    default: return 3 + static_cast<int>(k);
    }
}

// Interned strings compare by content (equal ones share an address).
int compare(const std::string* a, const std::string* b) { return a == b ? 0 : a->compare(*b); }
} // namespace

bool CanonicalTraceSink::before(const Event& a, const Event& b) {
    const auto ka = std::make_tuple(a.at, a.track, a.type, rank(a.kind), a.begin);
    const auto kb = std::make_tuple(b.at, b.track, b.type, rank(b.kind), b.begin);
    if (ka != kb) return ka < kb;
    if (const int c = compare(a.name, b.name)) return c < 0;
    for (std::size_t i = 0; i < a.args.size() && i < b.args.size(); ++i) {
        const auto &x = a.args[i], &y = b.args[i];
        if (const int c = compare(x.key, y.key)) return c < 0;
        if (x.is_number != y.is_number) return x.is_number < y.is_number;
        if (x.number != y.number) return x.number < y.number;
        if (const int c = compare(x.text, y.text)) return c < 0;
    }
    if (a.args.size() != b.args.size()) return a.args.size() < b.args.size();
    if (a.value != b.value) return a.value < b.value;
    return a.seq < b.seq;
}

void CanonicalTraceSink::forward(const Event& e) {
    std::vector<TraceArg> args;
    args.reserve(e.args.size());
    for (const auto& a : e.args)
        args.push_back(a.is_number ? TraceArg::num(*a.key, a.number) : TraceArg::str(*a.key, *a.text));
    switch (e.type) {
    case Type::Span: inner_.span(e.track, *e.name, e.begin, e.at); break;
    case Type::DetailedSpan: inner_.detailed_span(e.track, e.kind, *e.name, e.begin, e.at, args); break;
    case Type::Instant: inner_.instant(e.track, e.kind, *e.name, e.at, args); break;
    case Type::Counter: inner_.counter(e.track, e.at, e.value); break;
    }
}

void CanonicalTraceSink::finish(std::uint64_t end_cycle) {
    // Lock changes: one sample per track and cycle, the running sum of the changes up to that
    // cycle's end. Summing is order-free within a cycle; sorting by (track, cycle) first gives
    // each track its changes in cycle order.
    std::stable_sort(lock_changes_.begin(), lock_changes_.end(), [](const LockChange& a, const LockChange& b) {
        return std::tie(a.track, a.at) < std::tie(b.track, b.at);
    });
    std::int64_t value = 0;
    for (std::size_t i = 0; i < lock_changes_.size(); ++i) {
        const auto& c = lock_changes_[i];
        if (i == 0 || c.track != lock_changes_[i - 1].track) value = 0;
        value += c.change;
        const bool last_of_cycle =
            i + 1 == lock_changes_.size() || lock_changes_[i + 1].track != c.track || lock_changes_[i + 1].at != c.at;
        if (last_of_cycle)
            events_.push_back({c.at, c.track, Type::Counter, TraceKind::Other, c.at, intern({}), {}, value, 0});
    }
    lock_changes_.clear();
    std::sort(events_.begin(), events_.end(), before);
    for (const auto& e : events_) forward(e);
    events_.clear();
    text_index_.clear();
    texts_.clear();
    inner_.finish(end_cycle);
}

} // namespace npusim::sim

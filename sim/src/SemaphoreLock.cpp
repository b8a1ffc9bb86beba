#include "SemaphoreLock.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::sim {

SemaphoreLock::SemaphoreLock(const RunServices& services, int index, std::string name, std::string where, int init,
                             int max_value, int track)
    : svc_(services), index_(index), name_(std::move(name)), where_(std::move(where)), value_(init), max_(max_value),
      init_(init), base_(init), track_(track) {}

void SemaphoreLock::trace_counter(std::uint64_t cycle) { svc_.tracks.sink()->counter(track_, cycle, value_); }

void SemaphoreLock::trace_instant(TraceKind kind, std::string_view name, std::uint64_t cycle, std::string_view who,
                                  int amount) {
    const TraceArg args[] = {TraceArg::str("lock", name_), TraceArg::str("by", who), TraceArg::num("amount", amount)};
    svc_.tracks.sink()->instant(track_, kind, name, cycle, args);
}

void SemaphoreLock::apply_pending(std::uint64_t t) {
    while (!pending_.empty() && pending_.front().at <= t) {
        const auto p = pending_.front();
        pending_.pop_front();
        value_ = p.set ? p.value : value_ + p.value;
        last_path_ = p.path;
        traced(p.at);
    }
}

void SemaphoreLock::trace_pending() const {
    if (track_ < 0 || !svc_.tracks.sink()) return;
    int v = value_;
    for (const auto& p : pending_) {
        v = p.set ? p.value : v + p.value;
        svc_.tracks.sink()->counter(track_, p.at, v);
    }
}

int SemaphoreLock::final_value() const {
    int v = value_;
    for (const auto& p : pending_) v = p.set ? p.value : v + p.value;
    return v;
}

template <class Ready>
bool SemaphoreLock::ready_ahead(Ready ready, std::uint64_t& at) {
    if (!run_ahead_) return false;
    int v = value_;
    for (const auto& p : pending_) {
        v = p.set ? p.value : v + p.value;
        if (ready(v)) {
            at = p.at;
            apply_due(at);
            ran_ahead_to_ = std::max(ran_ahead_to_, at);
            ++ran_ahead_;
            return true;
        }
    }
    return false;
}

template <bool Equal>
[[gnu::always_inline]] inline Wake SemaphoreLock::acquire_step_as(LockAcquire& a, ProcessClock& clk, ProcessState& ps) {
    const int v = a.value;
    const auto ready = [v](int value) { return Equal ? value == v : value >= v; };
    if (!a.waiting) {
        auto at = clk.local_cycles();
        apply_due(at);
        if (!ready(value_)) {
            const auto from = at;
            if (ready_ahead(ready, at)) {
                clk.set_local_cycles(at);
                if (a.stall) *a.stall += at - from;
            } else {
                // Wait until the lock is ready at this process's local time. The process does not
                // first wait for simulated time to catch up with its local time: releases are
                // timed, so a wait on the lock's event (or on the next scheduled release) is the
                // only SystemC wait needed.
                a.start = clk.local_cycles();
                ps.waiting_on_lock(index_, v, Equal, a.start);
                ++waiters_;
                a.waiting = true;
            }
        }
    }
    if (a.waiting) {
        apply_due(clk.local_cycles());
        if (!ready(value_))
            return pending_.empty() ? Wake::keep_local(event_)
                                    : Wake::keep_local(std::max(pending_.front().at, now_cycles() + 1), event_);
        a.waiting = false;
        --waiters_;
        ps.status = ProcessState::Status::Running;
        ps.ring = nullptr;
        if (a.stall) *a.stall += clk.local_cycles() - a.start;
    }
    // The acquire goes on after the release that made the lock ready, if that came after the
    // acquirer's own time (it waited, in SystemC or by running ahead to a pending release).
    clk.join(last_path_);
    if constexpr (Equal) {
        traced_instant(TraceKind::LockAcquire, "acquire ==", clk.local_cycles(), ps.name, v);
    } else {
        value_ -= v;
        acquired_ += v;
        traced(clk.local_cycles());
        traced_instant(TraceKind::LockAcquire, "acquire", clk.local_cycles(), ps.name, v);
    }
    clk.advance(svc_.timing.lock_acquire_cycles, PathCost::LockAcquire);
    return {};
}

Wake SemaphoreLock::acquire_step(LockAcquire& a, ProcessClock& clk, ProcessState& ps) {
    return a.equal ? acquire_step_as<true>(a, clk, ps) : acquire_step_as<false>(a, clk, ps);
}

void SemaphoreLock::acquire_ge(int v, ProcessClock& clk, ProcessState& ps, std::uint64_t* stall,
                               void (*before_wait)(void*), void* ctx) {
    LockAcquire a{v, false, stall};
    auto w = acquire_step_as<false>(a, clk, ps);
    if (w.done()) return;
    if (before_wait) before_wait(ctx);
    for (; !w.done(); w = acquire_step_as<false>(a, clk, ps)) clk.wait_for(w);
}

void SemaphoreLock::acquire_eq(int v, ProcessClock& clk, ProcessState& ps, std::uint64_t* stall) {
    LockAcquire a{v, true, stall};
    for (auto w = acquire_step_as<true>(a, clk, ps); !w.done(); w = acquire_step_as<true>(a, clk, ps)) clk.wait_for(w);
}

void SemaphoreLock::release(int v, ProcessClock& clk, const std::string& who) {
    release_unsynced(v, clk, who);
    clk.maybe_sync();
}

void SemaphoreLock::release_unsynced(int v, ProcessClock& clk, const std::string& who) {
    release_at(v, clk.local_cycles(), who, &clk.path());
    clk.advance(svc_.timing.lock_release_cycles, PathCost::LockRelease);
}

bool SemaphoreLock::try_acquire_ge_at(int v, std::uint64_t at, std::string_view who, std::uint64_t* taken_at) {
    apply_due(at);
    if (value_ < v && !(taken_at && ready_ahead([v](int value) { return value >= v; }, at))) return false;
    if (taken_at) *taken_at = at;
    value_ -= v;
    acquired_ += v;
    traced(at);
    traced_instant(TraceKind::LockAcquire, "acquire", at, who, v);
    return true;
}

void SemaphoreLock::release_at(int v, std::uint64_t at, const std::string& who, const CriticalPath* path) {
    if (final_value() + v > max_)
        svc_.run.fail(SimulationError(
            SimulationError::Kind::Protocol,
            fmt::format("lock '{}' on {} overflows: value {} + release {} exceeds {} (released by {}); a "
                        "release without a matching acquire",
                        name_, where_, final_value(), v, max_, who)));
    if (at < ran_ahead_to_)
        svc_.run.fail(SimulationError(
            SimulationError::Kind::Internal,
            fmt::format("lock '{}' on {}: simulator invariant broken: released at cycle {} by {}, before cycle {}, "
                        "where its one acquirer already took a later release. This is a bug in npusim, not in the "
                        "design; please report it with the design",
                        name_, where_, at, who, ran_ahead_to_)));
    last_releaser_ = &who;
    released_ += v;
    traced_instant(TraceKind::LockRelease, "release", at, who, v);
    if (at <= now_cycles() && pending_.empty()) {
        value_ += v;
        last_path_ = path ? *path : CriticalPath::unknown(at);
        traced(at);
        wake(0);
    } else {
        pending_.insert({at, v, false, path ? *path : CriticalPath::unknown(at)});
        // A waiter already sleeps until the earliest pending release or this event; later
        // waiters compute their own timeout from pending_.
        wake(pending_.front().at - std::min(pending_.front().at, now_cycles()));
    }
}

void SemaphoreLock::set(int v, ProcessClock& clk, const std::string& who) {
    clk.sync();
    if (v < 0 || v > max_)
        svc_.run.fail(SimulationError(
            SimulationError::Kind::Protocol,
            fmt::format("lock '{}' on {}: set to {} outside 0..{} (by {})", name_, where_, v, max_, who)));
    apply_due(now_cycles());
    value_ = v;
    base_ = v;
    acquired_ = released_ = 0;
    for (const auto& p : pending_) released_ += p.value; // releases still to come count on top of v
    setter_ = who;
    last_releaser_ = &setter_;
    last_path_ = clk.path();
    traced(now_cycles());
    traced_instant(TraceKind::LockSet, "set", now_cycles(), who, v);
    event_.notify();
    for (auto* w : watchers_) w->notify();
}

void SemaphoreLock::wake(std::uint64_t delay) {
    if (delay == 0) {
        if (waiters_) event_.notify();
        for (auto* w : watchers_) w->notify();
    } else {
        const auto t = cycles_to_time(delay);
        if (waiters_) event_.notify(t);
        for (auto* w : watchers_) w->notify(t);
    }
}

void SemaphoreLock::watch(sc_core::sc_event& e) {
    watchers_.push_back(&e);
    // A release already scheduled wakes the watcher at its time (as wait_until's timeout does).
    if (!pending_.empty()) e.notify(cycles_to_time(pending_.front().at - std::min(pending_.front().at, now_cycles())));
}

void SemaphoreLock::unwatch(sc_core::sc_event& e) {
    watchers_.erase(std::remove(watchers_.begin(), watchers_.end(), &e), watchers_.end());
}

} // namespace npusim::sim

#pragma once
// An AIE2 semaphore lock: value 0..max, acquire-greater-equal (wait until >= v, subtract v),
// acquire-equal (wait until == v, no change), release (add v). Over- or underflow is a protocol
// violation (the hardware sets a sticky error bit and the design is broken).
//
// Releases are timed: a process that runs ahead of simulated time (temporal decoupling) releases
// at its own local time without waiting for the kernel to catch up; the release becomes visible
// at that time. An acquirer applies every release due at its local time. This keeps one SystemC
// wait per blocking point instead of one per lock operation.
#include "ProcessClock.hpp"
#include "ProcessState.hpp"
#include "RunServices.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::sim {

/// An acquire in progress (SemaphoreLock::acquire_step), for a process that waits by returning.
struct LockAcquire {
    int value = 0;
    bool equal = false; ///< acquire-equal (== value, no change) rather than acquire-greater-equal
    std::uint64_t* stall = nullptr; ///< the cycles waited are added here
    bool waiting = false;
    std::uint64_t start = 0; ///< the local time the wait began
};

class SemaphoreLock {
public:
    SemaphoreLock(const RunServices& services, int index, std::string name, std::string where, int init, int max_value,
                  int track);

    /// `before_wait(ctx)`, when given, runs once if the process has to wait, before it waits (a
    /// core checks its memory there: others may write while it waits).
    void acquire_ge(int v, ProcessClock& clk, ProcessState& ps, std::uint64_t* stall = nullptr,
                    void (*before_wait)(void*) = nullptr, void* ctx = nullptr);
    void acquire_eq(int v, ProcessClock& clk, ProcessState& ps, std::uint64_t* stall = nullptr);
    /// acquire_ge / acquire_eq in steps: go on with `a` until it must wait and say what for; the
    /// process waits for that and steps again. Done: the lock is taken. acquire_ge and acquire_eq
    /// are this, waiting in place.
    Wake acquire_step(LockAcquire& a, ProcessClock& clk, ProcessState& ps);
    /// Add v at the releaser's local time.
    void release(int v, ProcessClock& clk, const std::string& who);
    /// release() without its sync at the end of a quantum (ProcessClock::maybe_sync), for a
    /// process that waits by returning (it does the same with trigger_maybe_sync).
    void release_unsynced(int v, ProcessClock& clk, const std::string& who);
    void release_unsynced(int, ProcessClock&, std::string&&) = delete;
    /// Add v at cycle `at` (>= now), for releases done on a process's behalf in a callback. `who`
    /// (here and in release) must outlive the lock: it is kept by reference for last_releaser()
    /// (the releasing process's name; a release is on the hot path, a copy is not).
    /// `path`: the releaser's chain at `at` (CriticalPath), which an acquirer that waited for this
    /// release takes over; null: a chain nothing explains.
    void release_at(int v, std::uint64_t at, const std::string& who, const CriticalPath* path = nullptr);
    void release(int, ProcessClock&, std::string&&) = delete; // `who` must outlive the lock
    void release_at(int, std::uint64_t, std::string&&) = delete; // (see release_at)
    /// Take v at cycle `at` if the lock holds at least v then (no waiting); false otherwise.
    /// `who` names the taker in the trace. With `taken_at` and a run-ahead lock (set_run_ahead), a
    /// release already made for a later cycle counts too: the lock is taken at that release's
    /// cycle, written to *taken_at (else *taken_at = at).
    bool try_acquire_ge_at(int v, std::uint64_t at, std::string_view who = {}, std::uint64_t* taken_at = nullptr);
    /// One process acquires this lock and one releases it (model::one_acquirer_one_releaser). Then
    /// an acquirer that finds the lock short takes a release already made for a later cycle at
    /// once, moving its local time there, instead of waiting in SystemC until that cycle: nothing
    /// can happen to the lock before then (a release made later by its one releaser is at or
    /// after that releaser's own time). The cycles are the same either way; a release that breaks
    /// the rule (earlier than a cycle an acquirer already ran ahead to) is an internal error.
    void set_run_ahead(bool on) { run_ahead_ = on; }
    bool run_ahead() const { return run_ahead_; }
    /// Acquires that took a release made ahead of time without a SystemC wait.
    std::uint64_t ran_ahead() const { return ran_ahead_; }
    /// Overwrite the value (runtime sequence set_lock), at the caller's local time.
    void set(int v, ProcessClock& clk, const std::string& who);

    /// At the end of the run: the lock's counter at each release still pending (no acquirer
    /// reached its time), so the trace shows every release's value whether the releaser ran ahead
    /// (a pending release) or had caught up with simulated time (applied at once).
    void trace_pending() const;
    /// Value including every release scheduled so far (for reports).
    int final_value() const;
    const std::string& name() const { return name_; }
    const std::string& where() const { return where_; }
    const std::string& last_releaser() const { return *last_releaser_; }
    /// The chain of the last release (or set) applied: what an acquire that found the lock ready
    /// only after it joins (try_acquire_ge_at's caller does so itself).
    const CriticalPath& last_path() const { return last_path_; }
    void wake_all() { event_.notify(); }
    /// Notify `e` whenever this lock's own waiters would be woken (a release or set, at the time it
    /// takes effect; at once for a release already pending, at its time), until unwatch(e). For a
    /// process that sleeps on its own event and must look at the lock again once it may have
    /// changed (TileDmaChannel: an S2MM whose next BD's lock is held sleeps until its release
    /// instead of waking to wait on the lock).
    void watch(sc_core::sc_event& e);
    void unwatch(sc_core::sc_event& e);
    /// The lock's ledger, for the end-of-run invariant (InvariantChecker): its value must equal
    /// `base + released - acquired` (base: the initial value, or the last set()).
    struct Ledger {
        int init = 0;
        std::int64_t base = 0;
        std::int64_t acquired = 0;
        std::int64_t released = 0;
        int max = 0;
    };
    Ledger ledger() const { return {init_, base_, acquired_, released_, max_}; }

private:
    struct Pending {
        std::uint64_t at;
        int value;
        bool set;
        CriticalPath path;
    };
    /// Apply every release due at `t` (inline: most calls find none due).
    void apply_due(std::uint64_t t) {
        if (!pending_.empty() && pending_.front().at <= t) apply_pending(t);
    }
    void apply_pending(std::uint64_t t);
    /// Run-ahead locks: the cycle of the first pending release after which `ready(value)` holds,
    /// with every pending release up to it applied; false (nothing changed) if there is none.
    template <class Ready>
    bool ready_ahead(Ready ready, std::uint64_t& at);
    /// acquire_step for one kind of acquire (compiled apart, so a thread's acquire_ge / acquire_eq
    /// has it inline and tests the kind at compile time).
    template <bool Equal>
    Wake acquire_step_as(LockAcquire& a, ProcessClock& clk, ProcessState& ps);
    /// The lock's counter at `cycle` on its track (nothing without a trace: checked inline, as
    /// these run on every lock operation).
    void traced(std::uint64_t cycle) {
        if (track_ >= 0 && svc_.tracks.sink()) trace_counter(cycle);
    }
    /// An acquire / release / set instant on the lock's track (who did it, by how much).
    void traced_instant(TraceKind kind, std::string_view name, std::uint64_t cycle, std::string_view who, int amount) {
        if (track_ >= 0 && svc_.tracks.sink()) trace_instant(kind, name, cycle, who, amount);
    }
    void trace_counter(std::uint64_t cycle);
    void trace_instant(TraceKind kind, std::string_view name, std::uint64_t cycle, std::string_view who, int amount);
    RunServices svc_;
    int index_;
    std::string name_;
    std::string where_;
    int value_;
    int max_;
    int init_;
    std::int64_t base_, acquired_ = 0, released_ = 0; ///< ledger (see Ledger)
    int track_;
    bool run_ahead_ = false;
    std::uint64_t ran_ahead_ = 0;
    std::uint64_t ran_ahead_to_ = 0; ///< the latest cycle an acquirer took a pending release at
    std::string setter_; ///< who set the lock last (set() takes any string)
    const std::string* last_releaser_ = &setter_; ///< a releaser's name (see release_at) or setter_
    CriticalPath last_path_; ///< see last_path()
    /// Future releases, sorted by time: a vector consumed from a head index and emptied (keeping
    /// its capacity) when drained, so a release made ahead of time allocates nothing in steady
    /// state (a deque allocated a node whenever one release was pending at a time).
    class PendingList {
    public:
        bool empty() const { return head_ == v_.size(); }
        const Pending& front() const { return v_[head_]; }
        void pop_front() {
            if (++head_ == v_.size()) v_.clear(), head_ = 0;
        }
        /// Insert after every release at or before p.at (releases at one time keep their order).
        void insert(const Pending& p) {
            auto it = std::upper_bound(v_.begin() + static_cast<std::ptrdiff_t>(head_), v_.end(), p.at,
                                       [](std::uint64_t t, const Pending& q) { return t < q.at; });
            v_.insert(it, p);
        }
        auto begin() const { return v_.begin() + static_cast<std::ptrdiff_t>(head_); }
        auto end() const { return v_.end(); }

    private:
        std::vector<Pending> v_;
        std::size_t head_ = 0;
    };
    PendingList pending_;
    int waiters_ = 0; ///< processes waiting in acquire_step (notify only when > 0)
    std::vector<sc_core::sc_event*> watchers_; ///< see watch()
    /// Wake the waiters and watchers at `delay` cycles from now (0: at once).
    void wake(std::uint64_t delay);
    sc_core::sc_event event_;
};

/// The locks of a run, by netlist lock index.
class LockTable {
public:
    void add(std::unique_ptr<SemaphoreLock> l) { locks_.push_back(std::move(l)); }
    SemaphoreLock& at(int i) { return *locks_.at(static_cast<std::size_t>(i)); }
    const SemaphoreLock& at(int i) const { return *locks_.at(static_cast<std::size_t>(i)); }
    std::size_t size() const { return locks_.size(); }
    void wake_all() {
        for (auto& l : locks_) l->wake_all();
    }

private:
    std::vector<std::unique_ptr<SemaphoreLock>> locks_;
};

} // namespace npusim::sim

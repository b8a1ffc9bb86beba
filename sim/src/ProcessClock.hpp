#pragma once
// Per-process simulated time with temporal decoupling: a process accumulates the cycles of what
// it did (kernel calls, lock latencies) as pending cycles and only waits in SystemC when it must
// interact with others (before blocking, before publishing a release). Every wait goes through
// here so that a core process can re-install its CoreServices when it resumes, and so that a run
// being torn down (RunControl::terminating) unwinds every process.
#include "RunControl.hpp"
#include "npusim/model/CoreServices.hpp"
#include "npusim/model/NativeActivity.hpp"
#include "npusim/sim/CriticalPath.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>
#ifndef SC_INCLUDE_DYNAMIC_PROCESSES
#define SC_INCLUDE_DYNAMIC_PROCESSES
#endif
#include <systemc>

namespace npusim::sim {

/// A cycle is one time unit: ScContextGuard sets each run's context to a resolution of 1 ns, so
/// a cycle (1 ns at the 1 GHz the engine counts in) is an sc_time's raw value, with no scaling on
/// the ~20 reads of the time per object of a DMA-bound run. sc_time::from_value is a call into the
/// library (about 33 instructions, three times per object) that only stores the value and marks
/// the resolution fixed, which ScContextGuard has done; an sc_time is that one 64-bit value
/// (checked below), so it is built here.
inline sc_core::sc_time cycles_to_time(std::uint64_t cycles) {
    static_assert(sizeof(sc_core::sc_time) == sizeof(sc_core::sc_time::value_type) &&
                  std::is_standard_layout_v<sc_core::sc_time>);
    const sc_core::sc_time::value_type v = cycles;
    sc_core::sc_time t;
    std::memcpy(static_cast<void*>(&t), &v, sizeof v);
    return t;
}
inline std::uint64_t now_cycles() { return sc_core::sc_curr_simcontext->time_stamp().value(); }

/// What a step of a resumable operation waits for before it goes on (StreamLink::step,
/// PacketSwitch::step, SemaphoreLock::acquire_step). A thread waits for it in place
/// (ProcessClock::wait_for); a method names it as its next trigger and returns
/// (ProcessClock::trigger_for). Each kind is one of ProcessClock's waits, with its local-time rule.
struct Wake {
    enum class Kind {
        Done, ///< nothing: the operation is complete
        Pending, ///< sync(): until the process's pending cycles have passed
        At, ///< sync_to(at)
        Event, ///< wait(*event)
        EventKeepLocal, ///< wait_keep_local(*event)
        EventKeepLocalUntil, ///< wait_keep_local(at, *event)
    };
    Kind kind = Kind::Done;
    const sc_core::sc_event* event = nullptr;
    std::uint64_t at = 0;

    bool done() const { return kind == Kind::Done; }
    static Wake pending() { return {Kind::Pending, nullptr, 0}; }
    static Wake until(std::uint64_t cycle) { return {Kind::At, nullptr, cycle}; }
    static Wake on(const sc_core::sc_event& e) { return {Kind::Event, &e, 0}; }
    static Wake keep_local(const sc_core::sc_event& e) { return {Kind::EventKeepLocal, &e, 0}; }
    static Wake keep_local(std::uint64_t cycle, const sc_core::sc_event& e) {
        return {Kind::EventKeepLocalUntil, &e, cycle};
    }
};

class ProcessClock {
public:
    explicit ProcessClock(const RunControl& run, model::CoreServices* owner = nullptr) : run_(&run), owner_(owner) {}

    /// A process may run ahead of simulated time by at most this many cycles before it syncs.
    static constexpr std::uint64_t kQuantumCycles = 100000;

    /// Cycles done but not yet waited for in SystemC.
    std::uint64_t pending() const { return pending_; }
    /// The process's own time: simulated time plus its pending cycles.
    std::uint64_t local_cycles() const { return now_cycles() + pending_; }
    /// Charge `c` cycles of work at local time (no SystemC wait).
    void advance(std::uint64_t c) { pending_ += c; }
    /// The same, priced by `cost` on the process's chain (CriticalPath).
    void advance(std::uint64_t c, PathCost cost) {
        settle();
        pending_ += c;
        path_.add(cost, c);
    }

    /// The chain of work and waits that ends at the process's local time (CriticalPath): what
    /// the process hands to the one it releases, posts to or sends to.
    const CriticalPath& path() {
        settle();
        return path_;
    }
    /// The process goes on after a hand-off whose chain is `p`: when `p` ends later than the
    /// process's own chain (its time up to its last priced action; what came after is a wait), the
    /// process was waiting for it and `p` becomes its chain. Call it before the next priced action.
    void join(const CriticalPath& p) { path_.join(p); }
    /// Add `c` cycles priced by `cost` to the chain ahead of the local time: cycles the process
    /// is about to wait for in SystemC (a chunk in flight), after which its time is the chain's end.
    void extend_path(PathCost cost, std::uint64_t c) {
        settle();
        path_.add(cost, c);
    }
    /// Replace the chain (a process whose hand-offs were made for it in a callback, which kept its
    /// chain apart: TileDmaChannel's S2MM chain in on_filled).
    void set_path(const CriticalPath& p) { path_ = p; }
    /// Set local time to `at`, or to simulated time if `at` has already passed (no SystemC wait).
    void set_local_cycles(std::uint64_t at) {
        const auto now = now_cycles();
        pending_ = at > now ? at - now : 0;
    }
    /// Wait in SystemC until absolute cycle `at` (>= now); pending becomes 0.
    void sync_to(std::uint64_t at) {
        pending_ = at - now_cycles();
        sync();
    }

    void maybe_sync() {
        if (pending_ > kQuantumCycles) sync();
    }
    void sync() {
        if (pending_) {
            const auto p = pending_;
            pending_ = 0;
            suspend();
            sc_core::wait(cycles_to_time(p));
            resume();
        }
    }
    void wait(const sc_core::sc_event& e) {
        suspend();
        sc_core::wait(e);
        resume();
    }
    void wait(std::uint64_t timeout_cycles, const sc_core::sc_event& e) {
        suspend();
        sc_core::wait(cycles_to_time(timeout_cycles), e);
        resume();
    }
    /// Block on `e` without first catching up with simulated time: the process keeps its local
    /// time if it is still ahead when it wakes (saves a SystemC wait per blocking point).
    void wait_keep_local(const sc_core::sc_event& e) {
        const auto local = local_cycles();
        pending_ = 0;
        wait(e);
        set_local_cycles(local);
    }
    /// As wait_keep_local, waking at the latest `until` (absolute cycle, > now).
    void wait_keep_local(std::uint64_t until, const sc_core::sc_event& e) {
        const auto local = local_cycles();
        pending_ = 0;
        wait(until - now_cycles(), e);
        set_local_cycles(local);
    }
    void wait_cycles(std::uint64_t c) {
        if (c) {
            suspend();
            sc_core::wait(cycles_to_time(c));
        }
        resume();
    }

    /// A thread waits for `w` (which is not Done).
    void wait_for(const Wake& w) {
        switch (w.kind) {
        case Wake::Kind::Done: break;
        case Wake::Kind::Pending: sync(); break;
        case Wake::Kind::At: sync_to(w.at); break;
        case Wake::Kind::Event: wait(*w.event); break;
        case Wake::Kind::EventKeepLocal: wait_keep_local(*w.event); break;
        case Wake::Kind::EventKeepLocalUntil: wait_keep_local(w.at, *w.event); break;
        }
    }

    // A process that is an SC_METHOD (a state machine the scheduler calls, with no stack of its
    // own: SimProcess::is_method) waits by naming its next activation and returning; it calls
    // activated() when it runs again. Each is the wait of the same name above, with the same
    // local-time rules.

    /// Name `w` as the method's next activation: true, or false if there is nothing to wait for
    /// (Done, Pending with no pending cycles, At now), and the method goes on at once.
    bool trigger_for(const Wake& w) {
        switch (w.kind) {
        case Wake::Kind::Done: return false;
        case Wake::Kind::Pending: return trigger_sync();
        case Wake::Kind::At: pending_ = w.at - now_cycles(); return trigger_sync();
        case Wake::Kind::Event: sc_core::next_trigger(*w.event); return true;
        case Wake::Kind::EventKeepLocal:
            keep_local_ = local_cycles();
            pending_ = 0;
            sc_core::next_trigger(*w.event);
            return true;
        case Wake::Kind::EventKeepLocalUntil:
            keep_local_ = local_cycles();
            pending_ = 0;
            sc_core::next_trigger(cycles_to_time(w.at - now_cycles()), *w.event);
            return true;
        }
        return false;
    }
    /// As sync(): false (nothing to wait for) if there are no pending cycles.
    bool trigger_sync() {
        if (!pending_) return false;
        const auto p = pending_;
        pending_ = 0;
        sc_core::next_trigger(cycles_to_time(p));
        return true;
    }
    /// As maybe_sync().
    bool trigger_maybe_sync() { return pending_ > kQuantumCycles && trigger_sync(); }
    /// As wait_cycles(c), c > 0.
    void trigger_cycles(std::uint64_t c) { sc_core::next_trigger(cycles_to_time(c)); }
    /// The method runs again after one of the triggers above: false if the run is being torn down
    /// (the method then names no trigger and never runs again).
    bool activated() {
        ++activations_;
        if (run_->terminating()) return false;
        model::NativeActivity::leave(); // simulator code runs
        if (keep_local_ != kNoLocal) {
            set_local_cycles(keep_local_);
            keep_local_ = kNoLocal;
        }
        return true;
    }

    /// SystemC waits so far: when it changed, other processes may have run (and written memory).
    std::uint64_t waits() const { return waits_; }
    /// Activations of a method process after a trigger (its waits; none for a thread).
    std::uint64_t activations() const { return activations_; }

private:
    static constexpr std::uint64_t kNoLocal = UINT64_MAX;
    std::uint64_t keep_local_ = kNoLocal; ///< trigger_keep_local: the local time to go on from
    std::uint64_t activations_ = 0;
    void suspend() {
        if (owner_) owner_->suspending();
    }
    void resume() {
        ++waits_;
        if (run_->terminating()) throw ProcessAbort{};
        if (owner_) {
            model::CoreServices::set_current(owner_);
            owner_->resumed();
        } else {
            model::NativeActivity::leave(); // simulator code (a DMA channel, the controller) runs
        }
    }
    /// Cycles up to the local time that the chain does not yet explain: a wait no hand-off priced.
    void settle() { path_.settle(local_cycles()); }
    std::uint64_t pending_ = 0;
    std::uint64_t waits_ = 0;
    CriticalPath path_;
    const RunControl* run_;
    model::CoreServices* owner_;
};

} // namespace npusim::sim

#pragma once
// Per-process simulated time with temporal decoupling: a process accumulates the cycles of what
// it did (kernel calls, lock latencies) in `pending` and only waits in SystemC when it must
// interact with others (before blocking, before publishing a release). Every wait goes through
// here so that a core process can re-install its CoreServices when it resumes.
#include "npusim/model/CoreServices.hpp"
#include "npusim/model/Netlist.hpp"

#include <cstdint>
#include <string>
#ifndef SC_INCLUDE_DYNAMIC_PROCESSES
#define SC_INCLUDE_DYNAMIC_PROCESSES
#endif
#include <systemc>

namespace npusim::sim {

inline sc_core::sc_time cycles_to_time(std::uint64_t cycles) { return sc_core::sc_time::from_value(cycles * 1000); }
inline std::uint64_t now_cycles() { return sc_core::sc_time_stamp().value() / 1000; }

/// What a process is doing, for deadlock reports. Cheap to update on the hot path: the design
/// terms are pointers into the netlist, formatted only when a report is written.
struct ProcessState {
    enum class Status { Running, WaitLock, WaitStream, WaitTask, Idle, Done };
    std::string name;             ///< "worker 'w0' on (0,2)", "DMA (0,2) S2MM 0"
    Status status = Status::Running;
    int lock = -1;                ///< WaitLock: netlist lock index
    int want = 0;
    bool equal = false;
    const model::Provenance* prov = nullptr;   ///< DMA: provenance of the current BD
    const std::string* ring = nullptr;         ///< core: "fifo 'in' consumer 0" of the current acquire
    int count = 0;                             ///< core: acquire(count)
    int element = -1;                          ///< core: first element not yet held
    std::string detail;                        ///< anything else (runtime awaits, barriers)
    std::string describe() const {
        if (ring) return "acquire(" + std::to_string(count) + ") on " + *ring + ", element " + std::to_string(element);
        if (prov) return prov->describe();
        return detail;
    }
};

class ProcessClock {
public:
    explicit ProcessClock(model::CoreServices* owner = nullptr) : owner_(owner) {}
    std::uint64_t pending = 0;

    std::uint64_t local_cycles() const { return now_cycles() + pending; }
    /// A process may run ahead of simulated time by at most this many cycles before it syncs.
    static constexpr std::uint64_t kQuantumCycles = 100000;
    void maybe_sync() {
        if (pending > kQuantumCycles) sync();
    }
    void sync() {
        if (pending) {
            const auto p = pending;
            pending = 0;
            sc_core::wait(cycles_to_time(p));
            resume();
        }
    }
    void wait(const sc_core::sc_event& e) {
        sc_core::wait(e);
        resume();
    }
    void wait(std::uint64_t timeout_cycles, const sc_core::sc_event& e) {
        sc_core::wait(cycles_to_time(timeout_cycles), e);
        resume();
    }
    /// Block on `e` without first catching up with simulated time: the process keeps its local
    /// time if it is still ahead when it wakes (saves a SystemC wait per blocking point).
    void wait_keep_local(const sc_core::sc_event& e) {
        const auto local = local_cycles();
        pending = 0;
        wait(e);
        const auto now = now_cycles();
        pending = local > now ? local - now : 0;
    }
    /// As wait_keep_local, waking at the latest `until` (absolute cycle, > now).
    void wait_keep_local(std::uint64_t until, const sc_core::sc_event& e) {
        const auto local = local_cycles();
        pending = 0;
        wait(until - now_cycles(), e);
        const auto now = now_cycles();
        pending = local > now ? local - now : 0;
    }
    void wait_cycles(std::uint64_t c) {
        if (c) sc_core::wait(cycles_to_time(c));
        resume();
    }

private:
    void resume() {
        if (terminating) throw Terminate{};
        if (owner_) model::CoreServices::set_current(owner_);
    }

public:
    /// Thrown into every process when a run is torn down, so that process stacks unwind (and the
    /// objects on them are destroyed) before the SystemC context is deleted.
    struct Terminate {};
    static inline bool terminating = false;
    model::CoreServices* owner_;
};

} // namespace npusim::sim

#pragma once
// Per-process simulated time with temporal decoupling: a process accumulates the cycles of what
// it did (kernel calls, lock latencies) in `pending` and only waits in SystemC when it must
// interact with others (before blocking, before publishing a release). Every wait goes through
// here so that a core process can re-install its CoreServices when it resumes.
#include "npusim/model/CoreServices.hpp"

#include <cstdint>
#include <string>
#ifndef SC_INCLUDE_DYNAMIC_PROCESSES
#define SC_INCLUDE_DYNAMIC_PROCESSES
#endif
#include <systemc>

namespace npusim::sim {

inline sc_core::sc_time cycles_to_time(std::uint64_t cycles) { return sc_core::sc_time::from_value(cycles * 1000); }
inline std::uint64_t now_cycles() { return sc_core::sc_time_stamp().value() / 1000; }

/// What a process is doing, for deadlock reports.
struct ProcessState {
    enum class Status { Running, WaitLock, WaitStream, WaitTask, Idle, Done };
    std::string name;             ///< "worker 'w0' on (0,2)", "DMA (0,2) S2MM 0"
    Status status = Status::Running;
    int lock = -1;                ///< WaitLock: netlist lock index
    int want = 0;
    bool equal = false;
    std::string detail;           ///< design terms: "fifo 'in' consumer 0, element 1"
};

class ProcessClock {
public:
    explicit ProcessClock(model::CoreServices* owner = nullptr) : owner_(owner) {}
    std::uint64_t pending = 0;

    std::uint64_t local_cycles() const { return now_cycles() + pending; }
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
    void wait_cycles(std::uint64_t c) {
        if (c) sc_core::wait(cycles_to_time(c));
        resume();
    }

private:
    void resume() {
        if (owner_) model::CoreServices::set_current(owner_);
    }
    model::CoreServices* owner_;
};

} // namespace npusim::sim

#pragma once
// What a process is doing, for deadlock reports. Cheap to update on the hot path: the design
// terms are pointers into the netlist, formatted only when a report is written.
#include "npusim/model/Netlist.hpp"

#include <string>

namespace npusim::sim {

struct ProcessState {
    enum class Status { Running, WaitLock, WaitStream, WaitTask, WaitCascade, Idle, Done };
    std::string name; ///< "worker 'w0' on (0,2)", "DMA (0,2) S2MM 0"
    Status status = Status::Running;
    int lock = -1; ///< WaitLock: netlist lock index
    int want = 0;
    bool equal = false;
    const model::Provenance* prov = nullptr; ///< DMA: provenance of the current BD
    const std::string* ring = nullptr; ///< core: "fifo 'in' consumer 0" of the current acquire
    std::uint64_t since = 0; ///< Wait*: the cycle the wait began (a failure's trace closes it there)
    int count = 0; ///< core: acquire(count)
    int pool = 0; ///< core: buffers of the ring acquired from
    int element = -1; ///< core: first element not yet held
    std::string detail; ///< anything else (runtime awaits, barriers, cascade waits)
    // The last thing the process did, for progress reports (pointers into the netlist or the
    // process; formatted only when a report is written).
    const char* last_verb = nullptr; ///< "acquired", "released", "moved", "ran kernel", ...
    const std::string* last_object = nullptr; ///< what it acted on
    int last_count = -1; ///< how many (-1: not shown)
    std::uint64_t last_cycle = 0;
    /// Blocked from `from` until lock `lock_index` reaches `amount` (== amount if `exact`).
    void waiting_on_lock(int lock_index, int amount, bool exact, std::uint64_t from) {
        status = Status::WaitLock;
        since = from;
        lock = lock_index;
        want = amount;
        equal = exact;
    }
    void acted(const char* verb, const std::string* object, int count, std::uint64_t cycle) {
        last_verb = verb;
        last_object = object;
        last_count = count;
        last_cycle = cycle;
    }
    std::string last_action() const {
        if (!last_verb) return {};
        std::string s = last_verb;
        if (last_count >= 0) s += " " + std::to_string(last_count);
        if (last_object) s += (last_count >= 0 ? " of " : " ") + *last_object;
        return s;
    }
    std::string describe() const {
        if (ring) {
            std::string s =
                "acquire(" + std::to_string(count) + ") on " + *ring + ", element " + std::to_string(element);
            if (count > pool)
                s += "; more than the " + std::to_string(pool) + " buffer(s) of its pool, so it can never complete";
            return s;
        }
        if (prov) return prov->describe();
        return detail;
    }
};

} // namespace npusim::sim

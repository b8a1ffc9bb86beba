#pragma once
// Completion of the runtime sequence's shim tasks: shim channels mark tasks done, the runtime
// controller waits for them.
#include <algorithm>
#include <cstddef>
#include <vector>
#ifndef SC_INCLUDE_DYNAMIC_PROCESSES
#define SC_INCLUDE_DYNAMIC_PROCESSES
#endif
#include <systemc>

namespace npusim::sim {

class TaskBoard {
public:
    explicit TaskBoard(std::size_t tasks) : done_(tasks, false) {}
    void mark_done(int task) {
        done_.at(static_cast<std::size_t>(task)) = true;
        event_.notify();
    }
    bool done(int task) const { return done_.at(static_cast<std::size_t>(task)); }
    /// Notified whenever a task completes.
    const sc_core::sc_event& event() const { return event_; }
    void wake_all() { event_.notify(); }
    /// A new invocation of the runtime sequence starts: its tasks are not done yet.
    void reset() { std::fill(done_.begin(), done_.end(), false); }
    /// Tasks not completed (yet).
    std::size_t pending() const {
        std::size_t n = 0;
        for (bool d : done_) n += d ? 0 : 1;
        return n;
    }

    /// The tasks not completed, by index.
    std::vector<int> pending_tasks() const {
        std::vector<int> v;
        for (std::size_t i = 0; i < done_.size(); ++i)
            if (!done_[i]) v.push_back(static_cast<int>(i));
        return v;
    }

private:
    std::vector<bool> done_;
    sc_core::sc_event event_;
};

} // namespace npusim::sim

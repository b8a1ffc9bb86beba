#pragma once
// WorkerRuntimeBarrier (IRON aie.iron.WorkerRuntimeBarrier, python/iron/worker.py @ 3ca0193c
// L270-345): a lock on the tile of every worker that takes the barrier in its fn_args (created at
// resolve with the barrier's initial value, worker.py L249-253). Inside a worker body
// wait_for_value(v) acquires the worker's lock for value v (an acquire-equal, use_lock Acquire) and
// release_with_value(v) releases it by v; in the runtime sequence set(v) sets every worker's lock
// to v (set_lock_value per lock, in the order the workers were resolved).
#include <cstdint>
#include <memory>
#include <string>

namespace npusim::iron {

namespace detail {
struct BarrierState {
    int uid = 0;
    int initial_value = 0;
    std::string name; ///< "barrier_<k>" (numbered per design at resolve) unless named
    bool default_name = false;
};
void record_barrier_set(BarrierState* b, int value);
} // namespace detail

class WorkerRuntimeBarrier {
public:
    /// IRON WorkerRuntimeBarrier(initial_value=0). `name` only labels reports.
    explicit WorkerRuntimeBarrier(int initial_value = 0, std::string name = {});

    /// In a worker body: wait until the barrier's lock (this worker's) equals `value`, and take it.
    void wait_for_value(int value) const;
    /// In a worker body: release the lock by `value`.
    void release_with_value(int value) const;
    /// In the runtime sequence: set every worker's lock of this barrier to `value`.
    void set(int value) const;

    const std::string& name() const { return state_->name; }
    const std::shared_ptr<detail::BarrierState>& state() const { return state_; }

private:
    std::shared_ptr<detail::BarrierState> state_;
};

} // namespace npusim::iron

#pragma once
// The host's runtime sequence, executed in order: start tasks (push onto a shim channel's task
// queue), await tasks (block until the completion token), free tasks, write buffers (RTP) and
// set locks (barriers). When it has run to the end, the simulation stops.
#include "SemaphoreLock.hpp"
#include "SimProcess.hpp"
#include "TaskBoard.hpp"
#include "TileMemory.hpp"

#include <functional>

namespace npusim::sim {

class ShimDmaChannel;

/// What the runtime controller uses of its run.
struct ControllerServices {
    RunServices run;
    const model::Netlist& net;
    TileMemory& memory;
    LockTable& locks;
    TaskBoard& board;
    /// The shim channel at an endpoint, nullptr if the run has none there.
    std::function<ShimDmaChannel*(const model::StreamEndpoint&)> shim_channel;
    bool queue_wait = false; ///< SimOptions::queue_wait
    std::uint32_t invocations = 1; ///< SimOptions::invocations
    std::vector<std::uint32_t> scratchpad; ///< SimOptions::scratchpad
    /// Called when invocation `index` has run to its end (begin and end cycle).
    std::function<void(std::uint32_t index, std::uint64_t begin, std::uint64_t end)> invocation_done;
    std::uint64_t drain_cycles = 1'000'000; ///< SimOptions::drain_cycles
};

class RuntimeController final : public SimProcess {
public:
    explicit RuntimeController(const ControllerServices& services);
    int waiting_task() const { return waiting_; }
    /// Pushes that waited for a free queue slot (--queue-wait).
    std::uint64_t queue_waits() const { return queue_waits_; }
    std::uint64_t ops_done() const { return ops_done_; }
    /// The controller's chain (CriticalPath) at its local time: after its last await, the run's
    /// critical path.
    const CriticalPath& critical_path() { return clk_.path(); }
    ProcessView view() const override;

private:
    /// After the last invocation's sequence: wait (drain_cycles at most) for the shim tasks still
    /// in flight, as the host reads the outputs only after they ran on, and warn about them.
    void drain_in_flight();
    /// That warning; `stuck`: the drain ended because nothing could move them any more.
    std::string drain_report(bool stuck) const;
    void body() override;
    void run_sequence();
    /// "task 3 ('out' drain)", or "none" for -1.
    std::string describe_task(int task) const;
    void start_task(std::size_t index, const model::RuntimeOp& op);
    void await_task(const model::RuntimeOp& op);
    void update_from_scratchpad(const model::RuntimeOp& op);
    /// The bytes a task's offset_parameter adds to its start (0 without one).
    std::uint64_t task_offset_shift(const model::ShimTask& task);
    const model::Netlist& net_;
    TileMemory& memory_;
    LockTable& locks_;
    TaskBoard& board_;
    std::function<ShimDmaChannel*(const model::StreamEndpoint&)> shim_channel_;
    bool queue_wait_;
    std::uint32_t invocations_;
    std::function<void(std::uint32_t, std::uint64_t, std::uint64_t)> invocation_done_;
    int waiting_ = -1;
    bool queue_waiting_ = false;
    model::StreamEndpoint queue_channel_;
    /// A channel that has started a task, and the cycle its cold start ends (its first task's start).
    struct WarmChannel {
        model::StreamEndpoint channel;
        std::uint64_t warm_at = 0;
    };
    std::vector<WarmChannel> warm_channels_;
    std::size_t op_ = 0; ///< the instruction being executed
    std::uint64_t ops_done_ = 0;
    std::uint32_t invocation_ = 0;
    std::vector<std::string> op_labels_; ///< per instruction, for the last action
    std::uint64_t queue_waits_ = 0;
    std::vector<std::uint32_t> scratchpad_; ///< the host's words
    /// The firmware's state table: the scratchpad as create_scratchpad found it (empty: not created).
    std::vector<std::uint32_t> state_table_;
    bool scratchpad_created_ = false;
    std::uint64_t drain_cycles_;
    std::uint64_t sequence_end_ = 0; ///< when the last invocation's sequence ended
    std::vector<int> in_flight_; ///< the tasks not completed then
};

} // namespace npusim::sim

#pragma once
// A shim DMA channel: a 4-deep queue of runtime-sequence tasks behind the one it runs, each a single BD over a host
// tensor (4-D pattern whose outermost dimension is the repeat), moved as stream transactions.
// A task with a completion token reports to the runtime controller when it is done.
//
// The channel is a SystemC method, not a thread (SimProcess::is_method): a state machine that
// runs its task until it must wait (for a task, the task's start, a receiver's post, a chunk's
// arrival, its own BD's fill) and names what it waits for. It runs no user code, so it needs no
// stack; a method's activation costs SystemC about 0.4x a thread's wait (BM_SystemCWaitVsMethod).
#include "HostPrefetch.hpp"
#include "PacketSwitch.hpp"
#include "SemaphoreLock.hpp"
#include "SimProcess.hpp"
#include "StreamLink.hpp"
#include "TaskBoard.hpp"
#include "npusim/model/AddressPattern.hpp"
#include "npusim/model/Netlist.hpp"
#include "npusim/model/ShimChainSteps.hpp"

#include <deque>
#include <optional>
#include <span>
#include <vector>

namespace npusim::sim {

/// What a shim DMA channel uses of its run.
struct ShimDmaServices {
    RunServices run;
    const std::vector<model::ShimTask>& tasks;
    std::vector<std::span<std::uint8_t>>& host; ///< host tensors, by netlist host-tensor index
    TaskBoard& board;
    RunStats& stats;
    int queue_depth; ///< DeviceSpec::task_queue_depth
    LockTable& locks; ///< the shim BDs' own locks (ShimTask::acquire_lock / release_lock)
};

class ShimDmaChannel final : public SimProcess, public StreamReceiver {
public:
    ShimDmaChannel(const ShimDmaServices& services, model::StreamEndpoint ep);
    void set_link(StreamLink* link) { link_ = link; }
    /// MM2S as a PacketFlow's source: each task goes through `sw` as its sender `source`, as one
    /// packet with the task's header (ShimTask::packet_id).
    void set_packet_port(PacketSwitch* sw, int source) {
        packet_ = sw;
        packet_source_ = source;
        link_ = &sw->link();
    }
    /// Push a task (the controller's queue write); false if the queue is full. The queue holds the
    /// tasks waiting behind the one the channel runs: a task leaves it when the channel starts it
    /// (even a start stalled on its BD's lock), so a channel holds `queue_depth` waiting tasks plus
    /// the one in progress. aie-rt counts a channel's pending BDs as Task_Queue_Size plus one
    /// while the channel is running (_XAieMl_DmaGetPendingBdCount), and waits for room by polling
    /// Task_Queue_Size's MSB, i.e. fewer than 4 queued (_XAieMl_DmaWaitForBdTaskQueue).
    /// `shift`: bytes added to the task's start (its offset_parameter, applied when configured).
    /// `path`: the controller's chain at the push, with what delays the task's start after it (a
    /// cold channel's start); the task starts after it (CriticalPath). Null: a chain nothing explains.
    bool push(int task, std::uint64_t ready_cycle, std::uint64_t shift = 0, const CriticalPath* path = nullptr);
    /// Tasks not retired: queued plus the one in progress.
    int pending() const { return static_cast<int>(queue_.size()) + (current_ >= 0 ? 1 : 0); }
    /// Tasks waiting in the queue (Task_Queue_Size).
    int queued() const { return static_cast<int>(queue_.size()); }
    bool has_room() const { return queued() < queue_depth_; }
    /// npu.sync semantics: a sync on this channel consumes its oldest task-complete token not yet
    /// consumed, whatever task the sequence names. True if one is there (and it is consumed).
    /// `path`, when given, receives the chain of the task that issued the token.
    bool take_token(CriticalPath* path = nullptr) {
        if (tokens_consumed_ >= tokens_received_) return false;
        ++tokens_consumed_;
        if (!token_paths_.empty()) {
            if (path) *path = token_paths_.front();
            token_paths_.pop_front();
        }
        return true;
    }

    void accept(const std::uint8_t* data, std::uint64_t n) override;
    std::string label() const override;
    const model::StreamEndpoint& endpoint() const { return ep_; }
    std::uint64_t bytes() const { return bytes_; }
    std::uint64_t tasks_done() const { return tasks_done_; }
    const ChannelTime& time() const { return time_; }
    int current_task() const { return current_; }
    bool has_link() const { return link_ != nullptr; }
    ProcessView view() const override;
    void wake_all() {
        filled.notify();
        pushed_.notify();
    }

private:
    bool is_method() const override { return true; }
    void activate() override;
    /// Trace `cycles` of waiting on the stream from `from` ("back-pressure" or "starved").
    void trace_stream_stall(const model::ShimTask& task, std::uint64_t from, std::uint64_t cycles,
                            std::string_view why);
    const std::vector<model::ShimTask>& tasks_;
    std::vector<std::span<std::uint8_t>>& host_tensors_;
    TaskBoard& board_;
    RunStats& stats_;
    int queue_depth_;
    LockTable& locks_;
    LockAcquire acquire_{}; ///< the task's BD lock acquire in progress
    std::uint64_t lock_stall_ = 0;
    model::StreamEndpoint ep_;
    StreamLink* link_ = nullptr;
    PacketSwitch* packet_ = nullptr;
    int packet_source_ = -1;
    PacketSwitch::Send packet_send_;
    std::vector<std::uint8_t> packet_staging_; ///< a header word and the task's data (circuit flow)
    struct Queued {
        int task;
        std::uint64_t ready;
        std::uint64_t shift;
        CriticalPath path;
    };
    std::deque<Queued> queue_;
    /// Where activate() goes on: waiting for a task, for its start (ready cycle), sending,
    /// receiving, catching up with its end, retiring it.
    enum class Phase { Idle, Queue, Acquire, Start, Sending, Receiving, Sync, Retire };
    Phase phase_ = Phase::Idle;
    Queued q_{};
    std::optional<model::AddressPattern> pat_;
    std::uint64_t begin_ = 0; ///< when the current BD started
    std::uint64_t task_begin_ = 0; ///< when the task's first BD started
    std::uint64_t step_ = 0; ///< the task's BD being run (model::shim_task_step)
    std::uint64_t stalled_before_ = 0;
    StreamSend send_;
    sc_core::sc_event pushed_;
    std::uint8_t* host_ = nullptr;
    std::optional<model::AddressPattern::Cursor> cursor_;
    HostPrefetch out_ahead_; ///< an S2MM's next lines of host memory, when it writes them in order
    std::vector<std::uint8_t> staging_;
    int current_ = -1;
    std::vector<std::string> task_labels_; ///< per netlist task: "task 3 ('in' fill)"
    std::uint64_t bytes_ = 0;
    std::uint64_t tasks_done_ = 0;
    std::uint64_t tokens_received_ = 0; ///< completed tasks that issue a token
    std::uint64_t tokens_consumed_ = 0; ///< taken by the controller's syncs
    std::deque<CriticalPath> token_paths_; ///< the chain of each token not yet taken, oldest first
    ChannelTime time_;
};

} // namespace npusim::sim

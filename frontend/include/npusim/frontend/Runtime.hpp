#pragma once
// Runtime (IRON aie.iron.Runtime): the host-side sequence that moves data between host tensors
// and the array. The sequence function runs once, at resolve time, and records shim DMA tasks,
// awaits and frees, exactly as IRON records a runtime_sequence.
#include "npusim/frontend/Buffer.hpp"
#include "npusim/frontend/Flow.hpp"
#include "npusim/frontend/Lock.hpp"
#include "npusim/frontend/ObjectFifo.hpp"
#include "npusim/frontend/PacketFlow.hpp"
#include "npusim/frontend/RawSequence.hpp"
#include "npusim/frontend/Switchbox.hpp"
#include "npusim/frontend/TensorType.hpp"
#include "npusim/frontend/TileDma.hpp"
#include "npusim/frontend/Worker.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace npusim::iron {

/// A host tensor argument of the runtime sequence (an XRT buffer object).
struct RuntimeData {
    int index = -1;
    TensorType type;
    TensorAccessPattern default_tap() const { return TensorAccessPattern::linear(type.shape); }
};

namespace detail {
struct RecordedTransfer {
    EndpointState* endpoint = nullptr; ///< the fifo's runtime end; nullptr for a shim_symbol task
    std::string symbol; ///< shim_dma_single_bd_task: the Flow's shim_symbol
    bool started = false; ///< shim_symbol tasks: dma_start_task was called
    /// "fifo 'in'" or "shim_symbol 'in_sym'"
    std::string label() const;
    int tensor = -1;
    TensorAccessPattern tap;
    bool fill = true;
    bool wait = false;
    bool managed = true;
    int group = -1; ///< TaskGroup id; -1 unmanaged
    /// TransferOptions::offset_parameter: the parameter whose value (elements) offsets the BD address
    std::shared_ptr<ScratchpadParamState> offset_param;
    std::optional<BdPacket> packet; ///< shim_dma_single_bd_task(packet=(type, id)): an MM2S sends one packet
    /// shim_dma_bd_chain: > 0, the passes over the chain (repeat_count + 1); 0: a single-BD task
    int chain_passes = 0;
    /// shim_dma_bd_chain: the BDs after the first (tensor, tap), in chain order
    std::vector<std::pair<int, TensorAccessPattern>> chain_rest;
};
struct RecordedOp {
    enum class Kind { Start, Await, Free, WriteBuffer, SetBarrier, SyncParameters, Raw } kind;
    /// transfer index (Start/Await/Free), buffer-write index (WriteBuffer), barrier-set index
    /// (SetBarrier) or register-level op index (Raw); unused (-1) for SyncParameters
    int transfer;
};
struct RecordedBufferWrite {
    BufferState* buffer;
    std::uint64_t offset;
    std::vector<std::uint8_t> bytes;
};
struct BarrierState;
struct RecordedBarrierSet {
    BarrierState* barrier;
    int value;
};
struct SequenceRecorder {
    std::vector<TensorType> tensors;
    std::vector<RecordedTransfer> transfers;
    std::vector<RecordedOp> ops;
    std::vector<RecordedBufferWrite> buffer_writes;
    std::vector<RecordedBarrierSet> barrier_sets;
    std::vector<RecordedRawOp> raw_ops; ///< npu_write32, npu_writebd, ... (RawSequence.hpp)
    int next_group = 1;
    bool used_default = false;
    bool used_explicit = false;
    std::vector<int> open_groups; ///< explicit groups not finished yet
    static SequenceRecorder* current();
    static void set_current(SequenceRecorder* r);
    void finish_group(int group);
};
struct RuntimeState {
    std::vector<TensorType> tensors;
    std::vector<EndpointState*> endpoints;
    std::vector<std::shared_ptr<FlowState>> flows; ///< add_flow, in order
    std::vector<std::shared_ptr<PacketFlowState>> packet_flows; ///< add_flow(PacketFlow), in order
    std::vector<std::shared_ptr<LockState>> locks; ///< add_lock, in order
    std::vector<std::shared_ptr<TileDmaState>> tile_dmas; ///< add_tile_dma, in order
    std::vector<std::shared_ptr<SwitchboxState>> switchboxes; ///< add_switchbox (and ShimMux), in order
    std::function<void()> run;
    bool strict_task_groups = true;
};
template <class T>
struct SeqArg {
    using type = T;
};
template <>
struct SeqArg<TensorType> {
    using type = RuntimeData;
};
} // namespace detail

/// A set of transfers finished together: finish() awaits the wait=true ones, then frees all.
class TaskGroup {
public:
    TaskGroup(); ///< must be constructed inside the runtime sequence
    void finish();
    int id() const { return id_; }

private:
    int id_ = 0;
};

/// A transfer (IRON Task). Unmanaged tasks (managed=false) are awaited and freed by the caller.
class Task {
public:
    Task() = default;
    explicit Task(int transfer) : transfer_(transfer) {}
    void await_() const;
    void free() const;
    int transfer() const { return transfer_; }

private:
    int transfer_ = -1;
};

struct RuntimeOptions {
    bool strict_task_groups = true;
};

/// While one lives, every Runtime constructed on this thread passes its tensor arguments' types
/// to `check` as soon as it has them, before the code that builds the design goes on (to generate
/// its inputs, say): a harness can refuse a design whose host tensors cannot fit in memory from
/// their types, before they are allocated (harness::run_design). What `check` throws leaves the
/// Runtime's constructor. Scopes nest; the innermost is called.
class RuntimeArgumentsCheck {
public:
    using Fn = std::function<void(const std::vector<TensorType>& tensors)>;
    explicit RuntimeArgumentsCheck(Fn check);
    ~RuntimeArgumentsCheck();
    RuntimeArgumentsCheck(const RuntimeArgumentsCheck&) = delete;
    RuntimeArgumentsCheck& operator=(const RuntimeArgumentsCheck&) = delete;
    /// Calls the innermost live check of this thread, if any.
    static void run(const std::vector<TensorType>& tensors);

private:
    Fn check_;
    RuntimeArgumentsCheck* outer_ = nullptr;
};

/// Options of shim_dma_single_bd_task (aiex.shim_dma_single_bd_task), in declaration order.
struct ShimTaskOptions {
    std::optional<TensorAccessPattern> tap{}; ///< default: the whole tensor, linear
    bool issue_token = false; ///< needed to dma_await_task it
    /// IRON packet=(pkt_type, pkt_id) (aiex.py shim_dma_bd L276): the shim MM2S sends the task's data as
    /// one packet, a header word first - the source of a PacketFlow from the shim.
    std::optional<BdPacket> packet{};
};

/// In the runtime sequence: a single-BD shim DMA task on the channel a Flow's `shim_symbol`
/// allocated (aie.shim_dma_allocation), moving `mem` (host memory) through it. Not started until
/// dma_start_task; then dma_await_task (needs issue_token) or dma_free_task returns its BD.
Task shim_dma_single_bd_task(const std::string& shim_symbol, const RuntimeData& mem, ShimTaskOptions opts = {});
/// One BD of a chained shim task: the host tensor it moves and how (default: the whole tensor).
struct ShimChainBd {
    RuntimeData mem;
    std::optional<TensorAccessPattern> tap{};
};
/// Options of shim_dma_bd_chain (aiex.dma_configure_task's issue_token, repeat_count).
struct ShimChainOptions {
    bool issue_token = false; ///< needed to dma_await_task it
    int repeat_count = 0; ///< the chain runs repeat_count + 1 times (0..255)
};
/// In the runtime sequence: a shim DMA task of chained BDs on the channel a Flow's `shim_symbol`
/// allocated, as aiex.dma_configure_task with BD blocks joined by next_bd writes it: bds[0], its
/// next_bd bds[1], ..., the last ending the chain (EndOp); one queue push, one slot, a BD id each.
/// Each pass over the chain moves every BD's inner three dims once; a BD's outermost dim is its
/// iteration (advanced once per pass, AIEDMATasksToNPU.cpp L843-866), not a repeat.
Task shim_dma_bd_chain(const std::string& shim_symbol, const std::vector<ShimChainBd>& bds,
                       ShimChainOptions opts = {});
void dma_start_task(const Task& t);
void dma_await_task(const Task& t);
void dma_free_task(const Task& t);

class Runtime {
public:
    template <class Seq, class... Args>
    Runtime(Seq seq, std::tuple<Args...> args, RuntimeOptions opts = {})
        : state_(std::make_shared<detail::RuntimeState>()) {
        state_->strict_task_groups = opts.strict_task_groups;
        std::apply([&](const auto&... a) { (detail::register_arg(*this, a), ...); }, args);
        // Braced initialisation evaluates left to right, so tensors are numbered in argument order.
        auto converted = std::apply(
            [&](const auto&... a) { return std::tuple<typename detail::SeqArg<Args>::type...>{convert(a)...}; }, args);
        state_->run = [seq = std::move(seq), converted = std::move(converted)]() mutable {
            std::apply(seq, converted);
        };
        RuntimeArgumentsCheck::run(state_->tensors);
    }

    const std::shared_ptr<detail::RuntimeState>& state() const { return state_; }
    void add_endpoint(detail::EndpointState* ep);
    void add_buffer(const std::shared_ptr<detail::BufferState>&) {} // written via Buffer::write
    void add_barrier(const std::shared_ptr<detail::BarrierState>&) {} // set via WorkerRuntimeBarrier::set
    void add_param(const std::shared_ptr<detail::ScratchpadParamState>&) {} // declared by use (offset_parameter)

    /// IRON Runtime.add_flow / add_lock / add_tile_dma: the low-level peers of ObjectFifo that the
    /// Program resolves with the fifos (a Lock is resolved even if no worker or BD uses it).
    void add_flow(const Flow& f);
    void add_flow(const PacketFlow& f);
    void add_lock(const Lock& l) { add_lock(l.state()); }
    void add_lock(const std::shared_ptr<detail::LockState>& l);
    void add_tile_dma(const TileDma& d);
    /// A hand-written aie.switchbox or aie.shim_mux (Switchbox.hpp): its connections are the stream
    /// routes, not the router's; upstream hands them to a Worker's fn_args as Resolvables.
    void add_switchbox(const Switchbox& s);
    void reject_fifo(const std::string& fifo) const;

private:
    template <class T>
    typename detail::SeqArg<T>::type convert(const T& a) {
        if constexpr (std::is_same_v<T, TensorType>) {
            RuntimeData d;
            d.index = static_cast<int>(state_->tensors.size());
            d.type = a;
            state_->tensors.push_back(a);
            return d;
        } else {
            return a;
        }
    }
    std::shared_ptr<detail::RuntimeState> state_;
};

} // namespace npusim::iron

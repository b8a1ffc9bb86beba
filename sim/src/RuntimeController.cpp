#include "RuntimeController.hpp"

#include "ShimDmaChannel.hpp"
#include "npusim/model/NetlistRelations.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

namespace npusim::sim {

RuntimeController::RuntimeController(const ControllerServices& services)
    : SimProcess(services.run, "runtime sequence"), net_(services.net), memory_(services.memory),
      locks_(services.locks), board_(services.board), shim_channel_(services.shim_channel),
      queue_wait_(services.queue_wait), invocations_(std::max<std::uint32_t>(1, services.invocations)),
      invocation_done_(services.invocation_done), scratchpad_(services.scratchpad),
      drain_cycles_(services.drain_cycles) {
    open_track(TrackInfo::Kind::Runtime, {0, 0});
    for (const auto& op : net_.sequence) {
        using K = model::RuntimeOp::Kind;
        // Labels only: an index the netlist does not hold is named by its number (the
        // instruction itself reports the error when it runs).
        auto task = [&] {
            const auto i = static_cast<std::size_t>(op.task);
            if (op.task < 0 || i >= net_.tasks.size()) return fmt::format("task #{}", op.task);
            return fmt::format("task {} ({})", net_.tasks[i].id, net_.tasks[i].prov.describe());
        };
        auto name = [](const auto& v, int i) {
            return i >= 0 && static_cast<std::size_t>(i) < v.size() ? v[static_cast<std::size_t>(i)].name
                                                                    : fmt::format("#{}", i);
        };
        switch (op.kind) {
        case K::StartTask: op_labels_.push_back("start " + task()); break;
        case K::AwaitTask: op_labels_.push_back("await " + task()); break;
        case K::FreeTask: op_labels_.push_back("free " + task()); break;
        case K::WriteBuffer: op_labels_.push_back(fmt::format("write buffer {}", name(net_.buffers, op.buffer))); break;
        case K::SetLock:
            op_labels_.push_back(fmt::format("set lock {} to {}", name(net_.locks, op.lock), op.value));
            break;
        case K::CreateScratchpad: op_labels_.push_back("create scratchpad"); break;
        case K::UpdateFromScratchpad:
            op_labels_.push_back(
                fmt::format("update buffer {} from scratchpad[{}]", name(net_.buffers, op.buffer), op.value));
            break;
        }
    }
}

ProcessView RuntimeController::view() const {
    auto v = base_view(ProcessView::Kind::Runtime);
    v.awaited_task = waiting_;
    v.waits_for_queue = queue_waiting_;
    v.queue_channel = queue_channel_;
    v.next_op = static_cast<int>(op_);
    v.progress.steps = ops_done_;
    v.progress.steps_unit = "instructions";
    if (ps_.status != ProcessState::Status::Done && op_ < op_labels_.size())
        v.progress.current =
            fmt::format("instruction {} of {}{}: {}", op_ + 1, op_labels_.size(),
                        invocations_ > 1 ? fmt::format(" (invocation {})", invocation_) : "", op_labels_[op_]);
    return v;
}

// One pass over the sequence per invocation on the same configured array (nothing is reset but
// the per-invocation task completion state).
void RuntimeController::body() {
    for (std::uint32_t inv = 0; inv < invocations_; ++inv) {
        clk_.sync();
        const auto begin = now_cycles();
        if (inv > 0) board_.reset();
        invocation_ = inv;
        run_sequence();
        clk_.sync();
        if (track_ >= 0 && invocations_ > 1)
            svc_.tracks.sink()->span(track_, fmt::format("invocation {}", inv), begin, now_cycles());
        if (invocation_done_) invocation_done_(inv, begin, now_cycles());
    }
    drain_in_flight();
    ps_.status = ProcessState::Status::Done;
    svc_.run.finish();
}

void RuntimeController::run_sequence() {
    const auto& net = net_;
    const auto& t = svc_.timing;
    for (std::size_t i = 0; i < net.sequence.size(); ++i) {
        const auto& op = net.sequence[i];
        op_ = i;
        switch (op.kind) {
        case model::RuntimeOp::Kind::StartTask: start_task(i, op); break;
        case model::RuntimeOp::Kind::AwaitTask:
            clk_.advance(t.runtime_op_cycles, PathCost::RuntimeOp);
            await_task(op);
            break;
        case model::RuntimeOp::Kind::FreeTask: break; // BD ids are returned statically
        case model::RuntimeOp::Kind::WriteBuffer: {
            clk_.advance(t.runtime_op_cycles, PathCost::RuntimeOp);
            clk_.sync();
            const auto& buf = net.buffers.at(static_cast<std::size_t>(op.buffer));
            if (op.offset_bytes + op.data.size() > buf.bytes)
                fail(SimulationError(SimulationError::Kind::Protocol,
                                     fmt::format("runtime sequence: write of {} B at {} overruns buffer '{}' ({} B)",
                                                 op.data.size(), op.offset_bytes, buf.name, buf.bytes)));
            auto* at = memory_.buffer(op.buffer) + op.offset_bytes;
            std::memcpy(at, op.data.data(), op.data.size());
            memory_.note_write(buf.tile, at, at + op.data.size()); // for the memory check
            break;
        }
        case model::RuntimeOp::Kind::SetLock:
            clk_.advance(t.runtime_op_cycles, PathCost::RuntimeOp);
            locks_.at(op.lock).set(op.value, clk_, "runtime sequence");
            break;
        case model::RuntimeOp::Kind::CreateScratchpad:
            clk_.advance(t.runtime_op_cycles, PathCost::RuntimeOp);
            state_table_.assign(net.scratchpad_params.size(), 0);
            std::copy(scratchpad_.begin(), scratchpad_.end(), state_table_.begin());
            scratchpad_created_ = true;
            break;
        case model::RuntimeOp::Kind::UpdateFromScratchpad:
            clk_.advance(t.runtime_op_cycles, PathCost::RuntimeOp);
            clk_.sync();
            update_from_scratchpad(op);
            break;
        }
        ++ops_done_;
        ps_.acted("executed", &op_labels_[i], -1, clk_.local_cycles());
    }
}

// npu.update_from_scratchpad (Incr): the firmware adds the state-table word to the 48-bit value held
// in the buffer's words 0 and 1 (the low 16 bits of word 1 are bits 32..47) and clears the low 2
// bits of word 0, as it does for BD addresses (AIELowerScratchpadParameters.cpp allocateBuffers).
void RuntimeController::update_from_scratchpad(const model::RuntimeOp& op) {
    const auto& buf = net_.buffers.at(static_cast<std::size_t>(op.buffer));
    const auto idx = static_cast<std::size_t>(op.value);
    if (!scratchpad_created_ || idx >= state_table_.size())
        fail(SimulationError(SimulationError::Kind::Protocol,
                             fmt::format("runtime sequence: update of buffer '{}' from scratchpad entry {} before the "
                                         "scratchpad holds it",
                                         buf.name, op.value)));
    if (buf.bytes < 8)
        fail(SimulationError(SimulationError::Kind::Protocol,
                             fmt::format("runtime sequence: update_from_scratchpad writes 8 B, buffer '{}' has {} B",
                                         buf.name, buf.bytes)));
    auto* p = memory_.buffer(op.buffer);
    std::uint32_t lo = 0, hi = 0;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + 4, 4);
    const std::uint64_t v = ((static_cast<std::uint64_t>(hi & 0xFFFFu) << 32) | lo) + state_table_[idx];
    lo = static_cast<std::uint32_t>(v) & 0xFFFFFFFCu;
    hi = (hi & 0xFFFF0000u) | static_cast<std::uint32_t>((v >> 32) & 0xFFFFu);
    std::memcpy(p, &lo, 4);
    std::memcpy(p + 4, &hi, 4);
    memory_.note_write(buf.tile, p, p + 8); // for the memory check
}

// offset_parameter: update_from_scratchpad (Mul by the element size) into the BD's address
// register, after the BD is written and before the push (AIEUtils.cpp
// emitUpdateBdAddressFromOffsetParameter).
std::uint64_t RuntimeController::task_offset_shift(const model::ShimTask& task) {
    if (task.offset_param < 0) return 0;
    const auto idx = static_cast<std::size_t>(task.offset_param);
    const auto& pname = net_.scratchpad_params.at(idx).name;
    if (!scratchpad_created_)
        fail(SimulationError(SimulationError::Kind::Protocol,
                             fmt::format("runtime sequence: task {} ({}) takes its offset from scratchpad parameter "
                                         "'{}' before the scratchpad is created: call sync_parameters() before the "
                                         "transfer",
                                         task.id, task.prov.describe(), pname)));
    const std::uint64_t shift = static_cast<std::uint64_t>(state_table_.at(idx)) * task.offset_param_scale;
    const model::AddressPattern pat(static_cast<std::int64_t>(task.offset_bytes + shift), task.dims);
    const auto& host = net_.host_tensors.at(static_cast<std::size_t>(task.host_tensor));
    if (pat.max_offset() >= static_cast<std::int64_t>(host.bytes))
        fail(SimulationError(SimulationError::Kind::Protocol,
                             fmt::format("runtime sequence: task {} ({}): offset_parameter '{}' = {} moves the "
                                         "transfer {} B further, to bytes {}..{}, past the end of {} ({} B)",
                                         task.id, task.prov.describe(), pname, state_table_.at(idx), shift,
                                         pat.min_offset(), pat.max_offset(), host.name, host.bytes)));
    return shift;
}

// The command processor writes the task's BD registers and pushes it onto the channel's queue:
// shim_task_dispatch_cycles per task, the measured gap between pipelined START_TASKs. The queue
// holds up to task_queue_depth tasks waiting behind the one the channel runs (a task leaves it
// when the channel starts it: aie-rt counts Task_Queue_Size plus the running BD as pending,
// _XAieMl_DmaGetPendingBdCount); a push onto a full queue is dropped by the hardware (sticky
// Task_Queue_Overflow, "Attempt to write to full task queue", aie_registers_aie2.json) and the
// design hangs, so it is an error at that push. IRON's lowering at mlir-aie 3ca0193 emits no wait
// before a push (AIEDMATasksToNPU.cpp L86: dma_start_task becomes npu.push_queue alone), so
// --queue-wait models a toolchain that polls for room first (mlir-aie PR 3734: a maskpoll on
// Task_Queue_Size before the push, as aie-rt's _XAieMl_DmaWaitForBdTaskQueue does).
std::string RuntimeController::describe_task(int task) const {
    if (task < 0) return "none";
    const auto& t = net_.tasks.at(static_cast<std::size_t>(task));
    return fmt::format("task {} ({})", t.id, t.prov.describe());
}

void RuntimeController::start_task(std::size_t i, const model::RuntimeOp& op) {
    const auto& task = net_.tasks.at(static_cast<std::size_t>(op.task));
    const auto shim = model::task_completer(task);
    // The first START_TASK a channel sees is cold: its task starts shim_cold_task_dispatch_cycles
    // after the controller reaches the push instead of shim_task_dispatch_cycles (once per channel
    // for the whole run, as measured: xdna-emu, once per session). The controller is busy the
    // pipelined dispatch for every push; a later push to a channel still in its cold start waits
    // for it to end, so consecutive START_TASKs on one channel are the cold gap apart as measured,
    // and that channel's queue fills no faster than before (per_tile's 16 drains pass on hardware).
    // Pushes to other channels go on meanwhile: the source measured gaps on one channel, which
    // cannot tell a controller that waits from a channel that starts late, and its MM2S warm-up
    // shows in the first task's own duration (1,739 cycles against 370 warm, xdna-emu
    // 2026-05-27-phase-2c), a per-channel effect; so channels warm up in parallel [est].
    const auto& t = svc_.timing;
    auto warm = std::find_if(warm_channels_.begin(), warm_channels_.end(),
                             [&](const WarmChannel& w) { return w.channel == shim; });
    std::uint64_t ready = 0;
    if (warm != warm_channels_.end() && clk_.local_cycles() < warm->warm_at) // its cold start has not ended
        clk_.advance(warm->warm_at - clk_.local_cycles(), PathCost::ShimColdDispatch);
    clk_.advance(t.shim_task_dispatch_cycles, PathCost::ShimDispatch);
    if (warm == warm_channels_.end()) {
        const std::uint64_t cold_delay = t.shim_cold_task_dispatch_cycles > t.shim_task_dispatch_cycles
                                             ? t.shim_cold_task_dispatch_cycles - t.shim_task_dispatch_cycles
                                             : 0;
        ready = clk_.local_cycles() + cold_delay;
        warm_channels_.push_back({shim, ready});
    }
    clk_.sync(); // the queue write happens at the controller's time
    const std::uint64_t shift = task_offset_shift(task);
    auto* ch = shim_channel_(shim);
    if (!ch || !ch->has_link())
        fail(SimulationError(SimulationError::Kind::Protocol,
                             fmt::format("runtime sequence: task {} ({}) targets {}, which has no flow", task.id,
                                         task.prov.describe(), model::to_string(shim))));
    if (!ch->has_room()) {
        if (!queue_wait_)
            fail(SimulationError(
                SimulationError::Kind::Limit,
                fmt::format("runtime sequence op {} at cycle {}: the task queue of shim {} is full ({} tasks queued "
                            "behind the one in progress, {}) when starting task {} ({}); the hardware would drop it (Task_Queue_Overflow) "
                            "and the design would hang. Await earlier tasks (wait=true + TaskGroup.finish) before "
                            "issuing more, or run with --queue-wait to model a toolchain that waits for a free slot",
                            i, now_cycles(), model::to_string(shim), ch->queued(), describe_task(ch->current_task()), task.id,
                            task.prov.describe())));
        ps_.status = ProcessState::Status::WaitTask;
        ps_.since = now_cycles();
        ps_.detail = fmt::format("waits for a free slot in the task queue of shim {} to start task {} ({})",
                                 model::to_string(shim), task.id, task.prov.describe());
        const auto begin = now_cycles();
        queue_waiting_ = true;
        queue_channel_ = shim;
        while (!ch->has_room()) clk_.wait(board_.event());
        queue_waiting_ = false;
        ps_.status = ProcessState::Status::Running;
        ++queue_waits_;
        if (track_ >= 0)
            svc_.tracks.sink()->span(track_, fmt::format("wait queue {}", model::to_string(shim)), begin, now_cycles());
    }
    // The task starts after the controller's chain, and after its channel's cold start if later.
    CriticalPath path = clk_.path();
    if (ready > clk_.local_cycles()) path.add(PathCost::ShimColdDispatch, ready - clk_.local_cycles());
    ch->push(op.task, std::max(clk_.local_cycles(), ready), shift, &path);
}

// npu.sync (what an await lowers to, AIEDMATasksToNPU DMAAwaitTaskOpPattern) names a channel,
// not a task: it returns when that channel's next task-complete token arrives (or has arrived),
// so it consumes the oldest outstanding token of the channel whatever task the sequence named.
void RuntimeController::await_task(const model::RuntimeOp& op) {
    clk_.sync();
    const auto& task = net_.tasks.at(static_cast<std::size_t>(op.task));
    const auto shim = model::task_completer(task);
    auto* ch = shim_channel_(shim);
    if (!ch)
        fail(SimulationError(SimulationError::Kind::Protocol,
                             fmt::format("runtime sequence: await of task {} ({}) on {}, which has no channel", task.id,
                                         task.prov.describe(), model::to_string(shim))));
    CriticalPath token; // the chain of the task whose completion the sync takes
    if (ch->take_token(&token)) {
        clk_.join(token);
        return;
    }
    ps_.status = ProcessState::Status::WaitTask;
    ps_.since = now_cycles();
    ps_.detail = fmt::format("awaits task {} ({}): syncs on shim {} for its next completion token", task.id,
                             task.prov.describe(), model::to_string(shim));
    waiting_ = op.task;
    const auto begin = now_cycles();
    while (!ch->take_token(&token)) clk_.wait(board_.event());
    clk_.join(token);
    waiting_ = -1;
    ps_.status = ProcessState::Status::Running;
    if (track_ >= 0)
        svc_.tracks.sink()->span(track_, fmt::format("await {}", task.prov.describe()), begin, now_cycles());
}

// The sequence's end is the command processor's: the host's run.wait() returns there, while the
// DMA tasks it pushed and did not await keep running (nothing stops a channel at the end of the
// instruction stream: aie-rt stops one only by a reset or by disabling it, DMA_<dir>_<ch>_Ctrl).
// The host then syncs and reads its buffers, so what those tasks write before that is what it
// reads. npusim lets them run on, for drain_cycles at most, before the outputs are taken, and
// reports them. It looks at the array at growing intervals (64 cycles, doubling up to 16,384):
// when nothing but this wait is scheduled, no process can move them any more and the run ends.
void RuntimeController::drain_in_flight() {
    in_flight_ = board_.pending_tasks();
    if (in_flight_.empty()) return;
    clk_.sync();
    sequence_end_ = now_cycles();
    ps_.status = ProcessState::Status::WaitTask;
    ps_.since = sequence_end_;
    ps_.detail = fmt::format("the sequence has ended; lets {} shim task(s) still in flight run on before the host "
                             "reads the outputs",
                             in_flight_.size());
    const auto deadline = sequence_end_ + drain_cycles_;
    auto left = [&] {
        return std::any_of(in_flight_.begin(), in_flight_.end(), [&](int t) { return !board_.done(t); });
    };
    bool stuck = false;
    std::uint64_t step = 64;
    while (left() && now_cycles() < deadline) {
        clk_.wait(std::min(step, deadline - now_cycles()), board_.event());
        if (left() && !sc_core::sc_pending_activity()) {
            stuck = true;
            break;
        }
        step = std::min<std::uint64_t>(step * 2, 16384);
    }
    clk_.set_local_cycles(now_cycles());
    if (track_ >= 0) svc_.tracks.sink()->span(track_, "in-flight tasks", sequence_end_, now_cycles());
    svc_.run.warn(drain_report(stuck));
}

std::string RuntimeController::drain_report(bool stuck) const {
    if (in_flight_.empty()) return {};
    std::vector<std::string> done, left;
    for (int t : in_flight_) {
        const auto& task = net_.tasks.at(static_cast<std::size_t>(t));
        auto name = fmt::format("{} on shim {}", describe_task(t), model::to_string(model::task_completer(task)));
        (board_.done(t) ? done : left).push_back(std::move(name));
    }
    auto list = [](const std::vector<std::string>& v) {
        std::string s;
        for (std::size_t i = 0; i < v.size() && i < 4; ++i) s += (i ? ", " : "") + v[i];
        if (v.size() > 4) s += fmt::format(" and {} more", v.size() - 4);
        return s;
    };
    auto text = fmt::format("{} shim task(s) were still in flight when the runtime sequence ended at cycle {} (not "
                            "awaited; on hardware they run on after the host's run.wait() returns)",
                            in_flight_.size(), sequence_end_);
    if (!done.empty())
        text += fmt::format("; completed by cycle {}, before the host reads the outputs: {}", now_cycles(), list(done));
    if (!left.empty())
        text += fmt::format("; never completed ({}), so the host reads the outputs without them: {}",
                            stuck ? "nothing left in the array could move them"
                                  : fmt::format("still running {} cycles after the sequence's end", drain_cycles_),
                            list(left));
    return text;
}

} // namespace npusim::sim

#include "npusim/frontend/Runtime.hpp"

#include "FifoState.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::iron {

namespace detail {
namespace {
thread_local SequenceRecorder* g_recorder = nullptr;
}
SequenceRecorder* SequenceRecorder::current() { return g_recorder; }
void SequenceRecorder::set_current(SequenceRecorder* r) { g_recorder = r; }

void SequenceRecorder::finish_group(int group) {
    // Awaits of the group's waited tasks first, then frees of all its tasks (IRON ActiveSequence).
    for (std::size_t i = 0; i < transfers.size(); ++i)
        if (transfers[i].managed && transfers[i].group == group && transfers[i].wait)
            ops.push_back({RecordedOp::Kind::Await, static_cast<int>(i)});
    for (std::size_t i = 0; i < transfers.size(); ++i)
        if (transfers[i].managed && transfers[i].group == group)
            ops.push_back({RecordedOp::Kind::Free, static_cast<int>(i)});
}
std::string RecordedTransfer::label() const {
    return endpoint ? fmt::format("fifo '{}'", endpoint->fifo->name) : fmt::format("shim_symbol '{}'", symbol);
}

} // namespace detail

namespace {
thread_local RuntimeArgumentsCheck* innermost_check = nullptr;
}

RuntimeArgumentsCheck::RuntimeArgumentsCheck(Fn check) : check_(std::move(check)), outer_(innermost_check) {
    innermost_check = this;
}

RuntimeArgumentsCheck::~RuntimeArgumentsCheck() { innermost_check = outer_; }

void RuntimeArgumentsCheck::run(const std::vector<TensorType>& tensors) {
    if (innermost_check && innermost_check->check_) innermost_check->check_(tensors);
}

TaskGroup::TaskGroup() {
    auto* rec = detail::SequenceRecorder::current();
    if (!rec) throw DesignError("TaskGroup must be constructed inside the runtime sequence");
    id_ = rec->next_group++;
    rec->open_groups.push_back(id_);
}

void TaskGroup::finish() {
    auto* rec = detail::SequenceRecorder::current();
    if (!rec) throw DesignError(fmt::format("TaskGroup {}: finish() called outside the runtime sequence", id_));
    auto it = std::find(rec->open_groups.begin(), rec->open_groups.end(), id_);
    if (it == rec->open_groups.end()) throw DesignError(fmt::format("TaskGroup {}: finish() called twice", id_));
    rec->open_groups.erase(it);
    rec->finish_group(id_);
}

void Task::await_() const {
    auto* rec = detail::SequenceRecorder::current();
    if (!rec || transfer_ < 0) throw DesignError("Task.await_() called outside the runtime sequence");
    const auto& t = rec->transfers[static_cast<std::size_t>(transfer_)];
    const auto name = t.label();
    if (t.managed)
        throw DesignError(
            fmt::format("{}: await_() on a managed task; its TaskGroup awaits it (use managed=false)", name));
    if (!t.endpoint && !t.started)
        throw DesignError(fmt::format("{}: dma_await_task on a task that was not started (dma_start_task)", name));
    if (!t.wait)
        throw DesignError(fmt::format("{}: only a wait=true transfer can be awaited{}", name,
                                      t.endpoint ? "" : " (shim_dma_single_bd_task with issue_token=true)"));
    rec->ops.push_back({detail::RecordedOp::Kind::Await, transfer_});
}

void Task::free() const {
    auto* rec = detail::SequenceRecorder::current();
    if (!rec || transfer_ < 0) throw DesignError("Task.free() called outside the runtime sequence");
    const auto& t = rec->transfers[static_cast<std::size_t>(transfer_)];
    if (t.managed) throw DesignError(fmt::format("{}: free() on a managed task; its TaskGroup frees it", t.label()));
    rec->ops.push_back({detail::RecordedOp::Kind::Free, transfer_});
}

void Runtime::add_endpoint(detail::EndpointState* ep) {
    detail::claim_endpoint(ep, detail::OwnerKind::Runtime, nullptr, "Runtime");
    for (auto* e : state_->endpoints)
        if (e == ep) return;
    state_->endpoints.push_back(ep);
}

Task shim_dma_single_bd_task(const std::string& shim_symbol, const RuntimeData& mem, ShimTaskOptions opts) {
    auto* rec = detail::SequenceRecorder::current();
    if (!rec)
        throw DesignError(
            fmt::format("shim_dma_single_bd_task('{}') called outside the runtime sequence", shim_symbol));
    if (mem.index < 0 || mem.index >= static_cast<int>(rec->tensors.size()))
        throw DesignError(fmt::format("shim_dma_single_bd_task('{}'): not a runtime argument", shim_symbol));
    detail::RecordedTransfer t;
    t.symbol = shim_symbol;
    t.tensor = mem.index;
    t.tap = opts.tap.value_or(mem.default_tap());
    const auto& tt = rec->tensors[static_cast<std::size_t>(mem.index)];
    if (t.tap.min_index() < 0 || t.tap.max_index() >= tt.elements())
        throw DesignError(fmt::format("shim_dma_single_bd_task('{}') with runtime argument {} ({}): access pattern "
                                      "{} reaches elements {}..{}, outside the tensor's {} elements",
                                      shim_symbol, mem.index, tt.str(), t.tap.str(), t.tap.min_index(),
                                      t.tap.max_index(), tt.elements()));
    t.wait = opts.issue_token;
    t.packet = opts.packet;
    t.managed = false;
    rec->transfers.push_back(std::move(t));
    return Task(static_cast<int>(rec->transfers.size()) - 1);
}

Task shim_dma_bd_chain(const std::string& shim_symbol, const std::vector<ShimChainBd>& bds, ShimChainOptions opts) {
    auto* rec = detail::SequenceRecorder::current();
    if (!rec) throw DesignError(fmt::format("shim_dma_bd_chain('{}') called outside the runtime sequence", shim_symbol));
    if (bds.empty()) throw DesignError(fmt::format("shim_dma_bd_chain('{}'): a task needs at least one BD", shim_symbol));
    // DMAConfigureTaskOp's repeat_count becomes the queue push's 8-bit repeat field.
    if (opts.repeat_count < 0 || opts.repeat_count > 255)
        throw DesignError(fmt::format("shim_dma_bd_chain('{}'): repeat_count {} is outside 0..255 (the task queue's "
                                      "repeat field)",
                                      shim_symbol, opts.repeat_count));
    std::vector<std::pair<int, TensorAccessPattern>> links;
    for (std::size_t i = 0; i < bds.size(); ++i) {
        const auto& b = bds[i];
        if (b.mem.index < 0 || b.mem.index >= static_cast<int>(rec->tensors.size()))
            throw DesignError(fmt::format("shim_dma_bd_chain('{}'): BD {} moves no runtime argument", shim_symbol, i));
        const auto tap = b.tap.value_or(b.mem.default_tap());
        const auto& tt = rec->tensors[static_cast<std::size_t>(b.mem.index)];
        if (tap.min_index() < 0 || tap.max_index() >= tt.elements())
            throw DesignError(fmt::format("shim_dma_bd_chain('{}'): BD {} with runtime argument {} ({}): access "
                                          "pattern {} reaches elements {}..{}, outside the tensor's {} elements",
                                          shim_symbol, i, b.mem.index, tt.str(), tap.str(), tap.min_index(),
                                          tap.max_index(), tt.elements()));
        links.emplace_back(b.mem.index, tap);
    }
    detail::RecordedTransfer t;
    t.symbol = shim_symbol;
    t.tensor = links.front().first;
    t.tap = links.front().second;
    t.chain_rest.assign(links.begin() + 1, links.end());
    t.chain_passes = opts.repeat_count + 1;
    t.wait = opts.issue_token;
    t.managed = false;
    rec->transfers.push_back(std::move(t));
    return Task(static_cast<int>(rec->transfers.size()) - 1);
}

void dma_start_task(const Task& task) {
    auto* rec = detail::SequenceRecorder::current();
    if (!rec || task.transfer() < 0) throw DesignError("dma_start_task called outside the runtime sequence");
    auto& t = rec->transfers[static_cast<std::size_t>(task.transfer())];
    if (t.endpoint || t.started)
        throw DesignError(fmt::format("{}: dma_start_task on a task that is already started", t.label()));
    t.started = true;
    rec->ops.push_back({detail::RecordedOp::Kind::Start, task.transfer()});
}

void dma_await_task(const Task& t) { t.await_(); }
void dma_free_task(const Task& t) { t.free(); }

void Runtime::add_flow(const Flow& f) {
    for (const auto& x : state_->flows)
        if (x == f.state()) return;
    state_->flows.push_back(f.state());
}

void Runtime::add_flow(const PacketFlow& f) {
    for (const auto& x : state_->packet_flows)
        if (x == f.state()) return;
    state_->packet_flows.push_back(f.state());
}

void Runtime::add_lock(const std::shared_ptr<detail::LockState>& l) {
    for (const auto& x : state_->locks)
        if (x == l) return;
    state_->locks.push_back(l);
}

void Runtime::add_tile_dma(const TileDma& d) {
    for (const auto& x : state_->tile_dmas)
        if (x == d.state()) return;
    state_->tile_dmas.push_back(d.state());
}

void Runtime::add_switchbox(const Switchbox& s) {
    for (const auto& x : state_->switchboxes)
        if (x == s.state()) return;
    state_->switchboxes.push_back(s.state());
}

void Runtime::reject_fifo(const std::string& fifo) const {
    throw DesignError(fmt::format("Runtime: fifo '{}' was passed itself; pass a handle (prod() or cons())", fifo));
}

} // namespace npusim::iron

#include "npusim/frontend/Runtime.hpp"

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
} // namespace detail

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
    const auto& name = t.endpoint->fifo->name;
    if (t.managed)
        throw DesignError(
            fmt::format("fifo '{}': await_() on a managed task; its TaskGroup awaits it (use managed=false)", name));
    if (!t.wait) throw DesignError(fmt::format("fifo '{}': only a wait=true transfer can be awaited", name));
    rec->ops.push_back({detail::RecordedOp::Kind::Await, transfer_});
}

void Task::free() const {
    auto* rec = detail::SequenceRecorder::current();
    if (!rec || transfer_ < 0) throw DesignError("Task.free() called outside the runtime sequence");
    const auto& t = rec->transfers[static_cast<std::size_t>(transfer_)];
    if (t.managed)
        throw DesignError(
            fmt::format("fifo '{}': free() on a managed task; its TaskGroup frees it", t.endpoint->fifo->name));
    rec->ops.push_back({detail::RecordedOp::Kind::Free, transfer_});
}

void Runtime::add_endpoint(detail::EndpointState* ep) {
    detail::claim_endpoint(ep, detail::OwnerKind::Runtime, nullptr, "Runtime");
    for (auto* e : state_->endpoints)
        if (e == ep) return;
    state_->endpoints.push_back(ep);
}

void Runtime::reject_fifo(const std::string& fifo) const {
    throw DesignError(fmt::format("Runtime: fifo '{}' was passed itself; pass a handle (prod() or cons())", fifo));
}

} // namespace npusim::iron

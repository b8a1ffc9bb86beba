#include "npusim/frontend/WorkerRuntimeBarrier.hpp"

#include "npusim/frontend/ObjectFifo.hpp"
#include "npusim/frontend/Runtime.hpp"
#include "npusim/model/CoreServices.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron {

WorkerRuntimeBarrier::WorkerRuntimeBarrier(int initial_value, std::string name)
    : state_(std::make_shared<detail::BarrierState>()) {
    state_->uid = detail::next_uid();
    state_->initial_value = initial_value;
    state_->default_name = name.empty();
    state_->name = name.empty() ? "barrier" : std::move(name);
}

void WorkerRuntimeBarrier::wait_for_value(int value) const {
    auto* svc = model::CoreServices::current();
    if (!svc) throw DesignError(fmt::format("{}: wait_for_value() called outside a worker body", state_->name));
    svc->lock_acquire_equal(state_->uid, value);
}

void WorkerRuntimeBarrier::release_with_value(int value) const {
    auto* svc = model::CoreServices::current();
    if (!svc) throw DesignError(fmt::format("{}: release_with_value() called outside a worker body", state_->name));
    svc->lock_release(state_->uid, value);
}

void WorkerRuntimeBarrier::set(int value) const { detail::record_barrier_set(state_.get(), value); }

namespace detail {
void record_barrier_set(BarrierState* b, int value) {
    auto* rec = SequenceRecorder::current();
    if (!rec) throw DesignError(fmt::format("{}: set() called outside the runtime sequence", b->name));
    rec->barrier_sets.push_back({b, value});
    rec->ops.push_back({RecordedOp::Kind::SetBarrier, static_cast<int>(rec->barrier_sets.size()) - 1});
}
} // namespace detail

} // namespace npusim::iron

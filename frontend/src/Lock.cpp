#include "npusim/frontend/Lock.hpp"

#include "npusim/frontend/ObjectFifo.hpp"
#include "npusim/model/CoreServices.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron {

Lock::Lock(Tile tile, std::optional<int> lock_id, int init, std::string name)
    : state_(std::make_shared<detail::LockState>()) {
    state_->uid = detail::next_uid();
    state_->tile = std::move(tile);
    state_->lock_id = lock_id;
    state_->init = init;
    state_->default_name = name.empty();
    state_->name = name.empty() ? "lock" : std::move(name);
}

namespace {
model::CoreServices& services(const detail::LockState& s, const char* call) {
    auto* svc = model::CoreServices::current();
    if (!svc) throw DesignError(fmt::format("lock '{}': {}() called outside a worker body", s.name, call));
    return *svc;
}
} // namespace

void Lock::acquire(int value) const { services(*state_, "acquire").lock_acquire_ge(state_->uid, value); }
void Lock::acquire_exact(int value) const { services(*state_, "acquire_exact").lock_acquire_equal(state_->uid, value); }
void Lock::release(int value) const { services(*state_, "release").lock_release(state_->uid, value); }

} // namespace npusim::iron

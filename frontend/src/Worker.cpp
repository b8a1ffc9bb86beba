#include "npusim/frontend/Worker.hpp"

#include "FifoState.hpp"
#include "npusim/frontend/Runtime.hpp"
#include "npusim/model/CoreServices.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron {

namespace detail {

void claim_endpoint(EndpointState* ep, OwnerKind kind, WorkerState* worker, const std::string& who) {
    if (!ep) throw DesignError(fmt::format("{}: an empty ObjectFifoHandle was passed", who));
    if (ep->owner != OwnerKind::None && !(ep->owner == kind && ep->worker == worker)) {
        std::string other = ep->owner == OwnerKind::Worker    ? fmt::format("worker '{}'", ep->worker->name)
                            : ep->owner == OwnerKind::Runtime ? std::string("the Runtime")
                            : ep->owner == OwnerKind::MemTile ? std::string("a mem-tile endpoint (set_endpoint)")
                                                              : std::string("a forward/split/join link");
        throw DesignError(fmt::format("{}: {} handle is already used by {}; {}", who, ep->describe(), other,
                                      ep->role == Role::Consumer ? "call cons() again for another consumer"
                                                                 : "a fifo has one producer"));
    }
    ep->owner = kind;
    ep->worker = worker;
}

void validate_worker_tile(const WorkerOptions& o) {
    const std::string who = o.name.empty() ? std::string("Worker") : fmt::format("worker '{}'", o.name);
    if (o.tile.kind && *o.tile.kind != TileKind::Compute && !o.tile.pinned())
        throw DesignError(fmt::format("{}: tile must be a compute tile, got {}", who, o.tile.str()));
    if (o.tile.pinned() && model::tile_kind_of_row(*o.tile.row) != TileKind::Compute)
        throw DesignError(
            fmt::format("{}: tile {} is not a compute tile (rows 0 and 1 are shim and mem tiles)", who, o.tile.str()));
    if (o.stack_size % 4 != 0)
        throw DesignError(fmt::format("{}: stack_size {} must be a multiple of 4", who, o.stack_size));
}

} // namespace detail

void Worker::add_endpoint(detail::EndpointState* ep) {
    detail::claim_endpoint(ep, detail::OwnerKind::Worker, state_.get(),
                           state_->name.empty() ? std::string("Worker") : fmt::format("worker '{}'", state_->name));
    for (auto* e : state_->endpoints)
        if (e == ep) return;
    state_->endpoints.push_back(ep);
}

void Worker::add_buffer(const std::shared_ptr<detail::BufferState>& b) {
    for (const auto& x : state_->buffers)
        if (x == b) return;
    if (!b->tile && !b->users.empty())
        throw DesignError(
            fmt::format("buffer '{}' has no tile and is already used by worker '{}'; give it tile= to share it",
                        b->name, b->users.front().empty() ? "<unnamed>" : b->users.front()));
    b->users.push_back(state_->name);
    state_->buffers.push_back(b);
}

void Worker::add_barrier(const std::shared_ptr<detail::BarrierState>& b) {
    for (const auto& x : state_->barriers)
        if (x == b) return;
    state_->barriers.push_back(b);
}

void Worker::add_lock(const std::shared_ptr<detail::LockState>& l) {
    for (const auto& x : state_->locks)
        if (x == l) return;
    state_->locks.push_back(l);
}

void Worker::add_param(const std::shared_ptr<detail::ScratchpadParamState>& p) {
    for (const auto& x : state_->params)
        if (x == p) return;
    state_->params.push_back(p);
}

void Worker::reject_fifo(const std::string& fifo) const {
    throw DesignError(fmt::format("Worker: fifo '{}' was passed itself; pass a handle (prod() or cons())", fifo));
}

void add_cycles(std::uint64_t cycles) {
    auto* svc = model::CoreServices::current();
    if (!svc) throw DesignError("add_cycles() called outside a worker body");
    svc->add_cycles(cycles);
}

void cascade_put(const void* word) {
    auto* svc = model::CoreServices::current();
    if (!svc) throw DesignError("cascade_put() called outside a worker body");
    svc->cascade_put(word);
}

void cascade_get(void* word) {
    auto* svc = model::CoreServices::current();
    if (!svc) throw DesignError("cascade_get() called outside a worker body");
    svc->cascade_get(word);
}

} // namespace npusim::iron

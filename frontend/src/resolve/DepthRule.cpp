#include "resolve/DepthRule.hpp"

#include "npusim/frontend/Worker.hpp"
#include "npusim/model/Error.hpp"
#include "npusim/model/LockRules.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::iron::detail {

int declared_depth(const EndpointState& ep) { return ep.depth.value_or(ep.fifo->depth); }

std::vector<int> declared_depths(const FifoState& f) {
    std::vector<int> d{declared_depth(*f.prod)};
    for (const auto& c : f.cons)
        if (c->owner != OwnerKind::None) d.push_back(declared_depth(*c));
    return d;
}

int largest_acquire(const AcquireTable& acquires, const EndpointState& ep) {
    const auto it = acquires.find(ep.uid);
    return it == acquires.end() ? 0 : it->second;
}

bool acquire_fits(int n, int depth) { return model::acquire_fits(n, depth); }

void check_acquire_fits(const EndpointState& ep, int max_acquire, int depth) {
    if (ep.owner == OwnerKind::Worker && !acquire_fits(max_acquire, depth))
        throw DesignError(fmt::format("worker '{}' acquires {} elements of {} whose depth is {}", ep.worker->name,
                                      max_acquire, ep.describe(), depth));
}

namespace {

const EndpointState& only_consumer(const FifoState& f) {
    for (const auto& c : f.cons)
        if (c->owner != OwnerKind::None) return *c;
    return *f.cons.front();
}

// Both cores use one pool of size(0) buffers: the producer's declared depth, never resized
// (AIEObjectFifoStatefulTransform runOnOperation sends a fifo that needs no DMA straight to
// createObjectFifoElements, without findObjectFifoSize). Each handle's acquires are checked
// against that handle's own depth, as IRON's ObjectFifoHandle.acquire does ("Number of elements to
// acquire {n} must be smaller than depth {d}"); a consumer acquiring more than the pool holds
// passes here and waits forever on the NPU (and in simulation).
int shared_pool_depth(const FifoState& f, const AcquireTable& acquires) {
    const EndpointState& prod = *f.prod;
    const EndpointState& cons = only_consumer(f);
    for (const EndpointState* ep : {&prod, &cons})
        check_acquire_fits(*ep, largest_acquire(acquires, *ep), declared_depth(*ep));
    return declared_depth(prod);
}

// IRON _get_depths: equal depths on every side let findObjectFifoSize size compute-tile sides
// by their largest acquire; a per-endpoint list is used as given.
int own_copy_depth(const EndpointState& ep, model::TileKind kind, const AcquireTable& acquires) {
    const auto all = declared_depths(*ep.fifo);
    const bool uniform = std::all_of(all.begin(), all.end(), [&](int x) { return x == all[0]; });
    const int declared = declared_depth(ep);
    const int max_acq = largest_acquire(acquires, ep);
    if (!uniform) {
        check_acquire_fits(ep, max_acq, declared);
        return declared;
    }
    if (kind == model::TileKind::Compute && ep.owner == OwnerKind::Worker && max_acq > 0) {
        if (max_acq == 1 && declared == 1) return 1;
        return max_acq + 1; // compute-tile depth rule: largest acquire + 1
    }
    return declared;
}

// The depth rule without overrides (resolved_depth's documentation).
int rule_depth(const EndpointState& ep, model::TileKind kind, BufferHolding holding, const AcquireTable& acquires) {
    if (holding == BufferHolding::SharedPool) return shared_pool_depth(*ep.fifo, acquires);
    // init_values fix the producer's depth at its declared size (runOnOperation resizes a producer
    // with findObjectFifoSize only when it has no init_values); FifoVerifier checks they fill it.
    if (ep.role == Role::Producer && !ep.fifo->init_values.empty()) {
        const int declared = declared_depth(ep);
        check_acquire_fits(ep, largest_acquire(acquires, ep), declared);
        return declared;
    }
    return own_copy_depth(ep, kind, acquires);
}

} // namespace

int resolved_depth(const EndpointState& ep, model::TileKind kind, BufferHolding holding, const AcquireTable& acquires,
                   std::optional<int> override_depth) {
    const int rule = rule_depth(ep, kind, holding, acquires);
    if (!override_depth) return rule;
    const int depth = *override_depth;
    if (depth < 1)
        throw DesignError(fmt::format("depth override of {}: depth {} must be at least 1", ep.describe(), depth));
    // init_values fill exactly the producer's depth (FifoVerifier), so they fix it.
    if (ep.role == Role::Producer && !ep.fifo->init_values.empty() && depth != rule)
        throw DesignError(fmt::format("depth override of {}: its {} init_values fix its depth at {}, not {}",
                                      ep.describe(), ep.fifo->init_values.size(), rule, depth));
    if (ep.owner == OwnerKind::Worker && !acquire_fits(largest_acquire(acquires, ep), depth))
        throw DesignError(fmt::format("depth override of {}: worker '{}' acquires {} elements, more than the depth {}",
                                      ep.describe(), ep.worker->name, largest_acquire(acquires, ep), depth));
    return depth;
}

int repeat_scaled(int objects, int repeat_count) { return model::repeat_scaled(objects, repeat_count); }

int link_repeat_count(const LinkState& link) {
    int r = 1;
    for (const auto& f : link.outputs) r = std::max(r, f->repeats());
    return r;
}

LockInits initial_lock_values(int depth, int filled, int repeat_count) {
    return {repeat_scaled(depth - filled, repeat_count), repeat_scaled(filled, repeat_count)};
}

} // namespace npusim::iron::detail

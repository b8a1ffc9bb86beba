#pragma once
// DepthRule: how many buffers each side of a fifo gets, the "acquire <= depth" rule, and the
// repeat_count factor on lock values (IRON ObjectFifo._get_depths + mlir-aie's
// findObjectFifoSize in lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp; see
// docs/resolve.md, step 4 "Depths").
#include "FifoState.hpp"
#include "npusim/frontend/ObjectFifo.hpp"
#include "npusim/model/DeviceSpec.hpp"

#include <map>
#include <optional>
#include <vector>

namespace npusim::iron::detail {

/// Endpoint uid -> largest acquire its worker's body makes (from the resolve-time trace).
using AcquireTable = std::map<int, int>;

/// How an endpoint's buffers are held once lowered.
enum class BufferHolding {
    SharedPool, ///< one pool both cores reach (no DMA): the fifo's one producer and one consumer
    OwnCopy, ///< the endpoint's own buffers on its tile (DMA copy, or a link's pool)
};

/// The depth the design asked for at this endpoint: its per-endpoint depth, else the fifo's.
int declared_depth(const EndpointState& ep);
/// Declared depths of the producer and of every used consumer, in that order.
std::vector<int> declared_depths(const FifoState& f);
/// Largest acquire of `ep` in the trace (0 when its body never acquires it).
int largest_acquire(const AcquireTable& acquires, const EndpointState& ep);

/// An acquire of `n` elements fits a ring of `depth` buffers.
bool acquire_fits(int n, int depth);
/// A worker acquiring `max_acquire` elements of `ep` must fit `depth` (DesignError otherwise).
void check_acquire_fits(const EndpointState& ep, int max_acquire, int depth);

/// The number of buffers the endpoint `ep` gets on a tile of kind `kind`:
///  * SharedPool: the larger declared depth of producer and consumer;
///  * OwnCopy with a per-endpoint depth list (not all equal): the declared depth, verbatim;
///  * OwnCopy on a compute tile whose core acquires: largest acquire + 1 (1 if both are 1);
///  * otherwise the declared depth; a worker producer holds at least its init_values.
/// Every acquire of a worker on those buffers is checked against the result.
/// `override_depth` (ResolveOptions::depth_overrides; for a shared pool the producer's) replaces
/// the result verbatim, as an explicit per-endpoint depth does, after the declared depths passed
/// the rule's checks; the endpoint's acquires must fit it, and a producer's init_values fix its
/// depth (DesignError otherwise).
int resolved_depth(const EndpointState& ep, model::TileKind kind, BufferHolding holding, const AcquireTable& acquires,
                   std::optional<int> override_depth = std::nullopt);

/// A lock value for `objects` objects when each object is sent `repeat_count` times.
int repeat_scaled(int objects, int repeat_count);
/// The repeat_count a link applies: the largest of its outputs'.
int link_repeat_count(const LinkState& link);

/// Initial values of a ring's lock pair: free slots (depth - filled) and full slots (filled),
/// each scaled by the repeat count.
struct LockInits {
    int free_slots = 0;
    int full_slots = 0;
};
LockInits initial_lock_values(int depth, int filled, int repeat_count);

} // namespace npusim::iron::detail

#pragma once
// StaticChecks: hangs that can be decided from the design before simulating (the static
// checks), reported as warnings in Netlist::warnings (errors with ResolveOptions::werror).
#include "FifoState.hpp"
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

/// A core of a shared-memory fifo acquiring more objects than the pool holds waits forever; so do
/// both cores when one acquires a objects at once while the other keeps r held between its
/// iterations (a sliding window) and a + r exceeds the pool.
void check_shared_pool_acquires(ResolveContext& ctx, const FifoState& f, int pool_depth);
/// A split sends every output one object per pass and a join takes one from every input: workers
/// that return (while_true=false) after different numbers of objects, or fewer than the passes
/// the runtime sequence moves, stop the link.
void check_link_rates(ResolveContext& ctx, const LinkState& link);
/// A fill or drain that is not a whole number of the fifo's objects leaves a partial object that
/// is never consumed (fill) or never completed (drain).
void check_transfer_whole_objects(ResolveContext& ctx, const RecordedTransfer& tr, std::int64_t elem_bytes);
/// With ResolveOptions::werror: the first warning becomes a DesignError.
void apply_werror(const ResolveContext& ctx);

} // namespace npusim::iron::detail

#pragma once
// Collect: the first two resolve passes (docs/resolve.md, steps 1 and 2) — what the design is
// made of (workers in Program order, every reachable fifo sorted by name, links) with its
// structural checks, and the resolve-time trace of every worker body (largest acquire per port).
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

/// Workers (unnamed ones become worker_<i>), fifos and links of the Program; names unique,
/// every fifo produced and consumed, every handle's worker listed.
void collect_design(ResolveContext& ctx);
/// Run each worker body once against scratch memory; fills ctx.max_acquire.
void trace_bodies(ResolveContext& ctx);

} // namespace npusim::iron::detail

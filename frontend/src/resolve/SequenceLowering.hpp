#pragma once
// SequenceLowering: the Runtime's sequence function runs once with a recorder; every fill/drain
// becomes a single-BD shim task, TaskGroup.finish() awaits and frees, parameter writes become
// buffer writes (docs/resolve.md, step 9).
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

void lower_sequence(ResolveContext& ctx);

} // namespace npusim::iron::detail

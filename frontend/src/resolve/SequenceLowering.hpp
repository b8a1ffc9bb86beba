#pragma once
// SequenceLowering: the Runtime's sequence function runs once with a recorder; every fill/drain
// becomes a single-BD shim task, TaskGroup.finish() awaits and frees, parameter writes become
// buffer writes (docs/resolve.md, step 9).
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

void lower_sequence(ResolveContext& ctx);

/// Run the sequence function with `rec` current (shared with the MLIR export, which prints what
/// it records); DesignError naming `design` if it throws.
void record_sequence_function(const RuntimeState& rt, SequenceRecorder& rec, const std::string& design);
/// Close the implicit default group; refuse unfinished groups and (strict_task_groups) mixing.
void finish_task_groups(const RuntimeState& rt, SequenceRecorder& rec);

} // namespace npusim::iron::detail

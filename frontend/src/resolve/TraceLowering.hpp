#pragma once
// TraceLowering: Program::enable_trace to Netlist::trace, as IRON's Program.resolve_program and
// configure_trace (mlir-aie python/iron/program.py, python/utils/trace/setup.py) build the list
// of traced tiles and their events. Runs after placement (it needs the workers' tiles).
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

/// Fills ctx.net.trace from the Program's trace options: one core unit per traced worker (the
/// listed workers, or those with WorkerOptions::trace when none are listed), then one memory
/// unit per traced core tile if coremem_events are given, then a unit per listed mem or shim
/// tile. Each unit's events are IRON's defaults or the given list, checked and padded to eight
/// (model::trace_unit_events). trace_size 0 leaves the trace disabled, as IRON does.
void lower_trace(ResolveContext& ctx);

} // namespace npusim::iron::detail

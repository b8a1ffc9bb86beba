#pragma once
// ScratchpadParameters (IRON ScratchpadParameter / sync_parameters / offset_parameter=) lowered as
// aiecc's aie-lower-scratchpad-parameters pass does
// (lib/Dialect/AIEX/Transforms/AIELowerScratchpadParameters.cpp): an 8-byte buffer per parameter
// and reading core, a sync lock per reading core, and the sequence's parameter sync. See
// docs/resolve-lowlevel.md, "Scratchpad parameters".
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

struct SequenceRecorder;

/// After placement: refuse parameters on npu1; for each worker whose body reads parameters, one
/// buffer __param_<name>_<col>_<row>_<n> (2 x i32) per parameter on its tile (allocateBuffers,
/// one uniquing counter for the device) and one lock with value 0 that its core acquires (== 1)
/// before its body first runs (emitCorePreambles).
void place_scratchpad_params(ResolveContext& ctx);

/// With the sequence recorded: the parameters of the module with their kinds (a parameter read by
/// a core is "core", one given as offset_parameter "addr", both is an error), checked as the pass
/// checks them (at most 32; an offset_parameter must be i32), into Netlist::scratchpad_params.
void assign_scratchpad_params(ResolveContext& ctx, const SequenceRecorder& rec);

/// True if the sequence gets the parameter sync at its start: it calls no sync_parameters() and
/// the design reads a parameter or uses an offset_parameter (shouldEmitParameterSyncPreamble).
bool needs_implicit_parameter_sync(const ResolveContext& ctx, const SequenceRecorder& rec);

/// One parameter sync (lowerSyncParametersOp): create the scratchpad, then per reading core's
/// parameter buffer zero its first word and add the host's word to it, then set every sync lock to 1.
void lower_parameter_sync(ResolveContext& ctx);

/// The Netlist::scratchpad_params index of `p` (assign_scratchpad_params ran).
int scratchpad_param_index(const ResolveContext& ctx, const ScratchpadParamState* p);

} // namespace npusim::iron::detail

#pragma once
// SequenceExporter: aie.runtime_sequence from the recorded sequence function (python/iron/runtime/
// runtime.py Runtime.resolve; dma tasks from aiex.py shim_dma_single_bd_task, awaits and frees as
// task groups close, ActiveSequence.emit_transfer since #3387; RTP writes from Buffer.__setitem__
// -> npu_write_rtp; barrier sets from WorkerRuntimeBarrier.set -> aiex.set_lock).
#include "export/MlirIr.hpp"

#include "npusim/frontend/Program.hpp"

namespace npusim::iron::detail::mlir {

struct DeviceValues;

/// `offset_params` receives the ScratchpadParameters the sequence's transfers name as
/// offset_parameter, in the order the sequence uses them (IRON declares those after the device).
Op export_sequence(const Program& program, const DeviceValues& values, ValueIds& ids,
                   std::vector<const ScratchpadParamState*>& offset_params);

} // namespace npusim::iron::detail::mlir

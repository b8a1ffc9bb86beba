#pragma once
// npusim's design API: a C++ mirror of AMD's IRON Python API (aie.iron).
//
//   ObjectFifo of_in(tensor<uint8_t>({1024}), "in");            // ObjectFifo(tile_ty, name="in")
//   Worker w(body, fn_args(of_in.cons(), of_out.prod(), kern));  // Worker(core_fn, fn_args=[...])
//   Runtime rt(seq, fn_args(vec_ty, vec_ty, of_in.prod(), of_out.cons()));
//   Program(device, rt, {w}).resolve();
#include "npusim/frontend/Buffer.hpp"
#include "npusim/frontend/CascadeFlow.hpp"
#include "npusim/frontend/ControlFlow.hpp"
#include "npusim/frontend/Element.hpp"
#include "npusim/frontend/ExternalFunction.hpp"
#include "npusim/frontend/Flow.hpp"
#include "npusim/frontend/Kernel.hpp"
#include "npusim/frontend/Lock.hpp"
#include "npusim/frontend/MlirExport.hpp"
#include "npusim/frontend/ObjectFifo.hpp"
#include "npusim/frontend/ObjectFifoLink.hpp"
#include "npusim/frontend/PacketFlow.hpp"
#include "npusim/frontend/Program.hpp"
#include "npusim/frontend/RawSequence.hpp"
#include "npusim/frontend/Runtime.hpp"
#include "npusim/frontend/ScratchpadParameter.hpp"
#include "npusim/frontend/ShimTasks.hpp"
#include "npusim/frontend/Switchbox.hpp"
#include "npusim/frontend/TensorAccessPattern.hpp"
#include "npusim/frontend/TensorType.hpp"
#include "npusim/frontend/Tile.hpp"
#include "npusim/frontend/TileDma.hpp"
#include "npusim/frontend/Worker.hpp"
#include "npusim/frontend/WorkerRuntimeBarrier.hpp"
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Error.hpp"
#include "npusim/taplib/AccessHeatmap.hpp"
#include "npusim/taplib/TensorAccessSequence.hpp"
#include "npusim/taplib/TensorTiler2D.hpp"

#pragma once
// How much of a run's predicted time rests on estimated timing parameters: every cycle the run's
// units spent is charged to the parameter (or kernel cost model) that set it, and each parameter's
// share is reported with the tag of its source ([est], or [HW] / [doc] / [code] / [TH]) for the
// run's generation (model::timing_param_table). The basis is total unit time: the cycles of every
// core and DMA channel summed (CriticalPathShare below asks the same of the critical path; `npusim
// run --what-if sensitivity` each [est] parameter at half and double). Charged from the run's statistics:
//   kernel_call_overhead_cycles   kernel calls x its value
//   kernel and body cost models   the rest of the kernel cycles, and add_cycles (not a parameter)
//   stream / shim / tile rates    each channel's streaming cycles, to the rate that binds it (the
//                                 stream port when it is no faster than the channel; a tie: the port)
//   bd_setup_cycles               tile-DMA BDs x its value
//   shim task overheads           shim tasks per direction x its value
//   shim_task_dispatch_cycles     shim tasks x its value; the cold dispatch: its excess over the
//                                 pipelined one, once per shim channel that ran a task
//   ddr / memtile bandwidth       the cycles the shared path held transfers beyond their streams
// Not charged (no count kept; 1-10 cycles per event): lock acquire / release, runtime-sequence ops,
// route latency (inside the streaming cycles), cascade words. The host invocation latency is not
// array time: its share of the npu time is reported on its own.
// The critical-path part (CriticalPathShare) prices the run's own critical path instead
// (sim::CriticalPath, SimResult::critical_path): of the cycles that ended the run, how many each
// parameter or cost model priced; every parameter counts there, lock and runtime ops included, and
// waits on hand-offs that carry no chain (cascade, core stream ports, packet arbitration) are
// "not attributed".
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/TimingParams.hpp"
#include "npusim/sim/Simulator.hpp"

#include <string>
#include <vector>

namespace npusim::harness {

struct ParamCharge {
    std::string name; ///< a timing parameter, or "kernel cost models" / "worker body cycles"
    std::string tag; ///< "[est]", "[HW]", "[doc]", "[code]", "[TH]", or "[model]" for cost models
    double cycles = 0; ///< unit cycles charged to it
    double share = 0; ///< of all charged cycles
};

/// The run's critical path by what priced its cycles: shares of the run's cycles.
struct CriticalPathShare {
    std::vector<ParamCharge> charges; ///< largest first; only those with cycles ("not attributed": tag "")
    double cycles = 0; ///< the path's length: the run's cycles
    double est_share = 0; ///< priced by parameters tagged [est]
    double measured_share = 0; ///< by [HW] / [doc] / [code] / [TH] ones
    double model_share = 0; ///< by kernel and body cost models
    double unattributed_share = 0; ///< waits on hand-offs that carry no chain
};

struct TrustReport {
    std::vector<ParamCharge> charges; ///< largest first; only those charged
    double charged_cycles = 0; ///< the basis: all charged unit cycles
    double est_share = 0; ///< parameters tagged [est]
    double measured_share = 0; ///< parameters tagged [HW], [doc], [code] or [TH]
    double model_share = 0; ///< kernel and body cost models
    double host_share_of_npu_time = 0; ///< host_invocation_latency_us over one invocation's npu time
    std::string host_tag; ///< the tag of host_invocation_latency_us
    CriticalPathShare critical; ///< the same question asked of the critical path
};

/// The source tag a source string starts with ("[est]" for "[est] carried over ..."), or "" if none.
std::string source_tag(const std::string& source);

/// The critical-path shares of `path` (a run's SimResult::critical_path) under `timing`'s generation.
CriticalPathShare critical_path_share(const sim::CriticalPath& path, const model::TimingParams& timing);

/// The trust report of a run of `invocations` invocations on `dev` with `timing`.
TrustReport trust_report(const sim::SimResult& r, const model::DeviceSpec& dev, const model::TimingParams& timing);

} // namespace npusim::harness

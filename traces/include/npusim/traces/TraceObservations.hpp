#pragma once
// What a calibration compares between a hardware trace and the simulated run's trace (both in
// mlir-aie's format, MlirAieTraceReader): per trace unit and event slot, numbers that depend on
// timing but not on how events happen to be split.
//
//   * Pulse events (INSTR_EVENT_0/1 around each kernel call, INSTR_CALL/RETURN, lock requests, a
//     DMA's START_TASK / FINISHED_BD / FINISHED_TASK): the time of each one. Their number is fixed
//     by the design (calls, BDs, tasks), so they pair up one by one.
//   * INSTR_VECTOR (one span per kernel call): each span's length.
//   * Stall and activity slots (LOCK_STALL, DMA_*_STALLED_LOCK, CASCADE_STALL, PORT_RUNNING_n,
//     DMA_*_STREAM_*): the slot's total active cycles. How a stall is split into spans depends on
//     timing itself, so only the total pairs up.
//   * Slots npusim never fires (MEMORY_STALL, CONFLICT_DM_BANK_n, ...) and empty slots: nothing.
// Times are relative to the unit's first observed event: each unit's timer starts at 0 on the
// hardware (parse.py, convert_commands_to_json), so units share no time base.
//
// The observations of a trace of another design or another configuration do not pair up: a unit
// the run does not trace, a slot with another event, a different number of pulses or kernel calls.
// align_observations refuses such a trace with that reason (a DesignError).
#include "npusim/traces/MlirAieTraceReader.hpp"

#include <string>
#include <vector>

namespace npusim::traces {

/// What an observation measures; the calibration reports its residual per kind.
enum class ObservationKind { Kernel, Lock, Dma, NpuTime };
inline constexpr int kObservationKinds = 4;
/// "kernel spans", "lock stalls", "DMA activity", "NPU time"
const char* observation_kind_name(ObservationKind k);
/// The unit an observation's values are in: "cycles" (kernel, lock, DMA) or "us" (NPU time).
const char* observation_kind_unit(ObservationKind k);

struct Observation {
    std::string key; ///< "core tile2,0 INSTR_EVENT_1 #3": unit, event, index (or "total")
    ObservationKind kind = ObservationKind::Kernel;
    double value = 0;
};

/// The observations of a trace, in unit, slot, index order. With `measured`, only the slots that
/// trace records for the same unit count (t0 included): a simulated run traces the events its
/// design configures, a capture may record fewer.
std::vector<Observation> trace_observations(const MlirAieTraceFile& trace, const MlirAieTraceFile* measured = nullptr);

/// The simulated values for `measured`'s keys, in its order (the simulated trace's observations
/// over the slots the measured trace records; a slot it leaves empty, NONE, is not compared). Throws DesignError ("trace file F is
/// not a trace of WHAT: REASON") when the two do not describe the same traced units, slots and
/// numbers of events; `what` names the design, its parameters and the device.
std::vector<double> align_observations(const MlirAieTraceFile& measured_trace, const std::vector<Observation>& measured,
                                       const MlirAieTraceFile& simulated_trace, const std::string& what);

} // namespace npusim::traces

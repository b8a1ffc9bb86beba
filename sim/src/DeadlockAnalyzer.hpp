#pragma once
// DeadlockAnalyzer: turns the state of a stopped run into a Diagnosis and its report. For a
// deadlock it builds the wait-for graph (WaitGraphBuilder) and finds its cycles (WaitForGraph),
// follows the causal chain from the runtime sequence down to the root cause (CausalChain), names
// the case from the table of cases (DeadlockCases), and writes the report: case, chain, cycles,
// every blocked / idle / finished process, and the progress table. For a cycle or wall-clock limit
// it tells a livelock from a stall and writes the progress table. It reads only plain data
// (StoppedRun): it knows no process class and no SystemC.
#include "StoppedRun.hpp"
#include "npusim/sim/Diagnosis.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::sim {

class DeadlockAnalyzer {
public:
    DeadlockAnalyzer(const model::Netlist& net, std::vector<ProcessView> processes, std::vector<LinkView> links,
                     std::vector<LockView> locks, std::uint64_t cycle, std::vector<std::string> warnings);

    /// The run's event queue emptied before the runtime sequence finished.
    Diagnosis deadlock() const;
    /// The run reached its cycle limit (`max_cycles`) while events were still pending, or its
    /// wall-clock limit (`wall_seconds` > 0). `progress_cycle`: the last cycle the run moved host
    /// bytes or did sequence instructions (as far as the engine sampled it; 0: never). The case:
    /// progressing (it did so in the last tenth of the run: too slow for the limit), livelock
    /// (processes act, but it did not: they repeat without progress), stalled (nothing acts).
    Diagnosis limit(std::uint64_t max_cycles, double wall_seconds = 0, std::uint64_t progress_cycle = 0) const;

private:
    /// Every process that is not running, by state: what each blocked one waits on and who could
    /// release it, the idle and finished ones, and the streams whose sender waits for receivers.
    std::string flat_report() const;
    /// One row per process: state, steps done, last action; under it, its fifo ends and position.
    std::string progress_table() const;
    /// A diagnosis with what both triggers share: cycle, design, device, progress, warnings.
    Diagnosis base(Diagnosis::Trigger t) const;

    StoppedRun run_;
};

} // namespace npusim::sim

#pragma once
// Sweep (`npusim sweep`): one design run at every point of a parameter grid (the cartesian product
// of each swept parameter's values, on each chosen device), every point's outcome and simulated
// cycles in one table. Points run in forked worker processes (ForkPool: one per core by default,
// crash- and hang-proof) or serially in this process; across machines, tools/SweepCommand splits
// the points over MPI ranks and gathers the results. Same points, same outcomes either way.
#include "npusim/harness/RunOutcome.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace npusim::harness {

/// One configuration of a sweep: a device and the design's parameters there (all resolved).
struct SweepPoint {
    std::string device;
    Params params;
};

/// A swept parameter and its values (in the order given).
using SweepAxis = std::pair<std::string, std::vector<std::int64_t>>;

/// Every point, device-major then in the axes' order (the last axis fastest). Parameters not swept
/// keep their defaults. Throws DesignError for an unknown device or parameter, a device the design
/// does not run on, an axis given twice or without values, or more than `max_points` points.
std::vector<SweepPoint> sweep_points(const DesignSpec& spec, const std::vector<std::string>& devices,
                                     const std::vector<SweepAxis>& axes, std::size_t max_points = 100000);

struct SweepOptions {
    std::uint64_t seed = 1;
    KernelSet kernels = KernelSet::reference;
    std::uint64_t max_cycles = 0; ///< per simulation (0: none); reaching it is the status "limit"
    unsigned jobs = 0; ///< worker processes at a time; 0: the machine's hardware threads
    bool fork_workers = true; ///< off: serially in this process (no time limit)
    double timeout_seconds = 600; ///< wall time of one worker process before it is killed
    /// After each finished point: (points done, points in this call).
    std::function<void(std::size_t, std::size_t)> progress;
};

/// A point's result: its outcome and the wall time its run took.
struct SweepResult {
    RunOutcome outcome;
    double seconds = 0;
};

/// Runs `points` (results in the same order). Each point uses the device's own timing.
std::vector<SweepResult> run_sweep(const DesignSpec& spec, const std::vector<SweepPoint>& points,
                                   const SweepOptions& opts);

/// A result as text and back (worker pipes, MPI messages): encode(outcome) preceded by the seconds.
std::string encode(const SweepResult& r);
std::optional<SweepResult> decode_sweep_result(const std::string& s);

} // namespace npusim::harness

#pragma once
// The control state of one simulation run, owned by the engine and shared by every process of
// that run: the first error (recording it stops the simulation), warnings, whether the runtime
// sequence has finished, and whether the run is being torn down (processes then unwind).
#include "npusim/model/Error.hpp"

#include <optional>
#include <string>
#include <vector>

namespace npusim::sim {

/// Thrown into a process to unwind its stack: by RunControl::fail after recording an error, and
/// by every wait of a process while its run is being torn down. Caught by the process wrapper
/// (SimProcess::run_guarded), never by user code (kernel_call rethrows it).
struct ProcessAbort {};

class RunControl {
public:
    /// Record `err` if it is the first error of the run and stop the simulation.
    void record(SimulationError err);
    /// record(err), then unwind the calling process.
    [[noreturn]] void fail(SimulationError err);
    const std::optional<SimulationError>& error() const { return error_; }

    void warn(std::string w) { warnings_.push_back(std::move(w)); }
    const std::vector<std::string>& warnings() const { return warnings_; }

    /// The runtime sequence ran to its end: stop the simulation.
    void finish();
    bool finished() const { return finished_; }

    /// While set, every process wait throws ProcessAbort (the run is being torn down).
    bool terminating() const { return terminating_; }
    void set_terminating(bool t) { terminating_ = t; }

private:
    std::optional<SimulationError> error_;
    std::vector<std::string> warnings_;
    bool finished_ = false;
    bool terminating_ = false;
};

} // namespace npusim::sim

#pragma once
// The base of every simulated process (tile DMA channel, shim DMA channel, core, runtime
// controller): its name and state for reports, its clock, its trace track, and spawning it as a
// SystemC thread whose body runs inside the one error wrapper (run_guarded). An exception must
// never escape a SystemC process (SystemC's report handler would abort the program), so the
// wrapper catches everything and reports it through RunControl::record.
#include "ProcessClock.hpp"
#include "ProcessState.hpp"
#include "ProcessView.hpp"
#include "RunServices.hpp"

#include <cstddef>
#include <string>

namespace npusim::sim {

class SimProcess {
public:
    SimProcess(const RunServices& services, std::string name, model::CoreServices* owner = nullptr);
    virtual ~SimProcess() = default;
    SimProcess(const SimProcess&) = delete;
    SimProcess& operator=(const SimProcess&) = delete;

    /// Start the process as a SystemC thread with `stack_bytes` of stack. `basename` names the
    /// SystemC process (made unique unless `unique` is false).
    void spawn(std::size_t stack_bytes, const char* basename, bool unique = true);
    /// The process's body inside the error wrapper; what spawn runs.
    void run_guarded();

    const std::string& name() const { return ps_.name; }
    ProcessState& state() { return ps_; }
    const ProcessState& state() const { return ps_; }
    int track() const { return track_; }
    /// SystemC waits this process has made so far (each is two coroutine switches).
    std::uint64_t waits() const { return clk_.waits(); }
    /// What the deadlock analyzer sees of this process (its state, waits and progress).
    virtual ProcessView view() const = 0;

protected:
    /// What the process does; may throw anything.
    virtual void body() = 0;
    /// How errors of this process name it ("worker 'w'" for a core; its name otherwise).
    virtual std::string error_subject() const { return ps_.name; }
    /// Open this process's trace track (no-op without a sink).
    void open_track(TrackInfo::Kind kind, model::TileCoord tile);
    /// Open the trace track of a DMA channel (its tile, direction and number).
    void open_track(const model::StreamEndpoint& channel);
    /// Record `err` as the run's error and unwind this process.
    [[noreturn]] void fail(SimulationError err) { svc_.run.fail(std::move(err)); }
    /// A view with the fields every process has (state, last action), for view().
    ProcessView base_view(ProcessView::Kind kind) const;

    RunServices svc_;
    ProcessClock clk_;
    ProcessState ps_;
    int track_ = -1;
};

} // namespace npusim::sim

#pragma once
// The base of every simulated process (tile DMA channel, shim DMA channel, core, runtime
// controller): its name and state for reports, its clock, its trace track, and spawning it as a
// SystemC thread whose body runs inside the one error wrapper (run_guarded), or as a SystemC
// method (a state machine with no stack, each activation inside the same wrapper). An exception must
// never escape a SystemC process (SystemC's report handler would abort the program), so the
// wrapper catches everything and reports it through RunControl::record.
#include "ProcessClock.hpp"
#include "ProcessState.hpp"
#include "ProcessView.hpp"
#include "RunServices.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace npusim::sim {

class SimProcess {
public:
    SimProcess(const RunServices& services, std::string name, model::CoreServices* owner = nullptr);
    virtual ~SimProcess() = default;
    SimProcess(const SimProcess&) = delete;
    SimProcess& operator=(const SimProcess&) = delete;

    /// Start the process: as a SystemC method if it is one (is_method(), no stack: give none), else
    /// as a SystemC thread with `thread_stack_bytes` (> 0) of stack; std::logic_error (an
    /// invariant) otherwise. `basename` names the SystemC process (made unique unless `unique` is
    /// false).
    void spawn(const char* basename, std::size_t thread_stack_bytes = 0, bool unique = true);
    /// The process's body inside the error wrapper; what spawn runs.
    void run_guarded();
    /// A method process: a state machine whose activate() runs at the start and then whenever the
    /// trigger it named last (ProcessClock::trigger_for) comes. A thread process runs body().
    virtual bool is_method() const { return false; }

    const std::string& name() const { return ps_.name; }
    ProcessState& state() { return ps_; }
    const ProcessState& state() const { return ps_; }
    int track() const { return track_; }
    /// SystemC waits this process has made so far (each is two coroutine switches).
    std::uint64_t waits() const { return clk_.waits(); }
    /// Activations of a method process after a trigger (its waits; none for a thread).
    std::uint64_t activations() const { return clk_.activations(); }
    /// What the deadlock analyzer sees of this process (its state, waits and progress).
    virtual ProcessView view() const = 0;

protected:
    /// What a thread process does; may throw anything. Only a thread has a body.
    virtual void body() {
        throw std::logic_error("simulator invariant broken: spawned as a thread, but it is a method process. This is "
                               "a bug in npusim, not in the design; please report it with the design");
    }
    /// One activation of a method process: go on until it must wait, name the trigger and return.
    /// May throw anything; after a throw it never runs again. Only a method activates.
    virtual void activate() {
        throw std::logic_error("simulator invariant broken: spawned as a method, but it is a thread process. This "
                               "is a bug in npusim, not in the design; please report it with the design");
    }
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

private:
    /// Run `f` inside the error wrapper: what it throws is recorded as the run's error.
    template <class F>
    void guarded(F&& f);
    bool activated_once_ = false; ///< a method's first activation is its start, not a wake
};

} // namespace npusim::sim

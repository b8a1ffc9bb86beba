#include "SimProcess.hpp"

#include <exception>
#include <fmt/format.h>

namespace npusim::sim {

SimProcess::SimProcess(const RunServices& services, std::string name, model::CoreServices* owner)
    : svc_(services), clk_(services.run, owner) {
    ps_.name = std::move(name);
}

void SimProcess::open_track(TrackInfo::Kind kind, model::TileCoord tile) {
    track_ = svc_.tracks.add({kind, tile.col, tile.row, ps_.name});
}

void SimProcess::open_track(const model::StreamEndpoint& channel) {
    track_ = svc_.tracks.add(
        {TrackInfo::Kind::Dma, channel.tile.col, channel.tile.row, ps_.name, channel.channel, channel.dir});
}

template <class F>
void SimProcess::guarded(F&& f) {
    try {
        f();
    } catch (const ProcessAbort&) {
        // the run is being stopped (an error is recorded) or torn down
    } catch (const SimulationError& e) {
        svc_.run.record(e);
    } catch (const std::exception& e) {
        svc_.run.record(
            SimulationError(SimulationError::Kind::Protocol, fmt::format("{}: {}", error_subject(), e.what())));
    } catch (...) {
        svc_.run.record(SimulationError(SimulationError::Kind::Protocol,
                                        fmt::format("{}: body threw an unknown exception", error_subject())));
    }
}

void SimProcess::spawn(const char* basename, std::size_t thread_stack_bytes, bool unique) {
    if (is_method() == (thread_stack_bytes > 0))
        throw std::logic_error(fmt::format("{}: simulator invariant broken: spawned {} a stack, but it is a {} "
                                           "process. This is a bug in npusim, not in the design; please report it "
                                           "with the design",
                                           ps_.name, is_method() ? "with" : "without",
                                           is_method() ? "method" : "thread"));
    const char* name = unique ? sc_core::sc_gen_unique_name(basename) : basename;
    sc_core::sc_spawn_options o;
    if (is_method()) {
        o.spawn_method();
        sc_core::sc_spawn(
            [this] {
                guarded([this] {
                    if (activated_once_ && !clk_.activated()) return; // torn down: no trigger, never again
                    activated_once_ = true;
                    activate();
                });
            },
            name, &o);
        return;
    }
    o.set_stack_size(static_cast<int>(thread_stack_bytes));
    sc_core::sc_spawn([this] { run_guarded(); }, name, &o);
}

void SimProcess::run_guarded() {
    guarded([this] { body(); });
}

ProcessView SimProcess::base_view(ProcessView::Kind kind) const {
    ProcessView v;
    v.kind = kind;
    v.state = &ps_;
    auto& p = v.progress;
    p.process = ps_.name;
    using S = ProcessState::Status;
    switch (ps_.status) {
    case S::Running: p.state = ProcessProgress::State::Running; break;
    case S::WaitLock:
    case S::WaitStream:
    case S::WaitTask:
    case S::WaitCascade: p.state = ProcessProgress::State::Blocked; break;
    case S::Idle: p.state = ProcessProgress::State::Idle; break;
    case S::Done: p.state = ProcessProgress::State::Finished; break;
    }
    if (p.state == ProcessProgress::State::Blocked) p.waits_for = ps_.describe();
    p.last_action = ps_.last_action();
    p.last_cycle = ps_.last_cycle;
    return v;
}

} // namespace npusim::sim

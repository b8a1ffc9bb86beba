#include "SimEngine.hpp"

#include "CascadeLink.hpp"
#include "CoreProcess.hpp"
#include "InvariantChecker.hpp"
#include "PacketSwitch.hpp"
#include "RuntimeController.hpp"
#include "ShimDmaChannel.hpp"
#include "StreamLink.hpp"
#include "TileDmaChannel.hpp"
#include "npusim/model/NativeActivity.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <map>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace npusim::sim {

namespace {
std::vector<std::span<std::uint8_t>> views_of(std::vector<std::vector<std::uint8_t>>& host) {
    std::vector<std::span<std::uint8_t>> v;
    v.reserve(host.size());
    for (auto& h : host) v.emplace_back(h.data(), h.size());
    return v;
}
} // namespace

SimEngine::SimEngine(const model::Netlist& net, std::vector<std::vector<std::uint8_t>> host, const SimOptions& opts)
    : SimEngine(net, std::vector<std::span<std::uint8_t>>{}, opts, std::move(host)) {}

SimEngine::SimEngine(const model::Netlist& net, std::vector<std::span<std::uint8_t>> host, const SimOptions& opts)
    : SimEngine(net, std::move(host), opts, {}) {}

SimEngine::SimEngine(const model::Netlist& net, std::vector<std::span<std::uint8_t>> views, const SimOptions& opts,
                     std::vector<std::vector<std::uint8_t>> owned)
    : net_(net), host_(std::move(owned)), views_(host_.empty() ? std::move(views) : views_of(host_)), opts_(opts),
      canonical_(opts.trace ? std::make_unique<CanonicalTraceSink>(*opts.trace) : nullptr),
      tracks_(canonical_.get()), services_{run_, tracks_, opts_.timing}, memory_(net.buffers),
      ddr_("host memory (DDR)", opts.timing.ddr_bytes_per_cycle), board_(net.tasks.size()) {
    opts_.trace = canonical_.get(); // every event goes through the canonical order
    if (!net.device) throw SimulationError(SimulationError::Kind::Protocol, "netlist has no device");
    if (views_.size() != net.host_tensors.size())
        throw SimulationError(SimulationError::Kind::Mismatch,
                              fmt::format("design '{}' takes {} host tensors, {} were given", net.design,
                                          net.host_tensors.size(), views_.size()));
    for (std::size_t i = 0; i < views_.size(); ++i)
        if (views_[i].size() != net.host_tensors[i].bytes)
            throw SimulationError(SimulationError::Kind::Mismatch,
                                  fmt::format("design '{}': host tensor {} ({}) must be {} B, got {} B", net.design, i,
                                              net.host_tensors[i].name, net.host_tensors[i].bytes, views_[i].size()));
    if (opts_.scratchpad.size() > net.scratchpad_params.size())
        throw SimulationError(SimulationError::Kind::Mismatch,
                              fmt::format("design '{}' declares {} scratchpad parameter(s), {} scratchpad words were "
                                          "given",
                                          net.design, net.scratchpad_params.size(), opts_.scratchpad.size()));
    // SystemC takes a thread's stack size as an int: 2 GiB would overflow it (SystemC's E518).
    opts_.core_stack_bytes = std::clamp<std::size_t>(opts_.core_stack_bytes, kMinCoreStackBytes, kMaxCoreStackBytes);
    InvariantChecker::check_netlist(net_);
    build();
}

SimEngine::~SimEngine() {
    try {
        terminate_processes();
    } catch (...) {}
    ScContextGuard::restore_thread_stack();
    if (parts_.kernel_pool) parts_.kernel_pool->wait_all(); // the unwound cores joined theirs; nothing may outlive them
#if defined(__SANITIZE_ADDRESS__)
    // Exceptions that unwound SystemC coroutine stacks (QuickThreads, not annotated for ASan)
    // cannot have their frames unpoisoned by ASan; back on the main stack, clear what is stale.
    __asan_handle_no_return();
#endif
}

void SimEngine::terminate_processes() {
    run_.set_terminating(true);
    locks_.wake_all();
    for (auto& l : parts_.links) l->notify_posted();
    for (auto& sw : parts_.packet_switches) sw->wake_all();
    for (auto& l : parts_.cascades) l->wake_all();
    for (auto& c : parts_.tile_channels) c->wake_all();
    for (auto& c : parts_.shim_channels) c->wake_all();
    for (auto& [flow, in] : parts_.core_inputs) in->filled.notify(); // a core blocked in get_ss unwinds too
    board_.wake_all();
    // Every process wakes (at once or at the end of its current timed wait), sees the flag and
    // unwinds; the run then ends for lack of events.
    if (sc_core::sc_get_status() != sc_core::SC_STOPPED) sc_core::sc_start();
    ScContextGuard::restore_thread_stack();
}

void SimEngine::build() {
    Elaborator({net_, opts_, services_, memory_, locks_, ddr_, memtile_paths_, stats_, board_, views_,
                [this](std::uint32_t index, std::uint64_t begin, std::uint64_t end) {
                    InvocationResult inv;
                    inv.begin_cycle = begin;
                    inv.end_cycle = end;
                    if (opts_.invocations > 1 && index >= opts_.snapshot_from) {
                        inv.host.resize(views_.size());
                        for (std::size_t t = 0; t < views_.size(); ++t)
                            if (opts_.snapshot_tensors.empty() ||
                                std::find(opts_.snapshot_tensors.begin(), opts_.snapshot_tensors.end(),
                                          static_cast<int>(t)) != opts_.snapshot_tensors.end())
                                inv.host[t].assign(views_[t].begin(), views_[t].end());
                    }
                    invocations_.push_back(std::move(inv));
                }},
               parts_)
        .elaborate();
}

DeadlockAnalyzer SimEngine::analyzer() const {
    std::vector<ProcessView> views;
    std::map<const void*, int> index_of; // SimProcess* and StreamReceiver* -> view index
    for (const auto* p : parts_.processes) {
        index_of[p] = static_cast<int>(views.size());
        views.push_back(p->view());
    }
    for (std::size_t i = 0; i < parts_.cores.size(); ++i)
        views[static_cast<std::size_t>(index_of.at(parts_.cores[i].get()))].index = static_cast<int>(i);
    for (std::size_t i = 0; i < parts_.tile_channels.size(); ++i) {
        const auto* c = parts_.tile_channels[i].get();
        views[static_cast<std::size_t>(index_of.at(c))].index = static_cast<int>(i);
        index_of[static_cast<const StreamReceiver*>(c)] = index_of.at(c);
    }
    for (const auto& c : parts_.shim_channels)
        index_of[static_cast<const StreamReceiver*>(c.get())] = index_of.at(c.get());
    for (const auto& [fi, in] : parts_.core_inputs) // a core's input stream port stands for its core
        for (std::size_t i = 0; i < net_.cores.size(); ++i)
            if (net_.cores[i].stream_in == static_cast<int>(fi))
                index_of[static_cast<const StreamReceiver*>(in.get())] = index_of.at(parts_.cores[i].get());
    std::vector<LinkView> links;
    for (std::size_t i = 0; i < parts_.links.size(); ++i) {
        const auto& l = *parts_.links[i];
        LinkView v;
        v.label = l.label();
        v.sender = index_of.at(parts_.link_senders.at(i));
        for (const auto* r : l.receivers()) {
            v.receivers.push_back(index_of.at(r));
            v.posted.push_back(r->posted);
        }
        v.sender_waiting = l.sender_waiting();
        links.push_back(std::move(v));
    }
    // Packet flows: one link per source port of each switch, to the group's receivers, so the wait-for
    // graph follows a packet sender to the channels it waits for (and they to it).
    for (const auto& sw : parts_.packet_switches) {
        const auto& l = sw->link();
        for (const auto& src : sw->sources()) {
            int sender = -1;
            for (std::size_t k = 0; k < views.size(); ++k)
                if ((views[k].kind == ProcessView::Kind::TileDma || views[k].kind == ProcessView::Kind::ShimDma) &&
                    views[k].endpoint == src)
                    sender = static_cast<int>(k);
            if (sender < 0) continue;
            LinkView v;
            v.label = l.label();
            v.sender = sender;
            for (const auto* r : l.receivers()) {
                v.receivers.push_back(index_of.at(r));
                v.posted.push_back(r->posted);
            }
            v.sender_waiting = l.sender_waiting();
            links.push_back(std::move(v));
        }
    }
    std::vector<LockView> locks;
    for (std::size_t i = 0; i < locks_.size(); ++i) {
        const auto& l = locks_.at(static_cast<int>(i));
        locks.push_back({l.name(), l.where(), l.final_value(), l.last_releaser()});
    }
    return DeadlockAnalyzer(net_, std::move(views), std::move(links), std::move(locks), now_cycles(), run_.warnings());
}

// A run that fails still writes its trace: every process blocked at the failure gets a span
// "blocked: ..." from the cycle its wait began up to the failure cycle, so the timeline shows
// where each one stopped.
void SimEngine::close_trace_on_failure() {
    if (!opts_.trace) return;
    const auto end = now_cycles();
    try {
        for (const auto* p : parts_.processes) {
            const auto& ps = p->state();
            using S = ProcessState::Status;
            if (p->track() < 0 || (ps.status != S::WaitLock && ps.status != S::WaitStream && ps.status != S::WaitTask &&
                                   ps.status != S::WaitCascade))
                continue;
            opts_.trace->detailed_span(p->track(), TraceKind::Blocked, "blocked: " + ps.describe(),
                                       std::min(ps.since, end), end, {});
        }
        for (std::size_t i = 0; i < locks_.size(); ++i) locks_.at(static_cast<int>(i)).trace_pending();
        opts_.trace->finish(end);
        for (auto& w : opts_.trace->warnings()) run_.warn(std::move(w));
    } catch (const std::exception& e) {
        run_.warn(fmt::format("the trace could not be written after the failure: {}", e.what()));
    }
}

void SimEngine::throw_limit(std::uint64_t at) const {
    throw DiagnosedError(SimulationError::Kind::Limit,
                         std::make_shared<const Diagnosis>(analyzer().limit(at, 0, progress_cycle_)));
}

void SimEngine::note_progress() {
    std::uint64_t sum = parts_.controller->ops_done();
    for (const auto& c : parts_.shim_channels) sum += c->view().progress.bytes;
    if (sum != progress_sum_) {
        progress_sum_ = sum;
        progress_cycle_ = now_cycles();
    }
}

SimResult SimEngine::run() {
    std::uint64_t slice = opts_.progress && opts_.progress_interval_cycles ? opts_.progress_interval_cycles : 0;
    const double wall = opts_.wall_timeout_seconds;
    if (wall > 0) slice = slice ? std::min<std::uint64_t>(slice, 100'000) : 100'000;
    const std::uint64_t max = opts_.max_cycles;
    // A cycle limit alone runs in 20 slices too, so that its diagnosis knows when the run last
    // progressed (note_progress).
    if (max && !slice) slice = std::max<std::uint64_t>(max / 20, 1000);
    const auto started = std::chrono::steady_clock::now();
    bool wall_reached = false;
    auto report = [&](bool final) {
        if (!opts_.progress) return;
        SimProgress p;
        p.cycles = now_cycles();
        p.ops_done = parts_.controller->ops_done();
        p.ops_total = static_cast<std::uint64_t>(net_.sequence.size()) * std::max<std::uint32_t>(opts_.invocations, 1);
        p.bytes_moved = stats_.bytes_moved;
        p.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        p.final = final;
        opts_.progress(p);
    };
    if (!slice && !max) {
        sc_core::sc_start();
    } else {
        for (;;) {
            std::uint64_t step = slice ? slice : max;
            if (max) step = std::min(step, max - std::min(max, now_cycles()));
            if (step == 0) break;
            // Exit on starvation, so a deadlock keeps the cycle of its last event rather than the
            // slice's end; when the next event lies beyond the slice, move time to the slice's end.
            const std::uint64_t target = now_cycles() + step;
            sc_core::sc_start(cycles_to_time(step), sc_core::SC_EXIT_ON_STARVATION);
            if (!run_.finished() && !run_.error() && sc_core::sc_pending_activity() && now_cycles() < target)
                sc_core::sc_start(cycles_to_time(target - now_cycles()), sc_core::SC_RUN_TO_TIME);
            if (run_.finished() || run_.error() || !sc_core::sc_pending_activity()) break;
            note_progress();
            report(false);
            if (max && now_cycles() >= max) break;
            if (wall > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() >= wall) {
                wall_reached = true;
                break;
            }
        }
    }
    ScContextGuard::restore_thread_stack();
    // A stopped run (error, limit, deadlock) may leave a core waiting for its pooled call's end.
    if (parts_.kernel_pool) parts_.kernel_pool->wait_all();
    model::NativeActivity::leave();
    report(true);
    if (wall_reached && !run_.error() && !run_.finished()) {
        close_trace_on_failure();
        throw DiagnosedError(SimulationError::Kind::Limit,
                             std::make_shared<const Diagnosis>(analyzer().limit(max, wall, progress_cycle_)));
    }
    if (run_.error()) {
        close_trace_on_failure();
        throw *run_.error();
    }
    // A run that ended without a protocol or kernel error (finished, deadlocked or at a limit) keeps
    // the simulator's invariants; after such an error the run stopped mid-step and they need not.
    InvariantChecker::check_end(net_, parts_.links, locks_);
    InvariantChecker::check_cascades(net_, parts_.cascades);
    if (!run_.finished()) {
        const bool limit = sc_core::sc_pending_activity() && max && now_cycles() >= max;
        std::shared_ptr<const Diagnosis> diagnosis;
        if (!limit) diagnosis = std::make_shared<const Diagnosis>(analyzer().deadlock());
        close_trace_on_failure();
        if (limit) throw_limit(max);
        throw DiagnosedError(SimulationError::Kind::Deadlock, diagnosis);
    }
    SimResult r;
    r.cycles = now_cycles();
    r.critical_path = parts_.controller->critical_path();
    r.critical_path.settle(r.cycles);
    for (auto& c : parts_.cores) r.cores.push_back(c->stats());
    for (auto& c : parts_.tile_channels) {
        ChannelStats s;
        s.channel = {c->program().tile, c->program().dir, c->program().channel};
        s.label = c->program().prov.describe();
        s.bytes = c->bytes();
        s.bds = c->bds_done();
        s.active_cycles = c->time().active;
        s.stream_stall_cycles = c->time().stream_stall;
        s.lock_stall_cycles = c->time().lock_stall;
        s.peak_bytes_per_cycle = std::min(c->bytes_per_cycle, opts_.timing.stream_bytes_per_cycle);
        r.channels.push_back(std::move(s));
    }
    for (auto& c : parts_.shim_channels) {
        ChannelStats s;
        s.channel = c->endpoint();
        s.label = "shim";
        s.bytes = c->bytes();
        s.bds = c->tasks_done();
        s.active_cycles = c->time().active;
        s.stream_stall_cycles = c->time().stream_stall;
        s.lock_stall_cycles = c->time().lock_stall;
        s.peak_bytes_per_cycle = std::min(c->bytes_per_cycle, opts_.timing.stream_bytes_per_cycle);
        r.shim_tasks += c->tasks_done();
        r.channels.push_back(std::move(s));
    }
    auto path_stats = [](const SharedBandwidth& p) {
        return SharedPathStats{p.label(), p.bytes(), p.bytes_per_cycle(), p.delay_cycles()};
    };
    if (ddr_.bytes()) r.shared_paths.push_back(path_stats(ddr_));
    for (const auto& [tile, p] : memtile_paths_) r.shared_paths.push_back(path_stats(p));
    r.queue_waits = parts_.controller->queue_waits();
    for (const auto* p : parts_.processes) {
        r.scheduler_waits += p->waits();
        r.scheduler_activations += p->activations();
    }
    r.invocations = std::move(invocations_);
    r.bytes_moved = stats_.bytes_moved;
    r.bd_transfers = stats_.bd_transfers;
    if (opts_.trace) {
        for (std::size_t i = 0; i < locks_.size(); ++i) locks_.at(static_cast<int>(i)).trace_pending();
        opts_.trace->finish(r.cycles);
        for (auto& w : opts_.trace->warnings()) run_.warn(std::move(w));
    }
    r.warnings = run_.warnings();
    r.host = std::move(host_);
    return r;
}

SimResult simulate(const model::Netlist& net, std::vector<std::vector<std::uint8_t>> host, const SimOptions& opts) {
    SimEngine engine(net, std::move(host), opts);
    return engine.run();
}

SimResult simulate_in_place(const model::Netlist& net, std::vector<std::span<std::uint8_t>> host,
                            const SimOptions& opts) {
    for (std::size_t i = 0; i < host.size(); ++i)
        for (std::size_t j = i + 1; j < host.size(); ++j) {
            const auto *a = host[i].data(), *b = host[j].data();
            if (!host[i].empty() && !host[j].empty() && a < b + host[j].size() && b < a + host[i].size())
                throw SimulationError(SimulationError::Kind::Mismatch,
                                      fmt::format("design '{}': host tensors {} and {} overlap in memory (each "
                                                  "tensor of a run needs memory of its own)",
                                                  net.design, i, j));
        }
    SimEngine engine(net, std::move(host), opts);
    return engine.run();
}

} // namespace npusim::sim

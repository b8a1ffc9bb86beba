#include "SimEngine.hpp"

#include "CoreProcess.hpp"
#include "RuntimeController.hpp"
#include "SemaphoreLock.hpp"
#include "ShimDmaChannel.hpp"
#include "StreamLink.hpp"
#include "TileDmaChannel.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <set>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace npusim::sim {


ScContextGuard::ScContextGuard() {
    // No banner, no "simulation stopped" notes: npusim's output is its own.
    setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    ctx_ = new sc_core::sc_simcontext();
    sc_core::sc_curr_simcontext = ctx_;
    sc_core::sc_default_global_context = ctx_;
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
    sc_core::sc_set_stop_mode(sc_core::SC_STOP_IMMEDIATE);
}

ScContextGuard::~ScContextGuard() {
    sc_core::sc_curr_simcontext = nullptr;
    sc_core::sc_default_global_context = nullptr;
    delete ctx_;
}

SimEngine::SimEngine(const model::Netlist& net, std::vector<std::vector<std::uint8_t>> host, const SimOptions& opts)
    : net_(net), host_(std::move(host)), opts_(opts) {
    if (!net.device) throw SimulationError(SimulationError::Kind::Protocol, "netlist has no device");
    if (host_.size() != net.host_tensors.size())
        throw SimulationError(SimulationError::Kind::Mismatch,
                              fmt::format("design '{}' takes {} host tensors, {} were given", net.design,
                                          net.host_tensors.size(), host_.size()));
    for (std::size_t i = 0; i < host_.size(); ++i)
        if (host_[i].size() != net.host_tensors[i].bytes)
            throw SimulationError(SimulationError::Kind::Mismatch,
                                  fmt::format("design '{}': host tensor {} ({}) must be {} B, got {} B", net.design, i,
                                              net.host_tensors[i].name, net.host_tensors[i].bytes, host_[i].size()));
    if (opts_.core_stack_bytes < (1u << 20)) opts_.core_stack_bytes = 1u << 20;
    ProcessClock::terminating = false;
    build();
}

SimEngine::~SimEngine() {
    try {
        terminate_processes();
    } catch (...) {
    }
    ProcessClock::terminating = false;
#if defined(__SANITIZE_ADDRESS__)
    // Exceptions that unwound SystemC coroutine stacks (QuickThreads, not annotated for ASan)
    // cannot have their frames unpoisoned by ASan; back on the main stack, clear what is stale.
    __asan_handle_no_return();
#endif
}

void SimEngine::terminate_processes() {
    ProcessClock::terminating = true;
    for (auto& l : locks_) l->wake_all();
    for (auto& l : links_) l->notify_posted();
    for (auto& c : tile_channels_) c->wake_all();
    for (auto& c : shim_channels_) c->wake_all();
    task_event_.notify();
    // Every process wakes (at once or at the end of its current timed wait), sees the flag and
    // unwinds; the run then ends for lack of events.
    if (sc_core::sc_get_status() != sc_core::SC_STOPPED) sc_core::sc_start();
}

std::uint8_t* SimEngine::tile_memory(model::TileCoord t) {
    auto it = memory_.find(t);
    if (it == memory_.end()) {
        // Only the extent the netlist's buffers use (every access is within a buffer: BD patterns
        // are bounds-checked, core rings and buffers point at buffer bases), so an array of
        // mostly empty 512 KiB mem tiles does not cost its full size in zeroed pages.
        std::uint32_t extent = 4;
        for (const auto& b : net_.buffers)
            if (b.tile == t) extent = std::max(extent, b.address + b.bytes);
        it = memory_.emplace(t, std::vector<std::uint8_t>(extent, 0)).first;
    }
    return it->second.data();
}

int SimEngine::add_track(TrackInfo info) {
    const int id = tracks_++;
    if (opts_.trace) opts_.trace->add_track(id, info);
    return id;
}

void SimEngine::fail(SimulationError err) {
    if (!error_) error_ = std::move(err);
    sc_core::sc_pause();
    throw ProcessAbort{};
}

ShimDmaChannel* SimEngine::shim_channel(const model::StreamEndpoint& e) {
    for (auto& c : shim_channels_)
        if (c->endpoint() == e) return c.get();
    return nullptr;
}

void SimEngine::task_done(int task) {
    task_done_.at(static_cast<std::size_t>(task)) = true;
    task_event_.notify();
}

void SimEngine::controller_finished() {
    finished_ = true;
    sc_core::sc_pause();
}

void SimEngine::build() {
    const auto& dev = *net_.device;
    for (const auto& b : net_.buffers) {
        auto* mem = tile_memory(b.tile);
        if (!b.init.empty()) std::memcpy(mem + b.address, b.init.data(), std::min<std::size_t>(b.init.size(), b.bytes));
    }
    for (std::size_t i = 0; i < net_.locks.size(); ++i) {
        const auto& l = net_.locks[i];
        int track = -1;
        if (opts_.trace) track = add_track({TrackInfo::Kind::Lock, l.tile.col, l.tile.row, l.name});
        locks_.push_back(std::make_unique<SemaphoreLock>(*this, static_cast<int>(i), l.name, model::to_string(l.tile), l.init,
                                                         dev.resources(l.tile).lock_max_value, track));
        if (track >= 0) opts_.trace->counter(track, 0, l.init);
    }
    for (const auto& ch : net_.channels) tile_channels_.push_back(std::make_unique<TileDmaChannel>(*this, ch));
    auto tile_channel = [&](const model::StreamEndpoint& e) -> TileDmaChannel* {
        for (auto& c : tile_channels_)
            if (c->program().tile == e.tile && c->program().dir == e.dir && c->program().channel == e.channel) return c.get();
        return nullptr;
    };
    auto shim = [&](const model::StreamEndpoint& e) -> ShimDmaChannel* {
        if (auto* c = shim_channel(e)) return c;
        shim_channels_.push_back(std::make_unique<ShimDmaChannel>(*this, e));
        return shim_channels_.back().get();
    };
    for (const auto& f : net_.flows) {
        std::vector<StreamReceiver*> rx;
        for (const auto& d : f.dests) {
            StreamReceiver* r = dev.kind_at(d.tile) == model::TileKind::Shim ? static_cast<StreamReceiver*>(shim(d))
                                                                             : static_cast<StreamReceiver*>(tile_channel(d));
            if (!r)
                throw SimulationError(SimulationError::Kind::Protocol,
                                      fmt::format("flow {}: destination {} has no DMA channel program", f.prov.describe(),
                                                  model::to_string(d)));
            rx.push_back(r);
        }
        int hops = 0;
        for (std::size_t i = 0; i < f.dests.size(); ++i) hops = std::max(hops, f.switch_hops(i));
        const auto latency = static_cast<std::uint32_t>(hops) * opts_.timing.switch_hop_latency_cycles;
        const bool src_shim = dev.kind_at(f.source.tile) == model::TileKind::Shim;
        const double rate = src_shim ? opts_.timing.shim_dma_bytes_per_cycle : opts_.timing.tile_dma_bytes_per_cycle;
        links_.push_back(std::make_unique<StreamLink>(*this, f.prov.describe(), rx, rate, latency));
        if (src_shim) {
            shim(f.source)->set_link(links_.back().get());
        } else if (auto* c = tile_channel(f.source)) {
            c->set_link(links_.back().get());
        } else {
            throw SimulationError(SimulationError::Kind::Protocol,
                                  fmt::format("flow {}: source {} has no DMA channel program", f.prov.describe(),
                                              model::to_string(f.source)));
        }
        for (std::size_t i = 0; i < f.dests.size(); ++i) {
            if (dev.kind_at(f.dests[i].tile) == model::TileKind::Shim) shim(f.dests[i])->set_link(links_.back().get());
            else tile_channel(f.dests[i])->set_link(links_.back().get());
        }
    }
    for (const auto& c : net_.cores) cores_.push_back(std::make_unique<CoreProcess>(*this, c));
    controller_ = std::make_unique<RuntimeController>(*this);
    task_done_.assign(net_.tasks.size(), false);

    const std::size_t dma_stack = 64 * 1024;   // DMA and controller processes run no user code
    for (auto& c : tile_channels_) c->spawn(dma_stack);
    for (auto& c : shim_channels_) c->spawn(dma_stack);
    for (auto& c : cores_) c->spawn(opts_.core_stack_bytes);
    controller_->spawn(dma_stack);
}

std::string SimEngine::deadlock_report() const {
    std::string out = fmt::format("deadlock at cycle {} in design '{}' on {}: no process can make progress\n", now_cycles(),
                                  net_.design, net_.device->name);
    // Who releases each lock (from the netlist), to say who could unblock a waiter.
    auto releasers = [&](int lock) {
        std::set<std::string> who;
        for (const auto& ch : net_.channels)
            for (const auto& bd : ch.bds)
                if (bd.release_lock == lock)
                    who.insert(fmt::format("DMA {} {} {}", model::to_string(ch.tile), model::direction_name(ch.dir), ch.channel));
        for (const auto& c : net_.cores)
            for (const auto& r : c.rings)
                if (r.release_lock == lock) who.insert(fmt::format("worker '{}'", c.worker));
        std::string s;
        for (const auto& w : who) s += (s.empty() ? "" : ", ") + w;
        return s.empty() ? std::string("nobody") : s;
    };
    out += "blocked:\n";
    int blocked = 0;
    for (const auto* ps : processes_) {
        using S = ProcessState::Status;
        if (ps->status == S::Done || ps->status == S::Idle || ps->status == S::Running) continue;
        ++blocked;
        out += fmt::format("  {}", ps->name);
        switch (ps->status) {
        case S::WaitLock: {
            const auto& l = *locks_[static_cast<std::size_t>(ps->lock)];
            out += fmt::format(": {}\n      waits on lock {} on {} {} {} (value now {}); released by {}", ps->describe(),
                               l.name(), l.where(), ps->equal ? "==" : ">=", ps->want, l.final_value(), releasers(ps->lock));
            if (!l.last_releaser().empty()) out += fmt::format("; last released by {}", l.last_releaser());
            break;
        }
        case S::WaitStream: out += fmt::format(": {}\n      waits for its stream peer", ps->describe()); break;
        case S::WaitTask: out += fmt::format(": {}", ps->describe()); break;
        default: break;
        }
        out += "\n";
    }
    if (blocked == 0) out += "  (none)\n";
    std::string idle;
    for (const auto* ps : processes_)
        if (ps->status == ProcessState::Status::Idle) idle += fmt::format("  {}: no task queued\n", ps->name);
    if (!idle.empty()) out += "idle:\n" + idle;
    // Stream links whose sender waits for receivers.
    for (const auto& l : links_)
        if (l->sender_waiting()) {
            std::string missing;
            for (auto* r : l->receivers())
                if (!r->posted) missing += (missing.empty() ? "" : ", ") + r->label();
            out += fmt::format("stream of {}: the sender waits for {} to take data\n", l->label(), missing);
        }
    return out;
}

void SimEngine::throw_limit(std::uint64_t at) const {
    throw SimulationError(SimulationError::Kind::Limit,
                          fmt::format("design '{}' on {}: reached the cycle limit of {} cycles before the runtime sequence "
                                      "finished (--max-cycles)",
                                      net_.design, net_.device->name, at));
}

SimResult SimEngine::run() {
    const std::uint64_t slice = opts_.progress && opts_.progress_interval_cycles ? opts_.progress_interval_cycles : 0;
    const std::uint64_t max = opts_.max_cycles;
    if (!slice && !max) {
        sc_core::sc_start();
    } else {
        for (;;) {
            std::uint64_t step = slice ? slice : max;
            if (max) step = std::min(step, max - std::min(max, now_cycles()));
            if (step == 0) break;
            sc_core::sc_start(cycles_to_time(step), sc_core::SC_RUN_TO_TIME);
            if (finished_ || error_ || !sc_core::sc_pending_activity()) break;
            if (opts_.progress) opts_.progress(now_cycles());
            if (max && now_cycles() >= max) break;
        }
    }
    if (error_) throw *error_;
    if (!finished_) {
        if (sc_core::sc_pending_activity() && max && now_cycles() >= max) throw_limit(max);
        throw SimulationError(SimulationError::Kind::Deadlock, deadlock_report());
    }
    SimResult r;
    r.cycles = now_cycles();
    for (auto& c : cores_) r.cores.push_back(c->stats());
    for (auto& c : tile_channels_) {
        ChannelStats s;
        s.channel = {c->program().tile, c->program().dir, c->program().channel};
        s.label = c->program().prov.describe();
        s.bytes = c->bytes();
        s.bds = c->bds_done();
        s.active_cycles = c->active_cycles();
        r.channels.push_back(std::move(s));
    }
    for (auto& c : shim_channels_) {
        ChannelStats s;
        s.channel = c->endpoint();
        s.label = "shim";
        s.bytes = c->bytes();
        s.bds = c->tasks_done();
        s.active_cycles = c->active_cycles();
        r.shim_tasks += c->tasks_done();
        r.channels.push_back(std::move(s));
    }
    r.bytes_moved = bytes_moved_;
    r.bd_transfers = bd_transfers_;
    std::size_t pending = 0;
    for (bool d : task_done_) pending += d ? 0 : 1;
    if (pending)
        warnings_.push_back(fmt::format("{} shim task(s) had not completed when the runtime sequence ended (not awaited)", pending));
    r.warnings = warnings_;
    if (opts_.trace) opts_.trace->finish(r.cycles);
    r.host = std::move(host_);
    return r;
}

SimResult simulate(const model::Netlist& net, std::vector<std::vector<std::uint8_t>> host, const SimOptions& opts) {
    SimEngine engine(net, std::move(host), opts);
    return engine.run();
}

} // namespace npusim::sim

// libsystemc references sc_main from its own main(); npusim has its own main() and never calls
// SystemC's, so this definition only satisfies the linker.
int sc_main(int, char**) { return 0; }

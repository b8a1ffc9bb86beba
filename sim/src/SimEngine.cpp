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
#include "npusim/model/NetlistRelations.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <map>
#include <thread>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace npusim::sim {

SimEngine::SimEngine(const model::Netlist& net, std::vector<std::vector<std::uint8_t>> host, const SimOptions& opts)
    : net_(net), host_(std::move(host)), opts_(opts),
      canonical_(opts.trace ? std::make_unique<CanonicalTraceSink>(*opts.trace) : nullptr),
      tracks_(canonical_.get()), services_{run_, tracks_, opts_.timing}, memory_(net.buffers),
      ddr_("host memory (DDR)", opts.timing.ddr_bytes_per_cycle), board_(net.tasks.size()) {
    opts_.trace = canonical_.get(); // every event goes through the canonical order
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
    if (opts_.scratchpad.size() > net.scratchpad_params.size())
        throw SimulationError(SimulationError::Kind::Mismatch,
                              fmt::format("design '{}' declares {} scratchpad parameter(s), {} scratchpad words were "
                                          "given",
                                          net.design, net.scratchpad_params.size(), opts_.scratchpad.size()));
    if (opts_.core_stack_bytes < (1u << 20)) opts_.core_stack_bytes = 1u << 20;
    InvariantChecker::check_netlist(net_);
    build();
}

SimEngine::~SimEngine() {
    try {
        terminate_processes();
    } catch (...) {}
    ScContextGuard::restore_thread_stack();
    if (kernel_pool_) kernel_pool_->wait_all(); // the unwound cores joined theirs; nothing may outlive them
#if defined(__SANITIZE_ADDRESS__)
    // Exceptions that unwound SystemC coroutine stacks (QuickThreads, not annotated for ASan)
    // cannot have their frames unpoisoned by ASan; back on the main stack, clear what is stale.
    __asan_handle_no_return();
#endif
}

void SimEngine::terminate_processes() {
    run_.set_terminating(true);
    locks_.wake_all();
    for (auto& l : links_) l->notify_posted();
    for (auto& sw : packet_switches_) sw->wake_all();
    for (auto& l : cascades_) l->wake_all();
    for (auto& c : tile_channels_) c->wake_all();
    for (auto& c : shim_channels_) c->wake_all();
    for (auto& [flow, in] : core_inputs_) in->filled.notify(); // a core blocked in get_ss unwinds too
    board_.wake_all();
    // Every process wakes (at once or at the end of its current timed wait), sees the flag and
    // unwinds; the run then ends for lack of events.
    if (sc_core::sc_get_status() != sc_core::SC_STOPPED) sc_core::sc_start();
    ScContextGuard::restore_thread_stack();
}

ShimDmaChannel* SimEngine::shim_channel(const model::StreamEndpoint& e) {
    for (auto& c : shim_channels_)
        if (c->endpoint() == e) return c.get();
    return nullptr;
}

// Packet flows connected through a shared port (a source or a destination) form one group: one
// PacketSwitch whose stream reaches every destination of the group.
void SimEngine::build_packet_switches(const std::function<ShimDmaChannel*(const model::StreamEndpoint&)>& shim,
                                      const std::function<TileDmaChannel*(int)>& tile_channel) {
    const auto& dev = *net_.device;
    const auto& pfs = net_.packet_flows;
    if (pfs.empty()) return;
    std::vector<std::size_t> group(pfs.size());
    for (std::size_t i = 0; i < pfs.size(); ++i) group[i] = i;
    auto find = [&](std::size_t i) {
        while (group[i] != i) i = group[i] = group[group[i]];
        return i;
    };
    for (std::size_t a = 0; a < pfs.size(); ++a)
        for (std::size_t b = a + 1; b < pfs.size(); ++b) {
            bool shared = pfs[a].source == pfs[b].source;
            for (const auto& d : pfs[a].dests)
                shared = shared || std::find(pfs[b].dests.begin(), pfs[b].dests.end(), d) != pfs[b].dests.end();
            if (shared) group[find(a)] = find(b);
        }
    auto channel_index = [&](const model::StreamEndpoint& e) {
        for (std::size_t i = 0; i < net_.channels.size(); ++i)
            if (net_.channels[i].tile == e.tile && net_.channels[i].dir == e.dir &&
                net_.channels[i].channel == e.channel)
                return static_cast<int>(i);
        return -1;
    };
    auto receiver = [&](const model::PacketFlowRoute& f, const model::StreamEndpoint& d) -> StreamReceiver* {
        StreamReceiver* r = dev.kind_at(d.tile) == model::TileKind::Shim
                                ? static_cast<StreamReceiver*>(shim(d))
                                : static_cast<StreamReceiver*>(tile_channel(channel_index(d)));
        if (!r)
            throw SimulationError(SimulationError::Kind::Protocol,
                                  fmt::format("packet flow {}: destination {} has no DMA channel program",
                                              f.prov.describe(), model::to_string(d)));
        return r;
    };
    for (std::size_t root = 0; root < pfs.size(); ++root) {
        if (find(root) != root) continue;
        std::vector<std::size_t> members;
        for (std::size_t i = 0; i < pfs.size(); ++i)
            if (find(i) == root) members.push_back(i);
        std::vector<StreamReceiver*> rx;
        std::vector<model::StreamEndpoint> rx_ends;
        int hops = 0;
        bool to_shim = false;
        for (auto i : members)
            for (std::size_t k = 0; k < pfs[i].dests.size(); ++k) {
                const auto& d = pfs[i].dests[k];
                hops = std::max(hops, static_cast<int>(pfs[i].paths.at(k).size()));
                if (std::find(rx_ends.begin(), rx_ends.end(), d) != rx_ends.end()) continue;
                rx_ends.push_back(d);
                rx.push_back(receiver(pfs[i], d));
                to_shim = to_shim || dev.kind_at(d.tile) == model::TileKind::Shim;
            }
        auto link = std::make_unique<StreamLink>(
            opts_.timing, stats_, fmt::format("packet flows of {}", pfs[members.front()].prov.describe()), rx,
            opts_.timing.tile_dma_bytes_per_cycle,
            static_cast<std::uint32_t>(hops) * opts_.timing.switch_hop_latency_cycles);
        if (to_shim) link->add_shared(&ddr_);
        packet_switches_.push_back(std::make_unique<PacketSwitch>(std::move(link)));
        auto& sw = *packet_switches_.back();
        for (std::size_t k = 0; k < rx_ends.size(); ++k) {
            if (dev.kind_at(rx_ends[k].tile) == model::TileKind::Shim)
                shim(rx_ends[k])->set_link(&sw.link());
            else
                tile_channel(channel_index(rx_ends[k]))->set_link(&sw.link());
        }
        for (auto i : members) {
            const auto& f = pfs[i];
            auto* src = tile_channel(channel_index(f.source));
            if (!src)
                throw SimulationError(SimulationError::Kind::Protocol,
                                      fmt::format("packet flow {}: source {} has no DMA channel program",
                                                  f.prov.describe(), model::to_string(f.source)));
            const int s = sw.add_source(f.source);
            src->set_packet_port(&sw, s);
            std::vector<StreamReceiver*> dests;
            for (const auto& d : f.dests) dests.push_back(receiver(f, d));
            sw.add_route(s, f.packet_id, std::move(dests), f.keep_pkt_header);
        }
    }
}

void SimEngine::build() {
    const auto& dev = *net_.device;
    if (opts_.trace)
        opts_.trace->begin_run({net_.design, dev.name, dev.arch, opts_.timing.clock_mhz,
                                net_.trace.enabled ? &net_.trace : nullptr, &net_, &opts_.timing});
    for (const auto& b : net_.buffers) {
        auto* mem = memory_.of(b.tile);
        if (!b.init.empty()) std::memcpy(mem + b.address, b.init.data(), std::min<std::size_t>(b.init.size(), b.bytes));
    }
    const auto actors = opts_.lock_run_ahead ? model::lock_actors(net_) : std::vector<model::LockActors>{};
    for (std::size_t i = 0; i < net_.locks.size(); ++i) {
        const auto& l = net_.locks[i];
        int track = -1;
        if (opts_.trace) track = tracks_.add({TrackInfo::Kind::Lock, l.tile.col, l.tile.row, l.name});
        locks_.add(std::make_unique<SemaphoreLock>(services_, static_cast<int>(i), l.name, model::to_string(l.tile),
                                                   l.init, dev.resources(l.tile).lock_max_value, track));
        if (!actors.empty()) locks_.at(static_cast<int>(i)).set_run_ahead(model::one_acquirer_one_releaser(actors[i]));
        if (track >= 0) opts_.trace->counter(track, 0, l.init);
    }
    const TileDmaServices dma{services_, net_.buffers, memory_, locks_, stats_};
    for (const auto& ch : net_.channels) {
        tile_channels_.push_back(std::make_unique<TileDmaChannel>(dma, ch));
        processes_.push_back(tile_channels_.back().get());
    }
    const ShimDmaServices shim_services{services_, net_.tasks, host_, board_, stats_, dev.task_queue_depth};
    auto shim = [&](const model::StreamEndpoint& e) -> ShimDmaChannel* {
        if (auto* c = shim_channel(e)) return c;
        shim_channels_.push_back(std::make_unique<ShimDmaChannel>(shim_services, e));
        processes_.push_back(shim_channels_.back().get());
        return shim_channels_.back().get();
    };
    // A flow's ends are channels of the netlist (link_ends); tile_channels_ is in netlist order.
    auto tile_channel = [&](int index) -> TileDmaChannel* {
        return index < 0 ? nullptr : tile_channels_[static_cast<std::size_t>(index)].get();
    };
    const auto ends = model::link_ends(net_);
    for (std::size_t fi = 0; fi < net_.flows.size(); ++fi) {
        const auto& f = net_.flows[fi];
        const auto& e = ends[fi];
        std::vector<StreamReceiver*> rx;
        if (f.to_core) {
            // An aie_stream consumer end: the core's input stream port receives (one destination,
            // ObjectFifoCreateOp::verify "`aie_stream` can only be used in 1-to-1 object FIFOs").
            auto& in = core_inputs_[fi];
            in = std::make_unique<CoreStreamInput>(fmt::format("{} at {} Core {}", f.prov.describe(),
                                                               model::to_string(f.dests.at(0).tile),
                                                               f.dests.at(0).channel),
                                                   opts_.timing.stream_bytes_per_cycle);
            rx.push_back(in.get());
        }
        for (std::size_t i = 0; i < e.consumers.size() && !f.to_core; ++i) {
            const auto& d = e.consumers[i];
            StreamReceiver* r = dev.kind_at(d.tile) == model::TileKind::Shim
                                    ? static_cast<StreamReceiver*>(shim(d))
                                    : static_cast<StreamReceiver*>(tile_channel(e.consumer_channels[i]));
            if (!r)
                throw SimulationError(SimulationError::Kind::Protocol,
                                      fmt::format("flow {}: destination {} has no DMA channel program",
                                                  f.prov.describe(), model::to_string(d)));
            rx.push_back(r);
        }
        int hops = 0;
        for (std::size_t i = 0; i < f.dests.size(); ++i) hops = std::max(hops, f.switch_hops(i));
        // A core's stream port offers one word per send, and the link charges the route latency on
        // the first chunk of each send: charged per word it would serialise the pipelined route, so
        // a core-sourced flow moves its words at the port's rate without it [est: the first word
        // arrives `hops` switch latencies early].
        const auto latency =
            f.from_core ? 0u : static_cast<std::uint32_t>(hops) * opts_.timing.switch_hop_latency_cycles;
        const bool src_shim = dev.kind_at(e.producer.tile) == model::TileKind::Shim;
        const double rate = f.from_core ? opts_.timing.stream_bytes_per_cycle
                            : src_shim  ? opts_.timing.shim_dma_bytes_per_cycle
                                        : opts_.timing.tile_dma_bytes_per_cycle;
        links_.push_back(std::make_unique<StreamLink>(opts_.timing, stats_, f.prov.describe(), rx, rate, latency));
        const bool to_shim = std::any_of(e.consumers.begin(), e.consumers.end(), [&](const model::StreamEndpoint& d) {
            return dev.kind_at(d.tile) == model::TileKind::Shim;
        });
        if (src_shim || to_shim) links_.back()->add_shared(&ddr_);
        // A mem tile's channels share its banks: the source's read and each destination's write.
        auto memtile_path = [&](model::TileCoord t) -> SharedBandwidth* {
            if (dev.kind_at(t) != model::TileKind::Mem) return nullptr;
            auto it = memtile_paths_.find(t);
            if (it == memtile_paths_.end())
                it = memtile_paths_
                         .try_emplace(t, fmt::format("mem tile {} banks", model::to_string(t)),
                                      opts_.timing.memtile_memory_bytes_per_cycle)
                         .first;
            return &it->second;
        };
        if (auto* p = memtile_path(e.producer.tile)) links_.back()->add_shared(p);
        for (const auto& d : e.consumers)
            if (auto* p = memtile_path(d.tile)) links_.back()->add_shared(p);
        if (f.from_core) {
            link_senders_.push_back(nullptr); // the core, once the cores exist (below)
        } else if (src_shim) {
            shim(e.producer)->set_link(links_.back().get());
            link_senders_.push_back(shim(e.producer));
        } else if (auto* c = tile_channel(e.producer_channel)) {
            c->set_link(links_.back().get());
            link_senders_.push_back(c);
        } else {
            throw SimulationError(SimulationError::Kind::Protocol,
                                  fmt::format("flow {}: source {} has no DMA channel program", f.prov.describe(),
                                              model::to_string(e.producer)));
        }
        for (std::size_t i = 0; i < e.consumers.size() && !f.to_core; ++i) {
            if (dev.kind_at(e.consumers[i].tile) == model::TileKind::Shim)
                shim(e.consumers[i])->set_link(links_.back().get());
            else
                tile_channel(e.consumer_channels[i])->set_link(links_.back().get());
        }
    }
    build_packet_switches(shim, tile_channel);
    const unsigned threads =
        opts_.kernel_threads ? opts_.kernel_threads : std::max(1u, std::thread::hardware_concurrency());
    // Pool threads only where calls can go to them (CoreProcess::pooled): not under the memory check.
    if (threads > 1 && !opts_.check_memory && !net_.cores.empty())
        kernel_pool_ = std::make_unique<KernelPool>(threads, opts_.core_stack_bytes);
    const CoreProcessServices core_services{services_,
                                            net_.buffers,
                                            memory_,
                                            locks_,
                                            opts_.check_memory,
                                            opts_.free_kernels,
                                            kernel_pool_.get(),
                                            opts_.kernel_pool_min_nanos,
                                            &kernel_nanos_};
    for (const auto& c : net_.cores) {
        cores_.push_back(std::make_unique<CoreProcess>(core_services, c));
        processes_.push_back(cores_.back().get());
    }
    for (std::size_t i = 0; i < net_.cores.size(); ++i) {
        const auto& c = net_.cores[i];
        auto* core = cores_[i].get();
        auto flow_link = [&](int flow, bool core_end, const char* which) -> StreamLink* {
            const auto fi = static_cast<std::size_t>(flow);
            if (fi >= links_.size() || !core_end)
                throw SimulationError(SimulationError::Kind::Protocol,
                                      fmt::format("worker '{}': its {} stream port names flow {}, which does not {} "
                                                  "its core",
                                                  c.worker, which, flow, which[0] == 'o' ? "start at" : "end at"));
            return links_[fi].get();
        };
        if (c.stream_out >= 0) {
            const auto fi = static_cast<std::size_t>(c.stream_out);
            core->set_stream_out(flow_link(c.stream_out, fi < net_.flows.size() && net_.flows[fi].from_core, "output"));
            link_senders_[fi] = core;
        }
        if (c.stream_in >= 0) {
            const auto fi = static_cast<std::size_t>(c.stream_in);
            auto* link = flow_link(c.stream_in, fi < net_.flows.size() && net_.flows[fi].to_core, "input");
            core->set_stream_in(link, core_inputs_.at(fi).get());
        }
    }
    for (std::size_t fi = 0; fi < links_.size(); ++fi)
        if (!link_senders_[fi])
            throw SimulationError(SimulationError::Kind::Protocol,
                                  fmt::format("flow {}: it starts at a core's stream port, but no core sends on it",
                                              net_.flows[fi].prov.describe()));
    for (const auto& c : net_.cascades) {
        cascades_.push_back(std::make_unique<CascadeLink>(c, opts_.timing.cascade_word_latency_cycles));
        cores_.at(static_cast<std::size_t>(c.src_core))->set_cascade_out(cascades_.back().get());
        cores_.at(static_cast<std::size_t>(c.dst_core))->set_cascade_in(cascades_.back().get());
    }
    controller_ = std::make_unique<RuntimeController>(ControllerServices{
        services_, net_, memory_, locks_, board_, [this](const model::StreamEndpoint& e) { return shim_channel(e); },
        opts_.queue_wait, opts_.invocations, opts_.scratchpad,
        [this](std::uint32_t index, std::uint64_t begin, std::uint64_t end) {
            InvocationResult inv;
            inv.begin_cycle = begin;
            inv.end_cycle = end;
            if (opts_.invocations > 1 && index >= opts_.snapshot_from) {
                inv.host.resize(host_.size());
                for (std::size_t t = 0; t < host_.size(); ++t)
                    if (opts_.snapshot_tensors.empty() ||
                        std::find(opts_.snapshot_tensors.begin(), opts_.snapshot_tensors.end(), static_cast<int>(t)) !=
                            opts_.snapshot_tensors.end())
                        inv.host[t] = host_[t];
            }
            invocations_.push_back(std::move(inv));
        }});
    processes_.push_back(controller_.get());

    // The DMA channels are methods (no stack); the runtime controller runs no user code.
    for (auto& c : tile_channels_) c->spawn("dma");
    for (auto& c : shim_channels_) c->spawn("shim");
    for (auto& c : cores_) c->spawn("core", opts_.core_stack_bytes);
    controller_->spawn("runtime_sequence", 64 * 1024, false);
}

DeadlockAnalyzer SimEngine::analyzer() const {
    std::vector<ProcessView> views;
    std::map<const void*, int> index_of; // SimProcess* and StreamReceiver* -> view index
    for (const auto* p : processes_) {
        index_of[p] = static_cast<int>(views.size());
        views.push_back(p->view());
    }
    for (std::size_t i = 0; i < cores_.size(); ++i)
        views[static_cast<std::size_t>(index_of.at(cores_[i].get()))].index = static_cast<int>(i);
    for (std::size_t i = 0; i < tile_channels_.size(); ++i) {
        const auto* c = tile_channels_[i].get();
        views[static_cast<std::size_t>(index_of.at(c))].index = static_cast<int>(i);
        index_of[static_cast<const StreamReceiver*>(c)] = index_of.at(c);
    }
    for (const auto& c : shim_channels_) index_of[static_cast<const StreamReceiver*>(c.get())] = index_of.at(c.get());
    for (const auto& [fi, in] : core_inputs_) // a core's input stream port stands for its core
        for (std::size_t i = 0; i < net_.cores.size(); ++i)
            if (net_.cores[i].stream_in == static_cast<int>(fi))
                index_of[static_cast<const StreamReceiver*>(in.get())] = index_of.at(cores_[i].get());
    std::vector<LinkView> links;
    for (std::size_t i = 0; i < links_.size(); ++i) {
        const auto& l = *links_[i];
        LinkView v;
        v.label = l.label();
        v.sender = index_of.at(link_senders_.at(i));
        for (const auto* r : l.receivers()) {
            v.receivers.push_back(index_of.at(r));
            v.posted.push_back(r->posted);
        }
        v.sender_waiting = l.sender_waiting();
        links.push_back(std::move(v));
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
        for (const auto* p : processes_) {
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
    throw DiagnosedError(SimulationError::Kind::Limit, std::make_shared<const Diagnosis>(analyzer().limit(at)));
}

SimResult SimEngine::run() {
    std::uint64_t slice = opts_.progress && opts_.progress_interval_cycles ? opts_.progress_interval_cycles : 0;
    const double wall = opts_.wall_timeout_seconds;
    if (wall > 0) slice = slice ? std::min<std::uint64_t>(slice, 100'000) : 100'000;
    const std::uint64_t max = opts_.max_cycles;
    const auto started = std::chrono::steady_clock::now();
    bool wall_reached = false;
    auto report = [&](bool final) {
        if (!opts_.progress) return;
        SimProgress p;
        p.cycles = now_cycles();
        p.ops_done = controller_->ops_done();
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
    if (kernel_pool_) kernel_pool_->wait_all();
    model::NativeActivity::leave();
    report(true);
    if (wall_reached && !run_.error() && !run_.finished()) {
        close_trace_on_failure();
        throw DiagnosedError(SimulationError::Kind::Limit,
                             std::make_shared<const Diagnosis>(analyzer().limit(max, wall)));
    }
    if (run_.error()) {
        close_trace_on_failure();
        throw *run_.error();
    }
    // A run that ended without a protocol or kernel error (finished, deadlocked or at a limit) keeps
    // the simulator's invariants; after such an error the run stopped mid-step and they need not.
    InvariantChecker::check_end(net_, links_, locks_);
    InvariantChecker::check_cascades(net_, cascades_);
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
    for (auto& c : cores_) r.cores.push_back(c->stats());
    for (auto& c : tile_channels_) {
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
    for (auto& c : shim_channels_) {
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
    r.queue_waits = controller_->queue_waits();
    for (const auto* p : processes_) {
        r.scheduler_waits += p->waits();
        r.scheduler_activations += p->activations();
    }
    r.invocations = std::move(invocations_);
    r.bytes_moved = stats_.bytes_moved;
    r.bd_transfers = stats_.bd_transfers;
    if (const auto pending = board_.pending())
        run_.warn(
            fmt::format("{} shim task(s) had not completed when the runtime sequence ended (not awaited)", pending));
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

} // namespace npusim::sim

#include "Elaborator.hpp"

#include "CascadeLink.hpp"
#include "CoreProcess.hpp"
#include "PacketSwitch.hpp"
#include "RuntimeController.hpp"
#include "StreamLink.hpp"
#include "TileDmaChannel.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <thread>

namespace npusim::sim {

SimParts::SimParts() = default;
SimParts::~SimParts() = default;

ShimDmaChannel* SimParts::shim_channel(const model::StreamEndpoint& e) const {
    for (auto& c : shim_channels)
        if (c->endpoint() == e) return c.get();
    return nullptr;
}

Elaborator::Elaborator(const ElaborationInputs& in, SimParts& parts)
    : in_(in), parts_(parts), net_(in.net), dev_(*in.net.device),
      opts_(in.opts), shim_services_{in.services, in.net.tasks, in.host,
                                     in.board,    in.stats,     in.net.device->task_queue_depth,
                                     in.locks} {}

void Elaborator::elaborate() {
    begin_trace();
    tile_memories();
    locks();
    tile_dma_channels();
    stream_links(); // and the shim channels the flows reach, in the order they reach them
    packet_switches();
    kernel_pool();
    cores();
    core_stream_ports();
    cascades();
    runtime_controller();
    spawn();
}

void Elaborator::begin_trace() {
    if (opts_.trace)
        opts_.trace->begin_run({net_.design, dev_.name, dev_.arch, opts_.timing.clock_mhz,
                                net_.trace.enabled ? &net_.trace : nullptr, &net_, &opts_.timing});
}

// Buffers with initial values (init_values, constants) start with them in their tile's memory.
void Elaborator::tile_memories() {
    for (const auto& b : net_.buffers) {
        auto* mem = in_.memory.of(b.tile);
        if (!b.init.empty()) std::memcpy(mem + b.address, b.init.data(), std::min<std::size_t>(b.init.size(), b.bytes));
    }
}

// One semaphore lock per netlist lock, each with its trace track (its value as a counter). Under
// lock_run_ahead, a lock with one acquirer and one releaser lets them run ahead of each other.
void Elaborator::locks() {
    const auto actors = opts_.lock_run_ahead ? model::lock_actors(net_) : std::vector<model::LockActors>{};
    for (std::size_t i = 0; i < net_.locks.size(); ++i) {
        const auto& l = net_.locks[i];
        int track = -1;
        if (opts_.trace) {
            TrackInfo info{TrackInfo::Kind::Lock, l.tile.col, l.tile.row, l.name};
            info.initial = l.init;
            track = in_.services.tracks.add(info);
        }
        in_.locks.add(std::make_unique<SemaphoreLock>(in_.services, static_cast<int>(i), l.name,
                                                      model::to_string(l.tile), l.init,
                                                      dev_.resources(l.tile).lock_max_value, track));
        if (!actors.empty())
            in_.locks.at(static_cast<int>(i)).set_run_ahead(model::one_acquirer_one_releaser(actors[i]));
        if (track >= 0) opts_.trace->counter(track, 0, l.init);
    }
}

// One channel per netlist DMA channel program, in netlist order (tile_channel(index) relies on it).
void Elaborator::tile_dma_channels() {
    const TileDmaServices dma{in_.services, net_.buffers, in_.memory, in_.locks, in_.stats};
    for (const auto& ch : net_.channels) {
        // A DMA addresses its own tile's memory and, from a mem tile, that of its west and east
        // mem tile neighbours (DeviceSpec::dma_can_access); a BD on any other tile's buffer is
        // a netlist the hardware cannot run.
        for (const auto& bd : ch.bds) {
            const auto& buf = net_.buffers.at(static_cast<std::size_t>(bd.buffer));
            if (!dev_.dma_can_access(ch.tile, buf.tile))
                throw SimulationError(SimulationError::Kind::Protocol,
                                      fmt::format("{}: BD {} of {} uses buffer '{}' on tile {}, whose memory this "
                                                  "DMA cannot address",
                                                  model::tile_dma_name({ch.tile, ch.dir, ch.channel}), bd.bd_id,
                                                  bd.prov.describe(), buf.name, model::to_string(buf.tile)));
        }
        parts_.tile_channels.push_back(std::make_unique<TileDmaChannel>(dma, ch));
        parts_.processes.push_back(parts_.tile_channels.back().get());
    }
}

ShimDmaChannel* Elaborator::shim(const model::StreamEndpoint& e) {
    if (auto* c = parts_.shim_channel(e)) return c;
    parts_.shim_channels.push_back(std::make_unique<ShimDmaChannel>(shim_services_, e));
    parts_.processes.push_back(parts_.shim_channels.back().get());
    return parts_.shim_channels.back().get();
}

// A flow's ends are channels of the netlist (link_ends); tile_channels is in netlist order.
TileDmaChannel* Elaborator::tile_channel(int index) const {
    return index < 0 ? nullptr : parts_.tile_channels[static_cast<std::size_t>(index)].get();
}

// A mem tile's channels share its banks: the source's read and each destination's write.
SharedBandwidth* Elaborator::memtile_path(model::TileCoord t) {
    if (dev_.kind_at(t) != model::TileKind::Mem) return nullptr;
    auto it = in_.memtile_paths.find(t);
    if (it == in_.memtile_paths.end())
        it = in_.memtile_paths
                 .try_emplace(t, fmt::format("mem tile {} banks", model::to_string(t)),
                              opts_.timing.memtile_memory_bytes_per_cycle)
                 .first;
    return &it->second;
}

// One stream link per netlist flow, in order (a core's stream ports and the deadlock report index
// links by flow).
void Elaborator::stream_links() {
    const auto ends = model::link_ends(net_);
    for (std::size_t fi = 0; fi < net_.flows.size(); ++fi) stream_link(fi, ends[fi]);
}

void Elaborator::stream_link(std::size_t fi, const model::LinkEnds& e) {
    const auto& f = net_.flows[fi];
    // The receivers: a core's input stream port, or the DMA channels at the flow's destinations.
    std::vector<StreamReceiver*> rx;
    if (f.to_core) {
        // An aie_stream consumer end: the core's input stream port receives (one destination,
        // ObjectFifoCreateOp::verify "`aie_stream` can only be used in 1-to-1 object FIFOs").
        auto& in = parts_.core_inputs[fi];
        in = std::make_unique<CoreStreamInput>(fmt::format("{} at {} Core {}", f.prov.describe(),
                                                           model::to_string(f.dests.at(0).tile), f.dests.at(0).channel),
                                               opts_.timing.stream_bytes_per_cycle);
        rx.push_back(in.get());
    }
    for (std::size_t i = 0; i < e.consumers.size() && !f.to_core; ++i) {
        const auto& d = e.consumers[i];
        StreamReceiver* r = dev_.kind_at(d.tile) == model::TileKind::Shim
                                ? static_cast<StreamReceiver*>(shim(d))
                                : static_cast<StreamReceiver*>(tile_channel(e.consumer_channels[i]));
        if (!r)
            throw SimulationError(SimulationError::Kind::Protocol,
                                  fmt::format("flow {}: destination {} has no DMA channel program", f.prov.describe(),
                                              model::to_string(d)));
        rx.push_back(r);
    }
    int hops = 0;
    for (std::size_t i = 0; i < f.dests.size(); ++i) hops = std::max(hops, f.switch_hops(i));
    // A core's stream port offers one word per send, and the link charges the route latency on
    // the first chunk of each send: charged per word it would serialise the pipelined route, so
    // a core-sourced flow moves its words at the port's rate without it [est: the first word
    // arrives `hops` switch latencies early].
    const auto latency = f.from_core ? 0u : static_cast<std::uint32_t>(hops) * opts_.timing.switch_hop_latency_cycles;
    const bool src_shim = dev_.kind_at(e.producer.tile) == model::TileKind::Shim;
    const double rate = f.from_core ? opts_.timing.stream_bytes_per_cycle
                        : src_shim  ? opts_.timing.shim_dma_bytes_per_cycle
                                    : opts_.timing.tile_dma_bytes_per_cycle;
    parts_.links.push_back(std::make_unique<StreamLink>(opts_.timing, in_.stats, f.prov.describe(), rx, rate, latency));
    auto* link = parts_.links.back().get();
    // The shared paths the flow's bytes cross: host memory at a shim end, a mem tile's banks.
    const bool to_shim = std::any_of(e.consumers.begin(), e.consumers.end(), [&](const model::StreamEndpoint& d) {
        return dev_.kind_at(d.tile) == model::TileKind::Shim;
    });
    if (src_shim || to_shim) link->add_shared(&in_.ddr);
    if (auto* p = memtile_path(e.producer.tile)) link->add_shared(p);
    for (const auto& d : e.consumers)
        if (auto* p = memtile_path(d.tile)) link->add_shared(p);
    // The sender: a core's output stream port (set with the cores), a shim or a tile channel.
    if (f.from_core) {
        parts_.link_senders.push_back(nullptr); // the core, once the cores exist (core_stream_ports)
    } else if (src_shim) {
        shim(e.producer)->set_link(link);
        parts_.link_senders.push_back(shim(e.producer));
    } else if (auto* c = tile_channel(e.producer_channel)) {
        c->set_link(link);
        parts_.link_senders.push_back(c);
    } else {
        throw SimulationError(SimulationError::Kind::Protocol,
                              fmt::format("flow {}: source {} has no DMA channel program", f.prov.describe(),
                                          model::to_string(e.producer)));
    }
    for (std::size_t i = 0; i < e.consumers.size() && !f.to_core; ++i) {
        if (dev_.kind_at(e.consumers[i].tile) == model::TileKind::Shim)
            shim(e.consumers[i])->set_link(link);
        else
            tile_channel(e.consumer_channels[i])->set_link(link);
    }
}

// Packet flows connected through a shared port (a source or a destination) form one group: one
// PacketSwitch whose stream reaches every destination of the group.
void Elaborator::packet_switches() {
    const auto& pfs = net_.packet_flows;
    if (pfs.empty()) return;
    // Union-find over the flows: two flows sharing their source or a destination join.
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
        StreamReceiver* r = dev_.kind_at(d.tile) == model::TileKind::Shim
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
        // The group's stream: every distinct destination, the longest route's latency.
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
                to_shim = to_shim || dev_.kind_at(d.tile) == model::TileKind::Shim;
            }
        auto link = std::make_unique<StreamLink>(
            opts_.timing, in_.stats, fmt::format("packet flows of {}", pfs[members.front()].prov.describe()), rx,
            opts_.timing.tile_dma_bytes_per_cycle,
            static_cast<std::uint32_t>(hops) * opts_.timing.switch_hop_latency_cycles);
        if (to_shim) link->add_shared(&in_.ddr);
        parts_.packet_switches.push_back(std::make_unique<PacketSwitch>(std::move(link)));
        auto& sw = *parts_.packet_switches.back();
        for (std::size_t k = 0; k < rx_ends.size(); ++k) {
            if (dev_.kind_at(rx_ends[k].tile) == model::TileKind::Shim)
                shim(rx_ends[k])->set_link(&sw.link());
            else
                tile_channel(channel_index(rx_ends[k]))->set_link(&sw.link());
        }
        // Each flow: a source port on the switch, routed by packet id to its destinations.
        for (auto i : members) {
            const auto& f = pfs[i];
            const bool shim_src = dev_.kind_at(f.source.tile) == model::TileKind::Shim;
            auto* src = shim_src ? nullptr : tile_channel(channel_index(f.source));
            if (!src && !shim_src)
                throw SimulationError(SimulationError::Kind::Protocol,
                                      fmt::format("packet flow {}: source {} has no DMA channel program",
                                                  f.prov.describe(), model::to_string(f.source)));
            const int s = sw.add_source(f.source);
            if (shim_src) {
                // A shim MM2S source: the runtime's tasks on it send the packets (flows from one port
                // share its switch source: add_source returns the port's index).
                shim(f.source)->set_packet_port(&sw, s);
            } else {
                src->set_packet_port(&sw, s);
            }
            std::vector<StreamReceiver*> dests;
            for (const auto& d : f.dests) dests.push_back(receiver(f, d));
            int own_hops = 0;
            for (const auto& path : f.paths) own_hops = std::max(own_hops, static_cast<int>(path.size()));
            sw.add_route(s, f.packet_id, std::move(dests), f.keep_pkt_header,
                         static_cast<std::uint32_t>(own_hops) * opts_.timing.switch_hop_latency_cycles);
        }
    }
}

// Pool threads only where calls can go to them (CoreProcess::pooled): not under the memory check.
void Elaborator::kernel_pool() {
    const unsigned threads =
        opts_.kernel_threads ? opts_.kernel_threads : std::max(1u, std::thread::hardware_concurrency());
    if (threads > 1 && !opts_.check_memory && !net_.cores.empty())
        parts_.kernel_pool = std::make_unique<KernelPool>(threads, opts_.core_stack_bytes);
}

// One core process per netlist core program, in netlist order.
void Elaborator::cores() {
    const CoreProcessServices core_services{in_.services,
                                            net_.buffers,
                                            in_.memory,
                                            in_.locks,
                                            opts_.check_memory,
                                            opts_.free_kernels,
                                            parts_.kernel_pool.get(),
                                            opts_.kernel_pool_min_nanos,
                                            &parts_.kernel_nanos};
    for (const auto& c : net_.cores) {
        parts_.cores.push_back(std::make_unique<CoreProcess>(core_services, c));
        parts_.processes.push_back(parts_.cores.back().get());
    }
}

// A core's stream ports join the flows that start or end at it (aie_stream fifo ends); every flow
// that starts at a core must have that core as its sender.
void Elaborator::core_stream_ports() {
    for (std::size_t i = 0; i < net_.cores.size(); ++i) {
        const auto& c = net_.cores[i];
        auto* core = parts_.cores[i].get();
        auto flow_link = [&](int flow, bool core_end, const char* which) -> StreamLink* {
            const auto fi = static_cast<std::size_t>(flow);
            if (fi >= parts_.links.size() || !core_end)
                throw SimulationError(SimulationError::Kind::Protocol,
                                      fmt::format("worker '{}': its {} stream port names flow {}, which does not {} "
                                                  "its core",
                                                  c.worker, which, flow, which[0] == 'o' ? "start at" : "end at"));
            return parts_.links[fi].get();
        };
        if (c.stream_out >= 0) {
            const auto fi = static_cast<std::size_t>(c.stream_out);
            core->set_stream_out(flow_link(c.stream_out, fi < net_.flows.size() && net_.flows[fi].from_core, "output"));
            parts_.link_senders[fi] = core;
        }
        if (c.stream_in >= 0) {
            const auto fi = static_cast<std::size_t>(c.stream_in);
            auto* link = flow_link(c.stream_in, fi < net_.flows.size() && net_.flows[fi].to_core, "input");
            core->set_stream_in(link, parts_.core_inputs.at(fi).get());
        }
    }
    for (std::size_t fi = 0; fi < parts_.links.size(); ++fi)
        if (!parts_.link_senders[fi])
            throw SimulationError(SimulationError::Kind::Protocol,
                                  fmt::format("flow {}: it starts at a core's stream port, but no core sends on it",
                                              net_.flows[fi].prov.describe()));
}

// One cascade link per netlist cascade, between its source core's output and its destination's input.
void Elaborator::cascades() {
    for (const auto& c : net_.cascades) {
        parts_.cascades.push_back(std::make_unique<CascadeLink>(c, opts_.timing.cascade_word_latency_cycles));
        parts_.cores.at(static_cast<std::size_t>(c.src_core))->set_cascade_out(parts_.cascades.back().get());
        parts_.cores.at(static_cast<std::size_t>(c.dst_core))->set_cascade_in(parts_.cascades.back().get());
    }
}

// The runtime controller runs the sequence: it pushes tasks to the shim channels (found by
// endpoint) and sets locks; it is the last process.
void Elaborator::runtime_controller() {
    auto& parts = parts_;
    parts_.controller = std::make_unique<RuntimeController>(
        ControllerServices{in_.services, net_, in_.memory, in_.locks, in_.board,
                           [&parts](const model::StreamEndpoint& e) { return parts.shim_channel(e); }, opts_.queue_wait,
                           opts_.invocations, opts_.scratchpad, in_.invocation_done, opts_.drain_cycles});
    parts_.processes.push_back(parts_.controller.get());
}

// The processes start in this order (it orders their first events): the DMA channels are methods
// (no stack); the cores get the run's stack size; the runtime controller runs no user code.
void Elaborator::spawn() {
    for (auto& c : parts_.tile_channels) c->spawn("dma");
    for (auto& c : parts_.shim_channels) c->spawn("shim");
    for (auto& c : parts_.cores) c->spawn("core", opts_.core_stack_bytes);
    parts_.controller->spawn("runtime_sequence", 64 * 1024, false);
}

} // namespace npusim::sim

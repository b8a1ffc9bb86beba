#include "npusim/model/NetlistRelations.hpp"

#include <fmt/format.h>

namespace npusim::model {

namespace {
LockActors& at(std::vector<LockActors>& v, int lock) { return v.at(static_cast<std::size_t>(lock)); }

int channel_index(const Netlist& net, const StreamEndpoint& e) {
    for (std::size_t i = 0; i < net.channels.size(); ++i) {
        const auto& c = net.channels[i];
        if (c.tile == e.tile && c.dir == e.dir && c.channel == e.channel) return static_cast<int>(i);
    }
    return -1;
}
} // namespace

std::vector<LockActors> lock_actors(const Netlist& net) {
    std::vector<LockActors> out(net.locks.size());
    for (std::size_t c = 0; c < net.channels.size(); ++c) {
        const auto& ch = net.channels[c];
        for (std::size_t b = 0; b < ch.bds.size(); ++b) {
            const auto& bd = ch.bds[b];
            const Actor a{Actor::Kind::DmaBd, static_cast<int>(c), static_cast<int>(b)};
            if (bd.acquire_lock >= 0)
                at(out, bd.acquire_lock).acquirers.push_back({a, bd.acquire_value, bd.acquire_equal});
            // A release of 0 (Release(lock, value=0), chaining_channels' mem-tile BD) adds nothing: the
            // BD is no releaser of that lock.
            if (bd.release_lock >= 0 && bd.release_value != 0)
                at(out, bd.release_lock).releasers.push_back({a, bd.release_value, false});
        }
    }
    for (std::size_t c = 0; c < net.cores.size(); ++c) {
        const auto& core = net.cores[c];
        const Actor a{Actor::Kind::Core, static_cast<int>(c), -1};
        for (const auto& r : core.rings) {
            if (r.acquire_lock >= 0) at(out, r.acquire_lock).acquirers.push_back({a, r.repeat, false});
            if (r.release_lock >= 0) at(out, r.release_lock).releasers.push_back({a, r.repeat, false});
        }
        // Barriers: wait_for_value (acquire-equal), release_with_value. A hand-written Lock: what the
        // traced body does to it (a worker that only waits on a lock is not its releaser).
        for (const auto& l : core.locks) {
            if (l.acquires) at(out, l.lock).acquirers.push_back({a, -1, true});
            if (l.releases) at(out, l.lock).releasers.push_back({a, -1, false});
        }
        if (core.param_sync_lock >= 0) at(out, core.param_sync_lock).acquirers.push_back({a, 1, true});
    }
    for (std::size_t t = 0; t < net.tasks.size(); ++t) { // shim BDs with lock fields (npu_writebd)
        const auto& task = net.tasks[t];
        const Actor a{Actor::Kind::ShimTask, static_cast<int>(t), -1};
        if (task.acquire_lock >= 0)
            at(out, task.acquire_lock).acquirers.push_back({a, task.acquire_value, task.acquire_equal});
        if (task.release_lock >= 0 && task.release_value != 0) at(out, task.release_lock).releasers.push_back({a, task.release_value, false});
    }
    for (std::size_t i = 0; i < net.sequence.size(); ++i) {
        const auto& op = net.sequence[i];
        if (op.kind == RuntimeOp::Kind::SetLock)
            at(out, op.lock).setters.push_back({{Actor::Kind::Runtime, static_cast<int>(i), -1}, op.value, false});
    }
    return out;
}

bool one_acquirer_one_releaser(const LockActors& actors) {
    // An actor's process: a core, a DMA channel (whichever of its BDs), or the runtime sequence.
    auto one_process = [](const std::vector<LockAction>& v) {
        if (v.empty()) return false;
        for (const auto& a : v)
            if (a.actor.kind != v.front().actor.kind || a.actor.kind == Actor::Kind::ShimTask ||
                (a.actor.kind != Actor::Kind::Runtime && a.actor.index != v.front().actor.index))
                return false;
        return true;
    };
    return actors.setters.empty() && one_process(actors.acquirers) && one_process(actors.releasers);
}

std::vector<LinkEnds> link_ends(const Netlist& net) {
    std::vector<LinkEnds> out;
    out.reserve(net.flows.size());
    for (const auto& f : net.flows) {
        LinkEnds e;
        e.producer = f.source;
        e.producer_channel = channel_index(net, f.source);
        for (const auto& d : f.dests) {
            e.consumers.push_back(d);
            e.consumer_channels.push_back(channel_index(net, d));
        }
        out.push_back(std::move(e));
    }
    return out;
}

StreamEndpoint task_completer(const ShimTask& task) { return {task.tile, task.dir, task.channel}; }

std::vector<StreamEndpoint> task_completers(const Netlist& net) {
    std::vector<StreamEndpoint> out;
    out.reserve(net.tasks.size());
    for (const auto& t : net.tasks) out.push_back(task_completer(t));
    return out;
}

std::string worker_label(std::string_view worker) { return fmt::format("worker '{}'", worker); }

std::string tile_dma_name(const StreamEndpoint& e) { return "DMA " + to_string(e); }

std::string shim_dma_name(const StreamEndpoint& e) { return "shim DMA " + to_string(e); }

std::string actor_name(const Netlist& net, const Actor& a) {
    switch (a.kind) {
    case Actor::Kind::Core: return worker_label(net.cores.at(static_cast<std::size_t>(a.index)).worker);
    case Actor::Kind::DmaBd: {
        const auto& ch = net.channels.at(static_cast<std::size_t>(a.index));
        return tile_dma_name({ch.tile, ch.dir, ch.channel});
    }
    case Actor::Kind::Runtime: return "runtime sequence";
    case Actor::Kind::ShimTask: return shim_dma_name(task_completer(net.tasks.at(static_cast<std::size_t>(a.index))));
    }
    return "?";
}

} // namespace npusim::model

#include "WaitGraphBuilder.hpp"

#include "ReportText.hpp"
#include "WaitForGraph.hpp"

#include <fmt/format.h>

namespace npusim::sim {

namespace {

std::string node_id(const ProcessView& v) {
    switch (v.kind) {
    case ProcessView::Kind::Worker:
    case ProcessView::Kind::TileDma:
    case ProcessView::Kind::ShimDma: return "process:" + v.progress.process;
    case ProcessView::Kind::Runtime: return "process:runtime";
    }
    return "process:?";
}

WaitNode::Kind node_kind(ProcessView::Kind k) {
    switch (k) {
    case ProcessView::Kind::Worker: return WaitNode::Kind::Worker;
    case ProcessView::Kind::TileDma: return WaitNode::Kind::TileDma;
    case ProcessView::Kind::ShimDma: return WaitNode::Kind::ShimDma;
    case ProcessView::Kind::Runtime: return WaitNode::Kind::Runtime;
    }
    return WaitNode::Kind::Worker;
}

} // namespace

void WaitGraphBuilder::add_processes(bool with_detail) {
    for (const auto& p : run_.procs) {
        WaitNode n;
        n.kind = node_kind(p.kind);
        n.id = node_id(p);
        n.label = p.progress.process;
        n.state = p.progress.state;
        if (!with_detail) {
            // The limit report lists no waits: the node only names the process and its state.
        } else if (p.kind == ProcessView::Kind::Worker) {
            n.detail = plural(p.progress.steps, "iteration", "iterations");
        } else if (!p.progress.current.empty()) {
            n.detail = p.progress.current;
        } else {
            n.detail = plural(p.progress.steps, singular(p.progress.steps_unit).c_str(), p.progress.steps_unit.c_str());
        }
        d_.nodes.push_back(std::move(n));
    }
}

std::size_t WaitGraphBuilder::resource(const std::string& id, WaitNode::Kind kind, const std::string& label,
                                       const std::string& detail, bool& created) {
    auto it = resources_.find(id);
    created = it == resources_.end();
    if (!created) return it->second;
    WaitNode n;
    n.kind = kind;
    n.id = id;
    n.label = label;
    n.detail = detail;
    d_.nodes.push_back(std::move(n));
    return resources_[id] = d_.nodes.size() - 1;
}

void WaitGraphBuilder::edge(std::size_t from, std::size_t to, std::string label) {
    for (const auto& e : d_.edges)
        if (e.from == from && e.to == to) return;
    d_.edges.push_back({from, to, std::move(label), false, false});
}

void WaitGraphBuilder::add_waits() {
    for (std::size_t i = 0; i < run_.procs.size(); ++i) {
        const auto& p = run_.procs[i];
        if (!is_blocked(p)) continue;
        switch (p.state->status) {
        case ProcessState::Status::WaitLock: add_lock_wait(i); break;
        case ProcessState::Status::WaitStream: add_stream_wait(i); break;
        case ProcessState::Status::WaitCascade: add_cascade_wait(i); break;
        case ProcessState::Status::WaitTask: add_task_wait(i); break;
        default: break;
        }
    }
}

// A lock: the process waits for a value; the lock's releasers and setters (from the netlist) can
// give it one. Their edges are added once, with the lock's node.
void WaitGraphBuilder::add_lock_wait(std::size_t i) {
    const auto& ps = *run_.procs[i].state;
    const auto& l = run_.locks.at(static_cast<std::size_t>(ps.lock));
    bool created = false;
    const auto r = resource("lock:" + l.name, WaitNode::Kind::Lock, fmt::format("lock {} on {}", l.name, l.where),
                            fmt::format("value {}", l.value), created);
    edge(i, r, fmt::format("waits {} {}", ps.equal ? "==" : ">=", ps.want));
    if (!created) return;
    const auto& actors = run_.rel.locks.at(static_cast<std::size_t>(ps.lock));
    for (const auto& a : actors.releasers)
        if (const int q = run_.process_of(a.actor); q >= 0)
            edge(r, static_cast<std::size_t>(q),
                 a.amount >= 0 ? fmt::format("released +{} by", a.amount) : std::string("released by"));
    for (const auto& a : actors.setters)
        if (const int q = run_.process_of(a.actor); q >= 0)
            edge(r, static_cast<std::size_t>(q), fmt::format("set to {} by", a.amount));
}

// A stream has two resources: its data (receivers wait for the sender) and room at its receivers
// (the sender waits for them), so a sender never appears to wait on itself.
void WaitGraphBuilder::add_stream_wait(std::size_t i) {
    const int li = run_.link_of(run_.procs[i]);
    if (li < 0) return;
    const auto& l = run_.links[static_cast<std::size_t>(li)];
    const std::string bc = l.receivers.size() > 1 ? fmt::format("broadcast to {}", l.receivers.size()) : std::string();
    bool created = false;
    if (l.sender == static_cast<int>(i)) {
        const auto r = resource(fmt::format("stream:{}:room", li), WaitNode::Kind::Stream,
                                l.label + ": room at the receivers", bc, created);
        edge(i, r, "waits for receivers");
        // The receivers not ready to take data; when all are, each of them.
        bool any = false;
        for (std::size_t k = 0; k < l.receivers.size(); ++k)
            if (!l.posted[k]) {
                edge(r, static_cast<std::size_t>(l.receivers[k]), "not ready:");
                any = true;
            }
        if (!any)
            for (int rcv : l.receivers) edge(r, static_cast<std::size_t>(rcv), "received by");
    } else {
        const auto r =
            resource(fmt::format("stream:{}:data", li), WaitNode::Kind::Stream, l.label + ": data", bc, created);
        edge(i, r, "waits for data");
        if (l.sender >= 0) edge(r, static_cast<std::size_t>(l.sender), "sent by");
    }
}

// A cascade, like a stream: a putter waits for room (taken by the destination core), a getter for
// words (put by the source core).
void WaitGraphBuilder::add_cascade_wait(std::size_t i) {
    const auto& p = run_.procs[i];
    if (p.cascade < 0) return;
    const auto& cc = run_.net.cascades.at(static_cast<std::size_t>(p.cascade));
    const std::string words = fmt::format("{} of {} words", p.cascade_words, p.cascade_depth);
    bool created = false;
    if (p.cascade_put) {
        const auto r = resource(fmt::format("cascade:{}:room", p.cascade), WaitNode::Kind::Stream,
                                cc.describe() + ": room", words, created);
        edge(i, r, "waits for room");
        if (const int q = run_.process_of({model::Actor::Kind::Core, cc.dst_core}); q >= 0)
            edge(r, static_cast<std::size_t>(q), "taken by");
    } else {
        const auto r = resource(fmt::format("cascade:{}:data", p.cascade), WaitNode::Kind::Stream,
                                cc.describe() + ": words", words, created);
        edge(i, r, "waits for a word");
        if (const int q = run_.process_of({model::Actor::Kind::Core, cc.src_core}); q >= 0)
            edge(r, static_cast<std::size_t>(q), "put by");
    }
}

// The runtime sequence waits for a free slot in a shim channel's task queue (retired by that
// channel), or awaits a task (completed by the channel that runs it).
void WaitGraphBuilder::add_task_wait(std::size_t i) {
    const auto& p = run_.procs[i];
    bool created = false;
    if (p.waits_for_queue) {
        const int s = run_.shim_process(p.queue_channel);
        const auto r = resource("queue:" + model::to_string(p.queue_channel), WaitNode::Kind::Queue,
                                "task queue of " + model::shim_dma_name(p.queue_channel),
                                fmt::format("{} deep", run_.net.device->task_queue_depth), created);
        edge(i, r, "waits for a free slot");
        if (s >= 0) edge(r, static_cast<std::size_t>(s), "retired by");
    } else if (p.awaited_task >= 0) {
        const auto t = static_cast<std::size_t>(p.awaited_task);
        const auto& task = run_.net.tasks.at(t);
        const int s = run_.shim_process(run_.rel.tasks.at(t));
        const auto r = resource(fmt::format("task:{}", t), WaitNode::Kind::Task,
                                fmt::format("task {} ({})", task.id, task.prov.describe()),
                                fmt::format("{} B", grouped(task.bytes())), created);
        edge(i, r, "awaits");
        if (s >= 0) edge(r, static_cast<std::size_t>(s), "completed by");
    }
}

void WaitGraphBuilder::mark_cycles() {
    const WaitForGraph g(d_.nodes, d_.edges);
    d_.cycles = g.cycles();
    for (const auto& cyc : d_.cycles)
        for (std::size_t k = 0; k < cyc.size(); ++k) {
            d_.nodes[cyc[k]].in_cycle = true;
            const auto from = cyc[k], to = cyc[(k + 1) % cyc.size()];
            for (auto& e : d_.edges)
                if (e.from == from && e.to == to) e.in_cycle = true;
        }
}

} // namespace npusim::sim

#include "DeadlockAnalyzer.hpp"

#include "WaitForGraph.hpp"

#include <algorithm>
#include <deque>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <set>

namespace npusim::sim {

namespace {

std::string grouped(std::uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
    return fmt::format("{} {}", grouped(n), n == 1 ? one : many);
}

// "iterations" -> "iteration", "BDs" -> "BD".
std::string singular(const std::string& unit) {
    return !unit.empty() && unit.back() == 's' ? unit.substr(0, unit.size() - 1) : unit;
}

std::string ordinal(std::uint64_t n) {
    const char* suffix = "th";
    if (n % 100 < 11 || n % 100 > 13) {
        if (n % 10 == 1) suffix = "st";
        if (n % 10 == 2) suffix = "nd";
        if (n % 10 == 3) suffix = "rd";
    }
    return fmt::format("{}{}", n, suffix);
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
    return s;
}

bool is_blocked(const ProcessView& v) { return v.progress.state == ProcessProgress::State::Blocked; }

std::string node_id(const ProcessView& v) {
    switch (v.kind) {
    case ProcessView::Kind::Worker: return "process:" + v.progress.process;
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

/// The causal chain being built: the processes on it (indices of process views), where it ends.
struct DeadlockAnalyzer::Chain {
    std::vector<std::size_t> path; ///< process indices, from the start
    int terminal = -1; ///< the root-cause process, when the chain ends at one
    int back_to = -1; ///< when the chain closes a cycle: the step (path index) it returns to
    std::uint64_t object_bytes = 0; ///< object size of the fifo being followed (0: unknown)
    int consumer_worker = -1; ///< a worker on the chain waiting for an object of a fifo it consumes
    int consumer_ring = -1; ///< that worker's ring index
};

DeadlockAnalyzer::DeadlockAnalyzer(const model::Netlist& net, std::vector<ProcessView> processes,
                                   std::vector<LinkView> links, std::vector<LockView> locks, std::uint64_t cycle,
                                   std::vector<std::string> warnings)
    : net_(net), rel_(net), procs_(std::move(processes)), links_(std::move(links)), locks_(std::move(locks)),
      cycle_(cycle), warnings_(std::move(warnings)) {}

int DeadlockAnalyzer::process_of(const model::Actor& a) const {
    for (std::size_t i = 0; i < procs_.size(); ++i) {
        const auto& p = procs_[i];
        if (a.kind == model::Actor::Kind::Core && p.kind == ProcessView::Kind::Worker && p.index == a.index)
            return static_cast<int>(i);
        if (a.kind == model::Actor::Kind::DmaBd && p.kind == ProcessView::Kind::TileDma && p.index == a.index)
            return static_cast<int>(i);
        if (a.kind == model::Actor::Kind::Runtime && p.kind == ProcessView::Kind::Runtime) return static_cast<int>(i);
    }
    return -1;
}

int DeadlockAnalyzer::shim_process(const model::StreamEndpoint& e) const {
    for (std::size_t i = 0; i < procs_.size(); ++i)
        if (procs_[i].kind == ProcessView::Kind::ShimDma && procs_[i].endpoint == e) return static_cast<int>(i);
    return -1;
}

int DeadlockAnalyzer::later_start(const model::StreamEndpoint& e) const {
    for (const auto& r : procs_)
        if (r.kind == ProcessView::Kind::Runtime)
            for (std::size_t k = static_cast<std::size_t>(std::max(0, r.next_op)); k < net_.sequence.size(); ++k) {
                const auto& op = net_.sequence[k];
                if (op.kind == model::RuntimeOp::Kind::StartTask &&
                    rel_.tasks.at(static_cast<std::size_t>(op.task)) == e)
                    return static_cast<int>(k);
            }
    return -1;
}

int DeadlockAnalyzer::link_of(const ProcessView& p) const {
    const auto self = static_cast<int>(&p - procs_.data());
    for (std::size_t li = 0; li < links_.size(); ++li) {
        if (links_[li].sender == self) return static_cast<int>(li);
        for (int r : links_[li].receivers)
            if (r == self) return static_cast<int>(li);
    }
    return -1;
}

// Processes first (node i = process view i), then the resources blocked processes wait on.
void DeadlockAnalyzer::build_graph(Diagnosis& d) const {
    for (const auto& p : procs_) {
        WaitNode n;
        n.kind = node_kind(p.kind);
        n.id = node_id(p);
        n.label = p.progress.process;
        n.state = p.progress.state;
        if (p.kind == ProcessView::Kind::Worker)
            n.detail = plural(p.progress.steps, "iteration", "iterations");
        else if (!p.progress.current.empty())
            n.detail = p.progress.current;
        else
            n.detail = plural(p.progress.steps, singular(p.progress.steps_unit).c_str(), p.progress.steps_unit.c_str());
        d.nodes.push_back(std::move(n));
    }
    std::map<std::string, std::size_t> resource;
    auto res = [&](const std::string& id, WaitNode::Kind kind, const std::string& label, const std::string& detail,
                   bool& created) {
        auto it = resource.find(id);
        created = it == resource.end();
        if (!created) return it->second;
        WaitNode n;
        n.kind = kind;
        n.id = id;
        n.label = label;
        n.detail = detail;
        d.nodes.push_back(std::move(n));
        return resource[id] = d.nodes.size() - 1;
    };
    auto edge = [&](std::size_t from, std::size_t to, std::string label) {
        for (const auto& e : d.edges)
            if (e.from == from && e.to == to) return;
        d.edges.push_back({from, to, std::move(label), false, false});
    };
    for (std::size_t i = 0; i < procs_.size(); ++i) {
        const auto& p = procs_[i];
        if (!is_blocked(p)) continue;
        const auto& ps = *p.state;
        bool created = false;
        switch (ps.status) {
        case ProcessState::Status::WaitLock: {
            const auto& l = locks_.at(static_cast<std::size_t>(ps.lock));
            const auto r = res("lock:" + l.name, WaitNode::Kind::Lock, fmt::format("lock {} on {}", l.name, l.where),
                               fmt::format("value {}", l.value), created);
            edge(i, r, fmt::format("waits {} {}", ps.equal ? "==" : ">=", ps.want));
            if (created) {
                const auto& actors = rel_.locks.at(static_cast<std::size_t>(ps.lock));
                for (const auto& a : actors.releasers)
                    if (const int q = process_of(a.actor); q >= 0)
                        edge(r, static_cast<std::size_t>(q),
                             a.amount >= 0 ? fmt::format("released +{} by", a.amount) : std::string("released by"));
                for (const auto& a : actors.setters)
                    if (const int q = process_of(a.actor); q >= 0)
                        edge(r, static_cast<std::size_t>(q), fmt::format("set to {} by", a.amount));
            }
            break;
        }
        case ProcessState::Status::WaitStream: {
            const int li = link_of(p);
            if (li < 0) break;
            const auto& l = links_[static_cast<std::size_t>(li)];
            // Two resources per stream: its data (receivers wait for the sender) and room at its
            // receivers (the sender waits for them), so a sender never appears to wait on itself.
            const std::string bc =
                l.receivers.size() > 1 ? fmt::format("broadcast to {}", l.receivers.size()) : std::string();
            if (l.sender == static_cast<int>(i)) {
                const auto r = res(fmt::format("stream:{}:room", li), WaitNode::Kind::Stream,
                                   l.label + ": room at the receivers", bc, created);
                edge(i, r, "waits for receivers");
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
                    res(fmt::format("stream:{}:data", li), WaitNode::Kind::Stream, l.label + ": data", bc, created);
                edge(i, r, "waits for data");
                if (l.sender >= 0) edge(r, static_cast<std::size_t>(l.sender), "sent by");
            }
            break;
        }
        case ProcessState::Status::WaitCascade: {
            if (p.cascade < 0) break;
            const auto& cc = net_.cascades.at(static_cast<std::size_t>(p.cascade));
            const std::string words = fmt::format("{} of {} words", p.cascade_words, p.cascade_depth);
            if (p.cascade_put) {
                const auto r = res(fmt::format("cascade:{}:room", p.cascade), WaitNode::Kind::Stream,
                                   cc.describe() + ": room", words, created);
                edge(i, r, "waits for room");
                if (const int q = process_of({model::Actor::Kind::Core, cc.dst_core}); q >= 0)
                    edge(r, static_cast<std::size_t>(q), "taken by");
            } else {
                const auto r = res(fmt::format("cascade:{}:data", p.cascade), WaitNode::Kind::Stream,
                                   cc.describe() + ": words", words, created);
                edge(i, r, "waits for a word");
                if (const int q = process_of({model::Actor::Kind::Core, cc.src_core}); q >= 0)
                    edge(r, static_cast<std::size_t>(q), "put by");
            }
            break;
        }
        case ProcessState::Status::WaitTask: {
            if (p.waits_for_queue) {
                const int s = shim_process(p.queue_channel);
                const auto r = res("queue:" + model::to_string(p.queue_channel), WaitNode::Kind::Queue,
                                   "task queue of " + model::shim_dma_name(p.queue_channel),
                                   fmt::format("{} deep", net_.device->task_queue_depth), created);
                edge(i, r, "waits for a free slot");
                if (s >= 0) edge(r, static_cast<std::size_t>(s), "retired by");
            } else if (p.awaited_task >= 0) {
                const auto t = static_cast<std::size_t>(p.awaited_task);
                const auto& task = net_.tasks.at(t);
                const int s = shim_process(rel_.tasks.at(t));
                const auto r = res(fmt::format("task:{}", t), WaitNode::Kind::Task,
                                   fmt::format("task {} ({})", task.id, task.prov.describe()),
                                   fmt::format("{} B", grouped(task.bytes())), created);
                edge(i, r, "awaits");
                if (s >= 0) edge(r, static_cast<std::size_t>(s), "completed by");
            }
            break;
        }
        default: break;
        }
    }
}

// A process whose wait can never be served by anyone else, or that no longer acts.
namespace {
bool over_pool(const ProcessView& p) {
    return p.state && p.state->status == ProcessState::Status::WaitLock && p.state->ring &&
           p.state->count > p.state->pool;
}
} // namespace

void DeadlockAnalyzer::walk_chain(Diagnosis& d, Chain& c) const {
    // Successor processes of each process node (through its one resource).
    const std::size_t P = procs_.size();
    std::vector<std::vector<std::size_t>> out(d.nodes.size());
    for (const auto& e : d.edges) out[e.from].push_back(e.to);
    auto next_processes = [&](std::size_t p) {
        std::vector<std::size_t> r;
        // A process waiting on itself (a barrier it also releases) cannot unblock itself.
        for (auto res : out[p])
            for (auto q : out[res])
                if (q != p) r.push_back(q);
        return r;
    };
    auto terminal = [&](std::size_t p) {
        const auto& v = procs_[p];
        if (!is_blocked(v)) return true;
        if (over_pool(v)) return true;
        return next_processes(p).empty();
    };
    std::size_t start = P;
    for (std::size_t i = 0; i < P; ++i)
        if (procs_[i].kind == ProcessView::Kind::Runtime && is_blocked(procs_[i])) start = i;
    if (start == P)
        for (std::size_t i = 0; i < P; ++i)
            if (is_blocked(procs_[i])) {
                start = i;
                break;
            }
    if (start == P) return;
    // The nearest root cause (breadth first), else the first cycle reached (depth first).
    std::vector<int> parent(P, -2);
    std::deque<std::size_t> queue{start};
    parent[start] = -1;
    int found = -1;
    while (!queue.empty() && found < 0) {
        const auto p = queue.front();
        queue.pop_front();
        if (terminal(p)) {
            found = static_cast<int>(p);
            break;
        }
        for (auto q : next_processes(p))
            if (parent[q] == -2) {
                parent[q] = static_cast<int>(p);
                queue.push_back(q);
            }
    }
    if (found >= 0) {
        for (int p = found; p >= 0; p = parent[static_cast<std::size_t>(p)])
            c.path.insert(c.path.begin(), static_cast<std::size_t>(p));
        c.terminal = found;
    } else {
        std::vector<int> on_path(P, -1);
        std::size_t p = start;
        for (;;) {
            on_path[p] = static_cast<int>(c.path.size());
            c.path.push_back(p);
            const auto next = next_processes(p);
            // Prefer a successor already on the path (it closes the cycle now), else the first.
            std::optional<std::size_t> pick;
            for (auto q : next)
                if (on_path[q] >= 0) {
                    pick = q;
                    break;
                }
            if (pick) {
                c.back_to = on_path[*pick];
                break;
            }
            if (next.empty()) break;
            p = next.front();
        }
    }
    for (auto p : c.path) d.nodes[p].in_chain = true;
    for (std::size_t k = 0; k < c.path.size(); ++k) {
        const auto from = c.path[k];
        const bool last = k + 1 == c.path.size();
        if (last && c.back_to < 0) break;
        const auto to = last ? c.path[static_cast<std::size_t>(c.back_to)] : c.path[k + 1];
        for (auto res : out[from])
            for (auto q : out[res])
                if (q == to) {
                    d.nodes[res].in_chain = true;
                    for (auto& e : d.edges)
                        if ((e.from == from && e.to == res) || (e.from == res && e.to == to)) e.in_chain = true;
                }
    }
}

std::string DeadlockAnalyzer::step_text(const Diagnosis& d, std::size_t i, Chain& c) const {
    const auto& p = procs_[i];
    const auto& ps = *p.state;
    const auto& name = p.progress.process;
    (void)d;
    auto peers = [&](bool senders) {
        std::vector<std::string> v;
        const int li = link_of(p);
        if (li < 0) return std::string("its stream peer");
        const auto& l = links_[static_cast<std::size_t>(li)];
        if (senders) return l.sender >= 0 ? procs_[static_cast<std::size_t>(l.sender)].progress.process : "nobody";
        for (std::size_t k = 0; k < l.receivers.size(); ++k)
            if (!l.posted[k]) v.push_back(procs_[static_cast<std::size_t>(l.receivers[k])].progress.process);
        return v.empty() ? std::string("its receivers") : join(v, " and ");
    };
    auto lock_text = [&] {
        const auto& l = locks_.at(static_cast<std::size_t>(ps.lock));
        std::vector<std::string> who;
        const auto& actors = rel_.locks.at(static_cast<std::size_t>(ps.lock));
        std::set<std::string> seen;
        for (const auto& a : actors.releasers)
            if (seen.insert(model::actor_name(net_, a.actor)).second) who.push_back(model::actor_name(net_, a.actor));
        std::vector<std::string> setters;
        for (const auto& a : actors.setters) setters.push_back(fmt::format("the runtime sequence (to {})", a.amount));
        std::string s =
            fmt::format("lock {} on {} is {}, needs {} {}", l.name, l.where, l.value, ps.equal ? "==" : ">=", ps.want);
        if (!who.empty()) s += "; released by " + join(who, ", ");
        if (!setters.empty()) s += "; set by " + join(setters, ", ");
        if (who.empty() && setters.empty()) s += "; nothing in the design releases or sets it";
        return s;
    };
    switch (p.kind) {
    case ProcessView::Kind::Runtime: {
        if (p.waits_for_queue) {
            const int s = shim_process(p.queue_channel);
            std::string pending;
            if (s >= 0) {
                const auto& sv = procs_[static_cast<std::size_t>(s)];
                std::vector<std::string> t;
                if (sv.task >= 0)
                    t.push_back(fmt::format("task {} (running)", net_.tasks[static_cast<std::size_t>(sv.task)].id));
                for (int q : sv.queued) t.push_back(fmt::format("task {}", net_.tasks[static_cast<std::size_t>(q)].id));
                pending = join(t, ", ");
            }
            return fmt::format("the runtime sequence ({}) waits for a free slot in the {}-deep task queue of {}, "
                               "which holds {}",
                               p.progress.current, net_.device->task_queue_depth, model::shim_dma_name(p.queue_channel),
                               pending.empty() ? std::string("its tasks") : pending);
        }
        if (p.awaited_task >= 0) {
            const auto& task = net_.tasks.at(static_cast<std::size_t>(p.awaited_task));
            const int s = shim_process(rel_.tasks.at(static_cast<std::size_t>(p.awaited_task)));
            std::string where = model::shim_dma_name(rel_.tasks.at(static_cast<std::size_t>(p.awaited_task)));
            std::string got;
            if (s >= 0) {
                const auto& sv = procs_[static_cast<std::size_t>(s)];
                // In 32-bit words, as the shim DMA counts them, and in bytes.
                auto words = [](std::uint64_t done, std::uint64_t total, const char* verb) {
                    return fmt::format(" ({} {} of {} words, {} of {} B)", verb, grouped(done / 4), grouped(total / 4),
                                       grouped(done), grouped(total));
                };
                if (sv.task == p.awaited_task && sv.rx_total)
                    got = words(sv.rx_total - sv.rx_remaining, sv.rx_total, "got");
                else if (sv.task == p.awaited_task && sv.tx_total)
                    got = words(sv.tx_done, sv.tx_total, "sent");
                else if (sv.task < 0)
                    got = " (the channel has no task in progress)";
            }
            return fmt::format("the runtime sequence awaits the {} of '{}': task {}, {} on {}{}",
                               task.prov.role.empty() ? std::string("task") : task.prov.role, task.prov.object, task.id,
                               plural(task.bytes(), "byte", "bytes"), where, got);
        }
        return "the runtime sequence: " + ps.describe();
    }
    case ProcessView::Kind::Worker: {
        if (ps.status == ProcessState::Status::WaitLock && ps.ring) {
            const auto& rings = net_.cores.at(static_cast<std::size_t>(p.index)).rings;
            std::string counts;
            for (std::size_t r = 0; r < p.progress.fifo_ends.size(); ++r)
                if (p.progress.fifo_ends[r].end == *ps.ring) {
                    const auto& fe = p.progress.fifo_ends[r];
                    counts = fmt::format("; so far it acquired {} and released {} object(s) of it, and holds {}",
                                         fe.acquired, fe.released, fe.held);
                    if (rings[r].prov.role.find("consumer") != std::string::npos && c.consumer_worker < 0) {
                        c.consumer_worker = static_cast<int>(i);
                        c.consumer_ring = static_cast<int>(r);
                    }
                    if (!c.object_bytes && !rings[r].buffers.empty())
                        c.object_bytes = net_.buffers.at(static_cast<std::size_t>(rings[r].buffers.front())).bytes;
                }
            std::vector<std::string> others;
            for (const auto& fe : p.progress.fifo_ends)
                if (fe.end != *ps.ring && fe.held > 0) others.push_back(fmt::format("{} of {}", fe.held, fe.end));
            if (!others.empty()) counts += "; meanwhile it holds " + join(others, " and ");
            std::string s = fmt::format("{} waits in acquire({}) of {} (element {}): {}{}", name, ps.count, *ps.ring,
                                        ps.element, lock_text(), counts);
            if (ps.count > ps.pool)
                s += fmt::format("; it asks more than the {} buffer(s) of its pool, so it can never complete", ps.pool);
            return s;
        }
        if (ps.status == ProcessState::Status::WaitLock)
            return fmt::format("{} waits in {}: {}", name, ps.detail.empty() ? "a lock acquire" : ps.detail,
                               lock_text());
        if (ps.status == ProcessState::Status::WaitCascade)
            return fmt::format("{} {}; so far {} word(s) were put and {} got, the FIFO holds {} of {}", name, ps.detail,
                               grouped(p.cascade_words_put), grouped(p.cascade_words_got), p.cascade_words,
                               p.cascade_depth);
        return fmt::format("{}: {}", name, ps.describe());
    }
    case ProcessView::Kind::TileDma:
    case ProcessView::Kind::ShimDma: {
        const bool shim = p.kind == ProcessView::Kind::ShimDma;
        if (ps.status == ProcessState::Status::WaitLock)
            return fmt::format("{} waits to run {}: {}", name, p.progress.current, lock_text());
        // What it is working on: a shim channel's task, a tile channel's BD.
        const std::string what = shim && p.task >= 0
                                     ? fmt::format("task {} ({})", net_.tasks[static_cast<std::size_t>(p.task)].id,
                                                   net_.tasks[static_cast<std::size_t>(p.task)].prov.describe())
                                     : p.progress.current;
        if (p.endpoint.dir == model::Direction::S2MM) {
            if (!shim && p.rx_total && !c.object_bytes) c.object_bytes = p.rx_total;
            return fmt::format("{} {} {} and has received {} of {} B; it waits for data from {}", name,
                               shim ? "runs" : "is filling", what, grouped(p.rx_total - p.rx_remaining),
                               grouped(p.rx_total), peers(true));
        }
        const int li = link_of(p);
        const bool broadcast = li >= 0 && links_[static_cast<std::size_t>(li)].receivers.size() > 1;
        return fmt::format("{} sends {} and has delivered {} of {} B; it waits for {} to take data{}", name, what,
                           grouped(p.tx_done), grouped(p.tx_total), peers(false),
                           broadcast ? " (a broadcast moves only when every destination is ready)" : "");
    }
    }
    return name;
}

std::string DeadlockAnalyzer::root_text(std::size_t i, Chain& c) const {
    const auto& p = procs_[i];
    const auto& name = p.progress.process;
    if (p.progress.state == ProcessProgress::State::Idle && p.kind == ProcessView::Kind::ShimDma) {
        const auto bytes = p.progress.bytes;
        const bool fill = p.endpoint.dir == model::Direction::MM2S;
        std::string s = fmt::format("{} has no task queued: the sequence's {} on it moved {} B", name,
                                    fill ? "fills" : "drains", grouped(bytes));
        if (c.object_bytes)
            s += fmt::format(" ({} of {} B)", plural(bytes / c.object_bytes, "object", "objects"),
                             grouped(c.object_bytes));
        if (fill && c.consumer_worker >= 0) {
            const auto& w = procs_[static_cast<std::size_t>(c.consumer_worker)];
            const auto& fe = w.progress.fifo_ends.at(static_cast<std::size_t>(c.consumer_ring));
            s += fmt::format(", {} consumed {} and wants the {}",
                             model::worker_label(net_.cores[static_cast<std::size_t>(w.index)].worker),
                             plural(fe.released + static_cast<std::uint64_t>(fe.held), "object", "objects"),
                             ordinal(fe.released + static_cast<std::uint64_t>(w.state->count)));
        }
        // A fill or drain of this channel later in the sequence: the host ordered it after the wait.
        if (const int k = later_start(p.endpoint); k >= 0) {
            const auto& t = net_.tasks[static_cast<std::size_t>(net_.sequence[static_cast<std::size_t>(k)].task)];
            int at = 0;
            for (const auto& r : procs_)
                if (r.kind == ProcessView::Kind::Runtime) at = r.next_op;
            s += fmt::format("; the sequence starts its next task, task {} ({}), only at instruction {}, after the "
                             "wait at instruction {}",
                             t.id, t.prov.describe(), k + 1, at + 1);
        }
        return s;
    }
    if (p.progress.state == ProcessProgress::State::Finished && p.kind == ProcessView::Kind::Worker) {
        const auto& prog = net_.cores.at(static_cast<std::size_t>(p.index));
        std::string s = fmt::format("{} has finished: its body {} returned after {}", name,
                                    prog.while_true ? "(parked: it never synchronises)" : "(while_true=false)",
                                    plural(p.progress.steps, "iteration", "iterations"));
        std::vector<std::string> made;
        for (const auto& fe : p.progress.fifo_ends)
            if (fe.end.find("producer") != std::string::npos)
                made.push_back(fmt::format("{} of {}", plural(fe.released, "object", "objects"), fe.end));
        if (!made.empty()) s += ", having produced " + join(made, " and ");
        for (std::size_t r = 0; r < prog.rings.size(); ++r) {
            const auto& ring = prog.rings[r];
            if (ring.prov.role.find("consumer") == std::string::npos) continue;
            const int v = locks_.at(static_cast<std::size_t>(ring.acquire_lock)).value;
            if (v > 0)
                s += fmt::format("; {} object(s) of fifo '{}' still wait for it", v / std::max(1, ring.repeat),
                                 ring.prov.object);
        }
        return s;
    }
    if (p.progress.state == ProcessProgress::State::Finished)
        return fmt::format("{} has finished its BD chain after {}", name, plural(p.progress.steps, "BD", "BDs"));
    return {};
}

void DeadlockAnalyzer::name_case(Diagnosis& d, const Chain& c) const {
    auto set = [&](const char* id, const char* title, std::string why) {
        d.case_id = id;
        d.case_title = title;
        d.case_explanation = std::move(why);
    };
    // 1. An acquire beyond the pool: wherever it is, nothing else can ever serve it.
    for (const auto& p : procs_)
        if (over_pool(p)) {
            set("pool_overacquire", "acquire beyond the shared pool",
                fmt::format("{} acquires {} objects of {}, but the pool of buffers both cores share holds {} (the "
                            "producer's depth). Give the fifo's producer a depth of at least {}, or acquire fewer.",
                            p.progress.process, p.state->count, *p.state->ring, p.state->pool, p.state->count));
            return;
        }
    const ProcessView* head = c.path.empty() ? nullptr : &procs_[c.path.front()];
    // 2. The host filled a task queue with tasks that cannot complete before a later one runs.
    if (head && head->kind == ProcessView::Kind::Runtime && head->waits_for_queue) {
        set("full_task_queue", "full task queue",
            fmt::format("The runtime sequence pushed more tasks onto {} than its {}-deep queue holds, and the queued "
                        "ones cannot complete until something later in the sequence runs. Await (or finish a task "
                        "group) before pushing more, or start the task that feeds them first.",
                        model::shim_dma_name(head->queue_channel), net_.device->task_queue_depth));
        return;
    }
    if (c.terminal >= 0) {
        const auto& t = procs_[static_cast<std::size_t>(c.terminal)];
        if (t.kind == ProcessView::Kind::ShimDma && t.progress.state == ProcessProgress::State::Idle) {
            if (t.endpoint.dir == model::Direction::MM2S) {
                for (auto i : c.path) {
                    const auto& p = procs_[i];
                    if (p.kind == ProcessView::Kind::TileDma && p.rx_total && p.rx_remaining &&
                        p.rx_remaining < p.rx_total) {
                        set("partial_object", "starvation: a partial last object",
                            fmt::format("{} got {} of the {} B of its current object and the fill on {} has ended: "
                                        "the fill is not a whole number of objects, so the last one is never "
                                        "complete. Fill whole objects.",
                                        p.progress.process, grouped(p.rx_total - p.rx_remaining), grouped(p.rx_total),
                                        t.progress.process));
                        return;
                    }
                }
                if (later_start(t.endpoint) >= 0) {
                    set("fill_after_await", "starvation: the sequence awaits before it fills what that needs",
                        fmt::format("{} has no task queued now: the runtime sequence starts its next fill only after "
                                    "the wait it is blocked in, and what it waits for needs that fill. Start the "
                                    "fill before awaiting (put it in the same task group, or finish the group "
                                    "after it).",
                                    t.progress.process));
                    return;
                }
                set("fill_less_than_consumed", "starvation: the sequence fills less than the design consumes",
                    fmt::format("{} has no more data to send: the runtime sequence fills fewer objects than the "
                                "workers consume before they produce what is awaited (or fills them only after the "
                                "wait). Fill more, drain less, or start the fill before awaiting.",
                                t.progress.process));
                return;
            }
            set("drain_less_than_produced", "starvation: the sequence drains less than the design produces",
                fmt::format("{} has no drain task, so data the design sends to it has nowhere to go. Drain everything "
                            "the design produces.",
                            t.progress.process));
            return;
        }
        if (t.kind == ProcessView::Kind::Worker && t.progress.state == ProcessProgress::State::Finished) {
            // A worker on the chain waits on a cascade of this finished worker.
            for (auto i : c.path) {
                const auto& p = procs_[i];
                if (!is_blocked(p) || p.state->status != ProcessState::Status::WaitCascade || p.cascade < 0) continue;
                const auto& cc = net_.cascades.at(static_cast<std::size_t>(p.cascade));
                if ((p.cascade_put ? cc.dst_core : cc.src_core) != t.index) continue;
                if (p.cascade_put)
                    set("cascade_never_got", "cascade words nobody takes",
                        fmt::format("{} waits for room on the {}, but worker '{}' has finished after getting {} "
                                    "word(s) of it. Get every word the other end puts (the same number of "
                                    "cascade_get / get_scd calls as cascade_put / put_mcd).",
                                    p.progress.process, cc.describe(), cc.dst_worker, grouped(p.cascade_words_got)));
                else
                    set("cascade_never_put", "cascade word never put",
                        fmt::format("{} waits for a cascade word from worker '{}' on the {}, but that worker has "
                                    "finished after putting {} word(s). Put every word the other end gets (the same "
                                    "number of cascade_put / put_mcd calls as cascade_get / get_scd).",
                                    p.progress.process, cc.src_worker, cc.describe(), grouped(p.cascade_words_put)));
                return;
            }
            const auto& prog = net_.cores.at(static_cast<std::size_t>(t.index));
            bool input_waiting = false;
            for (const auto& ring : prog.rings)
                if (ring.prov.role.find("consumer") != std::string::npos &&
                    locks_.at(static_cast<std::size_t>(ring.acquire_lock)).value > 0)
                    input_waiting = true;
            for (const auto& p : procs_)
                if (p.kind == ProcessView::Kind::ShimDma && p.endpoint.dir == model::Direction::MM2S &&
                    (p.task >= 0 || !p.queued.empty()))
                    input_waiting = true;
            if (!input_waiting && head && head->kind == ProcessView::Kind::Runtime && head->awaited_task >= 0 &&
                net_.tasks[static_cast<std::size_t>(head->awaited_task)].dir == model::Direction::S2MM) {
                set("drain_more_than_produced", "starvation: the sequence drains more than the design produces",
                    fmt::format("{} produced everything it will produce ({}), but the drain waits for more. Drain "
                                "only what the design produces, or let the worker run more iterations.",
                                t.progress.process, plural(t.progress.steps, "iteration", "iterations")));
                return;
            }
            set("finished_worker", "finished worker",
                fmt::format("{} returned (while_true=false after {}) while the design still sends it data or waits "
                            "for its output. Run it for as many iterations as the data needs (while_true, or a loop "
                            "in its body).",
                            t.progress.process, plural(t.progress.steps, "iteration", "iterations")));
            return;
        }
        if (t.kind == ProcessView::Kind::TileDma && t.progress.state == ProcessProgress::State::Finished) {
            set("finished_channel", "finished DMA channel",
                fmt::format("{} ran its BD chain to its end (its repeat count is spent) while others still wait for "
                            "it. Match the repeat counts / iteration counts of both sides.",
                            t.progress.process));
            return;
        }
        if (is_blocked(t) && t.state->status == ProcessState::Status::WaitLock) {
            const auto& actors = rel_.locks.at(static_cast<std::size_t>(t.state->lock));
            if (t.state->equal || !actors.setters.empty()) {
                set("barrier_never_set", "barrier never set",
                    fmt::format("{} waits for lock {} to reach {}, but nothing left to run sets it. Set the barrier "
                                "from the runtime sequence before the workers wait on it.",
                                t.progress.process, locks_.at(static_cast<std::size_t>(t.state->lock)).name,
                                t.state->want));
                return;
            }
            set("no_releaser", "lock nobody releases",
                fmt::format("{} waits on lock {}, which nothing in the design releases.", t.progress.process,
                            locks_.at(static_cast<std::size_t>(t.state->lock)).name));
            return;
        }
    }
    if (c.back_to >= 0) {
        std::vector<std::size_t> cyc(c.path.begin() + c.back_to, c.path.end());
        std::set<std::string> fifos;
        bool back_pressure = false, all_locks = true;
        int workers = 0;
        for (auto i : cyc) {
            const auto& p = procs_[i];
            const auto& ps = *p.state;
            workers += p.kind == ProcessView::Kind::Worker ? 1 : 0;
            if (ps.status == ProcessState::Status::WaitLock) {
                const auto& l = net_.locks.at(static_cast<std::size_t>(ps.lock));
                fifos.insert(l.prov.object);
            } else {
                all_locks = false;
                // A sender waiting for a receiver to take data: the stream pushes back.
                const int li = link_of(p);
                back_pressure |= ps.status == ProcessState::Status::WaitStream && li >= 0 &&
                                 links_[static_cast<std::size_t>(li)].sender == static_cast<int>(i);
            }
        }
        const int channels = static_cast<int>(cyc.size()) - workers;
        if (all_locks && fifos.size() == 1 && cyc.size() == 2) {
            std::vector<std::string> held;
            for (auto i : cyc) {
                const auto& p = procs_[i];
                const auto& ps = *p.state;
                int h = 0;
                for (const auto& fe : p.progress.fifo_ends)
                    if (ps.ring && fe.end == *ps.ring) h = fe.held;
                held.push_back(fmt::format("{} holds {} and waits in acquire({})", p.progress.process, h, ps.count));
            }
            set("held_exceeds_depth", "producer and consumer hold more than the depth",
                fmt::format("On fifo '{}': {}. What the two ends hold and want together is more than the fifo's "
                            "buffers. Raise its depth, or release before acquiring again.",
                            *fifos.begin(), join(held, "; ")));
            return;
        }
        set("lock_cycle", back_pressure ? "lock cycle through a stream's back-pressure" : "lock cycle",
            fmt::format("{}{} wait on each other in a ring (fifos {}). Acquire the fifos in the same order "
                        "everywhere, release an object before waiting on another fifo, or give one of them an object "
                        "to start with (depth, init_values).",
                        plural(static_cast<std::uint64_t>(workers), "worker", "workers"),
                        channels ? " and " + plural(static_cast<std::uint64_t>(channels), "DMA channel", "DMA channels")
                                 : std::string(),
                        [&] {
                            std::vector<std::string> v;
                            for (const auto& f : fifos) v.push_back("'" + f + "'");
                            return v.empty() ? std::string("-") : join(v, ", ");
                        }()));
        return;
    }
    set("unknown", "deadlock", "No root cause was found on the chain; see the blocked processes below.");
}

std::string DeadlockAnalyzer::flat_report() const {
    std::string out = "blocked:\n";
    int blocked = 0;
    for (const auto& p : procs_) {
        if (!is_blocked(p)) continue;
        const auto& ps = *p.state;
        ++blocked;
        out += fmt::format("  {}", ps.name);
        switch (ps.status) {
        case ProcessState::Status::WaitLock: {
            const auto& l = locks_.at(static_cast<std::size_t>(ps.lock));
            std::set<std::string> who;
            for (const auto& r : rel_.locks.at(static_cast<std::size_t>(ps.lock)).releasers)
                who.insert(model::actor_name(net_, r.actor));
            std::string rel;
            for (const auto& w : who) rel += (rel.empty() ? "" : ", ") + w;
            out += fmt::format(": {}\n      waits on lock {} on {} {} {} (value now {}); released by {}", ps.describe(),
                               l.name, l.where, ps.equal ? "==" : ">=", ps.want, l.value,
                               rel.empty() ? std::string("nobody") : rel);
            if (!l.last_releaser.empty()) out += fmt::format("; last released by {}", l.last_releaser);
            break;
        }
        case ProcessState::Status::WaitStream: {
            const int li = link_of(p);
            std::string peer = "its stream peer";
            if (li >= 0) {
                const auto& l = links_[static_cast<std::size_t>(li)];
                if (l.sender != static_cast<int>(&p - procs_.data()) && l.sender >= 0)
                    peer += " " + procs_[static_cast<std::size_t>(l.sender)].progress.process;
            }
            out += fmt::format(": {}\n      waits for {}", ps.describe(), peer);
            break;
        }
        case ProcessState::Status::WaitTask:
        case ProcessState::Status::WaitCascade: out += fmt::format(": {}", ps.describe()); break;
        default: break;
        }
        out += "\n";
    }
    if (blocked == 0) out += "  (none)\n";
    std::string idle;
    for (const auto& p : procs_)
        if (p.progress.state == ProcessProgress::State::Idle)
            idle += fmt::format("  {}: no task queued\n", p.progress.process);
    if (!idle.empty()) out += "idle:\n" + idle;
    std::string finished;
    for (const auto& p : procs_)
        if (p.progress.state == ProcessProgress::State::Finished)
            finished += fmt::format(
                "  {}: finished after {}\n", p.progress.process,
                plural(p.progress.steps, singular(p.progress.steps_unit).c_str(), p.progress.steps_unit.c_str()));
    if (!finished.empty()) out += "finished:\n" + finished;
    for (const auto& l : links_)
        if (l.sender_waiting) {
            std::string missing;
            for (std::size_t k = 0; k < l.receivers.size(); ++k)
                if (!l.posted[k])
                    missing += (missing.empty() ? "" : ", ") +
                               procs_[static_cast<std::size_t>(l.receivers[k])].progress.process;
            out += fmt::format("stream of {}: the sender waits for {} to take data\n", l.label, missing);
        }
    return out;
}

std::string DeadlockAnalyzer::progress_table() const {
    struct Row {
        std::string process, state, done, last;
    };
    std::vector<Row> rows;
    std::vector<std::vector<std::string>> sub;
    for (const auto& p : procs_) {
        const auto& g = p.progress;
        std::string done = plural(g.steps, singular(g.steps_unit).c_str(), g.steps_unit.c_str());
        if (p.kind == ProcessView::Kind::TileDma || p.kind == ProcessView::Kind::ShimDma)
            done += fmt::format(", {} B", grouped(g.bytes));
        std::string last =
            g.last_action.empty() ? "-" : fmt::format("{} (cycle {})", g.last_action, grouped(g.last_cycle));
        rows.push_back({g.process, to_string(g.state), done, last});
        std::vector<std::string> lines;
        for (const auto& fe : g.fifo_ends)
            lines.push_back(fmt::format("{}: acquired {}, released {}, holds {}", fe.end, grouped(fe.acquired),
                                        grouped(fe.released), fe.held));
        if (!g.current.empty() && p.kind != ProcessView::Kind::Worker) lines.push_back("at " + g.current);
        sub.push_back(std::move(lines));
    }
    std::size_t w0 = 7, w1 = 5, w2 = 4;
    for (const auto& r : rows) {
        w0 = std::max(w0, r.process.size());
        w1 = std::max(w1, r.state.size());
        w2 = std::max(w2, r.done.size());
    }
    std::string out =
        fmt::format("  {:<{}}  {:<{}}  {:<{}}  {}\n", "process", w0, "state", w1, "done", w2, "last action (cycle)");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        out += fmt::format("  {:<{}}  {:<{}}  {:<{}}  {}\n", r.process, w0, r.state, w1, r.done, w2, r.last);
        for (const auto& l : sub[i]) out += fmt::format("  {:<{}}    {}\n", "", w0, l);
    }
    return out;
}

Diagnosis DeadlockAnalyzer::base(Diagnosis::Trigger t) const {
    Diagnosis d;
    d.trigger = t;
    d.cycle = cycle_;
    d.design = net_.design;
    d.device = net_.device ? net_.device->name : "";
    d.progress.reserve(procs_.size());
    for (const auto& p : procs_) d.progress.push_back(p.progress);
    d.warnings = warnings_;
    return d;
}

Diagnosis DeadlockAnalyzer::deadlock() const {
    Diagnosis d = base(Diagnosis::Trigger::Deadlock);
    build_graph(d);
    const WaitForGraph g(d.nodes, d.edges);
    d.cycles = g.cycles();
    for (const auto& cyc : d.cycles)
        for (std::size_t k = 0; k < cyc.size(); ++k) {
            d.nodes[cyc[k]].in_cycle = true;
            const auto from = cyc[k], to = cyc[(k + 1) % cyc.size()];
            for (auto& e : d.edges)
                if (e.from == from && e.to == to) e.in_cycle = true;
        }
    Chain c;
    walk_chain(d, c);
    for (std::size_t k = 0; k < c.path.size(); ++k) {
        d.chain.push_back(step_text(d, c.path[k], c));
        d.chain_nodes.push_back(c.path[k]);
    }
    if (c.terminal >= 0) {
        auto root = root_text(static_cast<std::size_t>(c.terminal), c);
        if (!root.empty()) d.chain.back() = root;
    }
    if (c.back_to >= 0)
        d.chain.back() += fmt::format(", which waits on step {}: the chain closes a cycle", c.back_to + 1);
    name_case(d, c);

    std::string out = fmt::format("deadlock at cycle {} in design '{}' on {}: no process can make progress\n",
                                  grouped(cycle_), net_.design, d.device);
    out += fmt::format("case: {} [{}]\n  {}\n", d.case_title, d.case_id, d.case_explanation);
    if (!d.chain.empty()) {
        out += "why:\n";
        for (std::size_t k = 0; k < d.chain.size(); ++k) out += fmt::format("  {}. {}\n", k + 1, d.chain[k]);
    }
    if (!d.cycles.empty()) {
        out += d.cycles.size() == 1 ? "cycle in the wait-for graph:\n" : "cycles in the wait-for graph:\n";
        for (const auto& cyc : d.cycles) {
            std::string s;
            for (auto n : cyc) s += d.nodes[n].label + " -> ";
            out += "  " + s + d.nodes[cyc.front()].label + "\n";
        }
    }
    out += flat_report();
    out += "progress:\n" + progress_table();
    for (const auto& w : warnings_) out += "warning: " + w + "\n";
    d.text = out;
    return d;
}

Diagnosis DeadlockAnalyzer::limit(std::uint64_t max_cycles, double wall_seconds) const {
    Diagnosis d = base(Diagnosis::Trigger::Limit);
    for (const auto& p : procs_) {
        WaitNode n;
        n.kind = node_kind(p.kind);
        n.id = node_id(p);
        n.label = p.progress.process;
        n.state = p.progress.state;
        d.nodes.push_back(std::move(n));
    }
    // "Still making progress": some process acted in the last tenth of the run.
    const std::uint64_t span = wall_seconds > 0 ? cycle_ : max_cycles;
    const std::uint64_t window = std::max<std::uint64_t>(1000, span / 10);
    const std::uint64_t since = cycle_ > window ? cycle_ - window : 0;
    std::vector<std::string> active;
    for (const auto& p : procs_)
        if ((!p.progress.last_action.empty() && p.progress.last_cycle >= since) ||
            p.progress.state == ProcessProgress::State::Running)
            active.push_back(p.progress.process);
    std::string out =
        wall_seconds > 0
            ? fmt::format("design '{}' on {}: reached the wall-clock limit of {:g} s at cycle {} before the runtime "
                          "sequence finished (--timeout)\n",
                          net_.design, d.device, wall_seconds, grouped(cycle_))
            : fmt::format("design '{}' on {}: reached the cycle limit of {} cycles before the runtime sequence "
                          "finished (--max-cycles)\n",
                          net_.design, d.device, max_cycles);
    if (!active.empty()) {
        d.case_id = "livelock";
        d.case_title = "still making progress at the limit";
        d.case_explanation = fmt::format(
            "{} of {} processes acted in the last {} cycles or are busy now ({}): the run is too long for the limit, "
            "or loops "
            "without end (a livelock). Raise --max-cycles, or compare the counters below with what the design should "
            "do.",
            active.size(), procs_.size(), grouped(window), join(active, ", "));
    } else {
        d.case_id = "stalled";
        d.case_title = "no progress near the limit";
        d.case_explanation = fmt::format("No process acted in the last {} cycles: the run waits on timed events "
                                         "that do not move data.",
                                         grouped(window));
    }
    out += fmt::format("case: {} [{}]\n  {}\n", d.case_title, d.case_id, d.case_explanation);
    out += "progress:\n" + progress_table();
    for (const auto& w : warnings_) out += "warning: " + w + "\n";
    d.text = out;
    return d;
}

} // namespace npusim::sim

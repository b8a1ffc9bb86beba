#include "CausalChain.hpp"

#include "ReportText.hpp"

#include <algorithm>
#include <deque>
#include <fmt/format.h>
#include <optional>
#include <set>

namespace npusim::sim {

CausalChain::CausalChain(const StoppedRun& run, Diagnosis& d) : run_(run) {
    walk(d);
    for (const auto p : path_) {
        d.chain.push_back(step_text(p));
        d.chain_nodes.push_back(p);
    }
    // The steps run first: they gather the facts (object size, consumer) the root step names.
    if (terminal_ >= 0) {
        auto root = root_text(static_cast<std::size_t>(terminal_));
        if (!root.empty()) d.chain.back() = root;
    }
    if (back_to_ >= 0)
        d.chain.back() += fmt::format(", which waits on step {}: the chain closes a cycle", back_to_ + 1);
}

void CausalChain::walk(Diagnosis& d) {
    const auto& procs = run_.procs;
    const std::size_t P = procs.size();
    // Successor processes of each process node (through its one resource).
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
    // A root cause: a process that no longer acts, or whose wait nobody else can serve.
    auto is_root = [&](std::size_t p) {
        const auto& v = procs[p];
        if (!is_blocked(v)) return true;
        if (over_pool(v)) return true;
        return next_processes(p).empty();
    };
    // Start at the runtime sequence when it is blocked (the last one in view order), else at the
    // first blocked process.
    std::size_t start = P;
    for (std::size_t i = 0; i < P; ++i)
        if (procs[i].kind == ProcessView::Kind::Runtime && is_blocked(procs[i])) start = i;
    if (start == P)
        for (std::size_t i = 0; i < P; ++i)
            if (is_blocked(procs[i])) {
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
        if (is_root(p)) {
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
            path_.insert(path_.begin(), static_cast<std::size_t>(p));
        terminal_ = found;
    } else {
        std::vector<int> on_path(P, -1);
        std::size_t p = start;
        for (;;) {
            on_path[p] = static_cast<int>(path_.size());
            path_.push_back(p);
            const auto next = next_processes(p);
            // Prefer a successor already on the path (it closes the cycle now), else the first.
            std::optional<std::size_t> pick;
            for (auto q : next)
                if (on_path[q] >= 0) {
                    pick = q;
                    break;
                }
            if (pick) {
                back_to_ = on_path[*pick];
                break;
            }
            if (next.empty()) break;
            p = next.front();
        }
    }
    mark(d, out);
}

// The chain's processes, and the resources and edges between consecutive steps (and from the last
// step back to the one it closes a cycle with).
void CausalChain::mark(Diagnosis& d, const std::vector<std::vector<std::size_t>>& out) const {
    for (auto p : path_) d.nodes[p].in_chain = true;
    for (std::size_t k = 0; k < path_.size(); ++k) {
        const auto from = path_[k];
        const bool last = k + 1 == path_.size();
        if (last && back_to_ < 0) break;
        const auto to = last ? path_[static_cast<std::size_t>(back_to_)] : path_[k + 1];
        for (auto res : out[from])
            for (auto q : out[res])
                if (q == to) {
                    d.nodes[res].in_chain = true;
                    for (auto& e : d.edges)
                        if ((e.from == from && e.to == res) || (e.from == res && e.to == to)) e.in_chain = true;
                }
    }
}

std::string CausalChain::lock_text(const ProcessState& ps) const {
    const auto& net = run_.net;
    const auto& l = run_.locks.at(static_cast<std::size_t>(ps.lock));
    std::vector<std::string> who;
    const auto& actors = run_.rel.locks.at(static_cast<std::size_t>(ps.lock));
    std::set<std::string> seen;
    for (const auto& a : actors.releasers)
        if (seen.insert(model::actor_name(net, a.actor)).second) who.push_back(model::actor_name(net, a.actor));
    std::vector<std::string> setters;
    for (const auto& a : actors.setters) setters.push_back(fmt::format("the runtime sequence (to {})", a.amount));
    std::string s =
        fmt::format("lock {} on {} is {}, needs {} {}", l.name, l.where, l.value, ps.equal ? "==" : ">=", ps.want);
    if (!who.empty()) s += "; released by " + join(who, ", ");
    if (!setters.empty()) s += "; set by " + join(setters, ", ");
    if (who.empty() && setters.empty()) s += "; nothing in the design releases or sets it";
    return s;
}

std::string CausalChain::step_text(std::size_t i) {
    const auto& p = run_.procs[i];
    switch (p.kind) {
    case ProcessView::Kind::Runtime: return runtime_step(p);
    case ProcessView::Kind::Worker: return worker_step(i);
    case ProcessView::Kind::TileDma:
    case ProcessView::Kind::ShimDma: return dma_step(p);
    }
    return p.progress.process;
}

// The runtime sequence waits for a task queue slot (naming the tasks the queue holds) or awaits a
// task (with how much of it its shim channel has moved).
std::string CausalChain::runtime_step(const ProcessView& p) const {
    const auto& net = run_.net;
    if (p.waits_for_queue) {
        const int s = run_.shim_process(p.queue_channel);
        std::string pending;
        if (s >= 0) {
            const auto& sv = run_.procs[static_cast<std::size_t>(s)];
            std::vector<std::string> t;
            for (int q : sv.queued) t.push_back(fmt::format("task {}", net.tasks[static_cast<std::size_t>(q)].id));
            pending = join(t, ", ");
            // The queue holds the tasks behind the one the channel runs.
            if (sv.task >= 0)
                pending += fmt::format(" behind task {}, running", net.tasks[static_cast<std::size_t>(sv.task)].id);
        }
        return fmt::format("the runtime sequence ({}) waits for a free slot in the {}-deep task queue of {}, "
                           "which holds {}",
                           p.progress.current, net.device->task_queue_depth, model::shim_dma_name(p.queue_channel),
                           pending.empty() ? std::string("its tasks") : pending);
    }
    if (p.awaited_task >= 0) {
        const auto& task = net.tasks.at(static_cast<std::size_t>(p.awaited_task));
        const int s = run_.shim_process(run_.rel.tasks.at(static_cast<std::size_t>(p.awaited_task)));
        std::string where = model::shim_dma_name(run_.rel.tasks.at(static_cast<std::size_t>(p.awaited_task)));
        std::string got;
        if (s >= 0) {
            const auto& sv = run_.procs[static_cast<std::size_t>(s)];
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
    return "the runtime sequence: " + p.state->describe();
}

// A worker in an acquire (with its counts on that fifo end and what else it holds), in another
// lock wait (a barrier), or on a cascade. The first consumer acquire on the chain, and the object
// size of the fifo it waits on, are kept for the root step.
std::string CausalChain::worker_step(std::size_t i) {
    const auto& net = run_.net;
    const auto& p = run_.procs[i];
    const auto& ps = *p.state;
    const auto& name = p.progress.process;
    if (ps.status == ProcessState::Status::WaitLock && ps.ring) {
        const auto& rings = net.cores.at(static_cast<std::size_t>(p.index)).rings;
        std::string counts;
        for (std::size_t r = 0; r < p.progress.fifo_ends.size(); ++r)
            if (p.progress.fifo_ends[r].end == *ps.ring) {
                const auto& fe = p.progress.fifo_ends[r];
                counts = fmt::format("; so far it acquired {} and released {} object(s) of it, and holds {}",
                                     fe.acquired, fe.released, fe.held);
                if (rings[r].prov.role.find("consumer") != std::string::npos && consumer_worker_ < 0) {
                    consumer_worker_ = static_cast<int>(i);
                    consumer_ring_ = static_cast<int>(r);
                }
                if (!object_bytes_ && !rings[r].buffers.empty())
                    object_bytes_ = net.buffers.at(static_cast<std::size_t>(rings[r].buffers.front())).bytes;
            }
        std::vector<std::string> others;
        for (const auto& fe : p.progress.fifo_ends)
            if (fe.end != *ps.ring && fe.held > 0) others.push_back(fmt::format("{} of {}", fe.held, fe.end));
        if (!others.empty()) counts += "; meanwhile it holds " + join(others, " and ");
        std::string s = fmt::format("{} waits in acquire({}) of {} (element {}): {}{}", name, ps.count, *ps.ring,
                                    ps.element, lock_text(ps), counts);
        if (ps.count > ps.pool)
            s += fmt::format("; it asks more than the {} buffer(s) of its pool, so it can never complete", ps.pool);
        return s;
    }
    if (ps.status == ProcessState::Status::WaitLock)
        return fmt::format("{} waits in {}: {}", name, ps.detail.empty() ? "a lock acquire" : ps.detail, lock_text(ps));
    if (ps.status == ProcessState::Status::WaitCascade)
        return fmt::format("{} {}; so far {} word(s) were put and {} got, the FIFO holds {} of {}", name, ps.detail,
                           grouped(p.cascade_words_put), grouped(p.cascade_words_got), p.cascade_words,
                           p.cascade_depth);
    return fmt::format("{}: {}", name, ps.describe());
}

// A DMA channel waiting on a lock before its BD, receiving (how much of its BD or task arrived,
// from whom) or sending (how much was delivered, to which receivers not ready).
std::string CausalChain::dma_step(const ProcessView& p) {
    const auto& net = run_.net;
    const auto& ps = *p.state;
    const auto& name = p.progress.process;
    const bool shim = p.kind == ProcessView::Kind::ShimDma;
    if (ps.status == ProcessState::Status::WaitLock)
        return fmt::format("{} waits to run {}: {}", name, p.progress.current, lock_text(ps));
    // The other end of its stream: the sender, or the receivers not ready for data.
    auto peers = [&](bool senders) {
        std::vector<std::string> v;
        const int li = run_.link_of(p);
        if (li < 0) return std::string("its stream peer");
        const auto& l = run_.links[static_cast<std::size_t>(li)];
        if (senders) return l.sender >= 0 ? run_.procs[static_cast<std::size_t>(l.sender)].progress.process : "nobody";
        for (std::size_t k = 0; k < l.receivers.size(); ++k)
            if (!l.posted[k]) v.push_back(run_.procs[static_cast<std::size_t>(l.receivers[k])].progress.process);
        return v.empty() ? std::string("its receivers") : join(v, " and ");
    };
    // What it is working on: a shim channel's task, a tile channel's BD.
    const std::string what = shim && p.task >= 0
                                 ? fmt::format("task {} ({})", net.tasks[static_cast<std::size_t>(p.task)].id,
                                               net.tasks[static_cast<std::size_t>(p.task)].prov.describe())
                                 : p.progress.current;
    if (p.endpoint.dir == model::Direction::S2MM) {
        if (!shim && p.rx_total && !object_bytes_) object_bytes_ = p.rx_total;
        return fmt::format("{} {} {} and has received {} of {} B; it waits for data from {}", name,
                           shim ? "runs" : "is filling", what, grouped(p.rx_total - p.rx_remaining),
                           grouped(p.rx_total), peers(true));
    }
    const int li = run_.link_of(p);
    const bool broadcast = li >= 0 && run_.links[static_cast<std::size_t>(li)].receivers.size() > 1;
    return fmt::format("{} sends {} and has delivered {} of {} B; it waits for {} to take data{}", name, what,
                       grouped(p.tx_done), grouped(p.tx_total), peers(false),
                       broadcast ? " (a broadcast moves only when every destination is ready)" : "");
}

std::string CausalChain::root_text(std::size_t i) const {
    const auto& net = run_.net;
    const auto& p = run_.procs[i];
    const auto& name = p.progress.process;
    // An idle shim channel: how much the sequence's fills or drains on it moved, in objects; what
    // the consumer on the chain consumed and wants; and a later task on it, if the sequence has one.
    if (p.progress.state == ProcessProgress::State::Idle && p.kind == ProcessView::Kind::ShimDma) {
        const auto bytes = p.progress.bytes;
        const bool fill = p.endpoint.dir == model::Direction::MM2S;
        std::string s = fmt::format("{} has no task queued: the sequence's {} on it moved {} B", name,
                                    fill ? "fills" : "drains", grouped(bytes));
        if (object_bytes_)
            s += fmt::format(" ({} of {} B)", plural(bytes / object_bytes_, "object", "objects"),
                             grouped(object_bytes_));
        if (fill && consumer_worker_ >= 0) {
            const auto& w = run_.procs[static_cast<std::size_t>(consumer_worker_)];
            const auto& fe = w.progress.fifo_ends.at(static_cast<std::size_t>(consumer_ring_));
            s += fmt::format(", {} consumed {} and wants the {}",
                             model::worker_label(net.cores[static_cast<std::size_t>(w.index)].worker),
                             plural(fe.released + static_cast<std::uint64_t>(fe.held), "object", "objects"),
                             ordinal(fe.released + static_cast<std::uint64_t>(w.state->count)));
        }
        // A fill or drain of this channel later in the sequence: the host ordered it after the wait.
        if (const int k = run_.later_start(p.endpoint); k >= 0) {
            const auto& t = net.tasks[static_cast<std::size_t>(net.sequence[static_cast<std::size_t>(k)].task)];
            int at = 0;
            for (const auto& r : run_.procs)
                if (r.kind == ProcessView::Kind::Runtime) at = r.next_op;
            s += fmt::format("; the sequence starts its next task, task {} ({}), only at instruction {}, after the "
                             "wait at instruction {}",
                             t.id, t.prov.describe(), k + 1, at + 1);
        }
        return s;
    }
    // A finished worker: how its body ended, what it produced, and the objects still waiting for it.
    if (p.progress.state == ProcessProgress::State::Finished && p.kind == ProcessView::Kind::Worker) {
        const auto& prog = net.cores.at(static_cast<std::size_t>(p.index));
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
            if (ring.prov.role.find("consumer") == std::string::npos || ring.acquire_lock < 0) continue;
            const int v = run_.locks.at(static_cast<std::size_t>(ring.acquire_lock)).value;
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

} // namespace npusim::sim

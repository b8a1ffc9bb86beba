#include "DeadlockCases.hpp"

#include "ReportText.hpp"

#include <array>
#include <fmt/format.h>
#include <set>

namespace npusim::sim {

CaseFacts::CaseFacts(const StoppedRun& r, const CausalChain& c)
    : run(r), chain(c), head(c.path().empty() ? nullptr : &r.procs[c.path().front()]),
      terminal(c.terminal() < 0 ? nullptr : &r.procs[static_cast<std::size_t>(c.terminal())]) {}

namespace {

using State = ProcessProgress::State;

// --- What several cases look for ---

// The first worker anywhere whose acquire is larger than its pool.
const ProcessView* over_pool_worker(const CaseFacts& f) {
    for (const auto& p : f.run.procs)
        if (over_pool(p)) return &p;
    return nullptr;
}

// The chain ends at a shim channel with no task queued; `fill`: an MM2S (fill) channel, else S2MM.
bool ends_at_idle_shim(const CaseFacts& f, bool fill) {
    const auto* t = f.terminal;
    return t && t->kind == ProcessView::Kind::ShimDma && t->progress.state == State::Idle &&
           (t->endpoint.dir == model::Direction::MM2S) == fill;
}

bool ends_at_finished(const CaseFacts& f, ProcessView::Kind kind) {
    return f.terminal && f.terminal->kind == kind && f.terminal->progress.state == State::Finished;
}

// A tile S2MM channel on the chain that got part of its current object.
const ProcessView* partial_receiver(const CaseFacts& f) {
    for (auto i : f.chain.path()) {
        const auto& p = f.run.procs[i];
        if (p.kind == ProcessView::Kind::TileDma && p.rx_total && p.rx_remaining && p.rx_remaining < p.rx_total)
            return &p;
    }
    return nullptr;
}

// The first worker on the chain blocked on a cascade whose other end is the finished worker the
// chain ends at.
const ProcessView* cascade_waiter(const CaseFacts& f) {
    if (!ends_at_finished(f, ProcessView::Kind::Worker)) return nullptr;
    for (auto i : f.chain.path()) {
        const auto& p = f.run.procs[i];
        if (!is_blocked(p) || p.state->status != ProcessState::Status::WaitCascade || p.cascade < 0) continue;
        const auto& cc = f.run.net.cascades.at(static_cast<std::size_t>(p.cascade));
        if ((p.cascade_put ? cc.dst_core : cc.src_core) == f.terminal->index) return &p;
    }
    return nullptr;
}

const model::CascadeConnection& cascade_of(const CaseFacts& f, const ProcessView& p) {
    return f.run.net.cascades.at(static_cast<std::size_t>(p.cascade));
}

// The processes of the cycle the chain closes, and what they wait on.
struct CycleFacts {
    std::vector<std::size_t> processes; ///< view indices, from the step the chain returns to
    std::set<std::string> fifos; ///< the fifos of the locks they wait on
    bool back_pressure = false; ///< a sender on the cycle waits for a receiver to take data
    bool all_locks = true; ///< every process on the cycle waits on a lock
    int workers = 0;
    int channels() const { return static_cast<int>(processes.size()) - workers; }
};

CycleFacts cycle_facts(const CaseFacts& f) {
    CycleFacts c;
    const auto& path = f.chain.path();
    c.processes.assign(path.begin() + f.chain.back_to(), path.end());
    for (auto i : c.processes) {
        const auto& p = f.run.procs[i];
        const auto& ps = *p.state;
        c.workers += p.kind == ProcessView::Kind::Worker ? 1 : 0;
        if (ps.status == ProcessState::Status::WaitLock) {
            c.fifos.insert(f.run.net.locks.at(static_cast<std::size_t>(ps.lock)).prov.object);
        } else {
            c.all_locks = false;
            // A sender waiting for a receiver to take data: the stream pushes back.
            const int li = f.run.link_of(p);
            c.back_pressure |= ps.status == ProcessState::Status::WaitStream && li >= 0 &&
                               f.run.links[static_cast<std::size_t>(li)].sender == static_cast<int>(i);
        }
    }
    return c;
}

// --- The cases, each a match and an explanation ---

// An acquire beyond the pool: wherever it is, nothing else can ever serve it.
bool pool_overacquire(const CaseFacts& f) { return over_pool_worker(f) != nullptr; }
std::string explain_pool_overacquire(const CaseFacts& f) {
    const auto& p = *over_pool_worker(f);
    return fmt::format("{} acquires {} objects of {}, but the pool of buffers both cores share holds {} (the "
                       "producer's depth). Give the fifo's producer a depth of at least {}, or acquire fewer.",
                       p.progress.process, p.state->count, *p.state->ring, p.state->pool, p.state->count);
}

// The host filled a task queue with tasks that cannot complete before a later one runs.
bool full_task_queue(const CaseFacts& f) {
    return f.head && f.head->kind == ProcessView::Kind::Runtime && f.head->waits_for_queue;
}
std::string explain_full_task_queue(const CaseFacts& f) {
    return fmt::format("The runtime sequence pushed more tasks onto {} than its {}-deep queue holds, and the queued "
                       "ones cannot complete until something later in the sequence runs. Await (or finish a task "
                       "group) before pushing more, or start the task that feeds them first.",
                       model::shim_dma_name(f.head->queue_channel), f.run.net.device->task_queue_depth);
}

// The fill ended inside an object: a tile channel on the chain waits for the rest of it.
bool partial_object(const CaseFacts& f) { return ends_at_idle_shim(f, true) && partial_receiver(f); }
std::string explain_partial_object(const CaseFacts& f) {
    const auto& p = *partial_receiver(f);
    return fmt::format("{} got {} of the {} B of its current object and the fill on {} has ended: the fill is not a "
                       "whole number of objects, so the last one is never complete. Fill whole objects.",
                       p.progress.process, grouped(p.rx_total - p.rx_remaining), grouped(p.rx_total),
                       f.terminal->progress.process);
}

// The fill the chain needs is later in the sequence than the wait it is stuck in.
bool fill_after_await(const CaseFacts& f) {
    return ends_at_idle_shim(f, true) && f.run.later_start(f.terminal->endpoint) >= 0;
}
std::string explain_fill_after_await(const CaseFacts& f) {
    return fmt::format("{} has no task queued now: the runtime sequence starts its next fill only after the wait it "
                       "is blocked in, and what it waits for needs that fill. Start the fill before awaiting (put it "
                       "in the same task group, or finish the group after it).",
                       f.terminal->progress.process);
}

// The chain ends at a fill channel with nothing left to send.
bool fill_less_than_consumed(const CaseFacts& f) { return ends_at_idle_shim(f, true); }
std::string explain_fill_less_than_consumed(const CaseFacts& f) {
    return fmt::format("{} has no more data to send: the runtime sequence fills fewer objects than the workers "
                       "consume before they produce what is awaited (or fills them only after the wait). Fill more, "
                       "drain less, or start the fill before awaiting.",
                       f.terminal->progress.process);
}

// The chain ends at a drain channel with no task: what is sent to it has nowhere to go.
bool drain_less_than_produced(const CaseFacts& f) { return ends_at_idle_shim(f, false); }
std::string explain_drain_less_than_produced(const CaseFacts& f) {
    return fmt::format("{} has no drain task, so data the design sends to it has nowhere to go. Drain everything "
                       "the design produces.",
                       f.terminal->progress.process);
}

// A worker on the chain waits for room on a cascade whose (finished) destination took no more.
bool cascade_never_got(const CaseFacts& f) {
    const auto* p = cascade_waiter(f);
    return p && p->cascade_put;
}
std::string explain_cascade_never_got(const CaseFacts& f) {
    const auto& p = *cascade_waiter(f);
    const auto& cc = cascade_of(f, p);
    return fmt::format("{} waits for room on the {}, but worker '{}' has finished after getting {} word(s) of it. Get "
                       "every word the other end puts (the same number of cascade_get / get_scd calls as "
                       "cascade_put / put_mcd).",
                       p.progress.process, cc.describe(), cc.dst_worker, grouped(p.cascade_words_got));
}

// A worker on the chain waits for a cascade word its (finished) source did not put.
bool cascade_never_put(const CaseFacts& f) {
    const auto* p = cascade_waiter(f);
    return p && !p->cascade_put;
}
std::string explain_cascade_never_put(const CaseFacts& f) {
    const auto& p = *cascade_waiter(f);
    const auto& cc = cascade_of(f, p);
    return fmt::format("{} waits for a cascade word from worker '{}' on the {}, but that worker has finished after "
                       "putting {} word(s). Put every word the other end gets (the same number of cascade_put / "
                       "put_mcd calls as cascade_get / get_scd).",
                       p.progress.process, cc.src_worker, cc.describe(), grouped(p.cascade_words_put));
}

// The sequence awaits a drain while the finished worker the chain ends at has no input left: no
// object waits in its consumer fifos and no fill is running or queued.
bool drain_more_than_produced(const CaseFacts& f) {
    if (!ends_at_finished(f, ProcessView::Kind::Worker)) return false;
    const auto& prog = f.run.net.cores.at(static_cast<std::size_t>(f.terminal->index));
    for (const auto& ring : prog.rings)
        if (ring.prov.role.find("consumer") != std::string::npos && ring.acquire_lock >= 0 &&
            f.run.locks.at(static_cast<std::size_t>(ring.acquire_lock)).value > 0)
            return false;
    for (const auto& p : f.run.procs)
        if (p.kind == ProcessView::Kind::ShimDma && p.endpoint.dir == model::Direction::MM2S &&
            (p.task >= 0 || !p.queued.empty()))
            return false;
    const auto* head = f.head;
    return head && head->kind == ProcessView::Kind::Runtime && head->awaited_task >= 0 &&
           f.run.net.tasks[static_cast<std::size_t>(head->awaited_task)].dir == model::Direction::S2MM;
}
std::string explain_drain_more_than_produced(const CaseFacts& f) {
    return fmt::format("{} produced everything it will produce ({}), but the drain waits for more. Drain only what "
                       "the design produces, or let the worker run more iterations.",
                       f.terminal->progress.process, plural(f.terminal->progress.steps, "iteration", "iterations"));
}

// The chain ends at a worker that returned while others still need it.
bool finished_worker(const CaseFacts& f) { return ends_at_finished(f, ProcessView::Kind::Worker); }
std::string explain_finished_worker(const CaseFacts& f) {
    return fmt::format("{} returned (while_true=false after {}) while the design still sends it data or waits for "
                       "its output. Run it for as many iterations as the data needs (while_true, or a loop in its "
                       "body).",
                       f.terminal->progress.process, plural(f.terminal->progress.steps, "iteration", "iterations"));
}

// The chain ends at a DMA channel whose BD chain ended.
bool finished_channel(const CaseFacts& f) { return ends_at_finished(f, ProcessView::Kind::TileDma); }
std::string explain_finished_channel(const CaseFacts& f) {
    return fmt::format("{} ran its BD chain to its end (its repeat count is spent) while others still wait for it. "
                       "Match the repeat counts / iteration counts of both sides.",
                       f.terminal->progress.process);
}

// The chain ends at a process in a lock wait nobody left can serve.
bool ends_in_lock_wait(const CaseFacts& f) {
    return f.terminal && is_blocked(*f.terminal) && f.terminal->state->status == ProcessState::Status::WaitLock;
}
const LockView& terminal_lock(const CaseFacts& f) {
    return f.run.locks.at(static_cast<std::size_t>(f.terminal->state->lock));
}

// ... a wait for an exact value, or on a lock something sets: a barrier.
bool barrier_never_set(const CaseFacts& f) {
    if (!ends_in_lock_wait(f)) return false;
    const auto& actors = f.run.rel.locks.at(static_cast<std::size_t>(f.terminal->state->lock));
    return f.terminal->state->equal || !actors.setters.empty();
}
std::string explain_barrier_never_set(const CaseFacts& f) {
    return fmt::format("{} waits for lock {} to reach {}, but nothing left to run sets it. Set the barrier from the "
                       "runtime sequence before the workers wait on it.",
                       f.terminal->progress.process, terminal_lock(f).name, f.terminal->state->want);
}

// ... any other lock: nothing releases it.
bool no_releaser(const CaseFacts& f) { return ends_in_lock_wait(f); }
std::string explain_no_releaser(const CaseFacts& f) {
    return fmt::format("{} waits on lock {}, which nothing in the design releases.", f.terminal->progress.process,
                       terminal_lock(f).name);
}

// The chain closes a cycle of two processes, the two ends of one fifo, both in lock waits.
bool held_exceeds_depth(const CaseFacts& f) {
    if (f.chain.back_to() < 0) return false;
    const auto c = cycle_facts(f);
    return c.all_locks && c.fifos.size() == 1 && c.processes.size() == 2;
}
std::string explain_held_exceeds_depth(const CaseFacts& f) {
    const auto c = cycle_facts(f);
    std::vector<std::string> held;
    for (auto i : c.processes) {
        const auto& p = f.run.procs[i];
        const auto& ps = *p.state;
        int h = 0;
        for (const auto& fe : p.progress.fifo_ends)
            if (ps.ring && fe.end == *ps.ring) h = fe.held;
        held.push_back(fmt::format("{} holds {} and waits in acquire({})", p.progress.process, h, ps.count));
    }
    return fmt::format("On fifo '{}': {}. What the two ends hold and want together is more than the fifo's buffers. "
                       "Raise its depth, or release before acquiring again.",
                       *c.fifos.begin(), join(held, "; "));
}

// Any other cycle the chain closes.
bool lock_cycle(const CaseFacts& f) { return f.chain.back_to() >= 0; }
std::string explain_lock_cycle(const CaseFacts& f) {
    const auto c = cycle_facts(f);
    std::vector<std::string> fifos;
    for (const auto& fifo : c.fifos) fifos.push_back("'" + fifo + "'");
    return fmt::format(
        "{}{} wait on each other in a ring (fifos {}). Acquire the fifos in the same order everywhere, release an "
        "object before waiting on another fifo, or give one of them an object to start with (depth, init_values).",
        plural(static_cast<std::uint64_t>(c.workers), "worker", "workers"),
        c.channels() ? " and " + plural(static_cast<std::uint64_t>(c.channels()), "DMA channel", "DMA channels")
                     : std::string(),
        fifos.empty() ? std::string("-") : join(fifos, ", "));
}
const char* retitle_lock_cycle(const CaseFacts& f) {
    return cycle_facts(f).back_pressure ? "lock cycle through a stream's back-pressure" : "lock cycle";
}

// Nothing above matched: the report still lists every blocked process.
bool always(const CaseFacts&) { return true; }
std::string explain_unknown(const CaseFacts&) {
    return "No root cause was found on the chain; see the blocked processes below.";
}

// The table, tried top to bottom. Its order is the priority: a wait nobody can ever serve (an
// acquire beyond the pool) first, then what the host is stuck on (a full task queue), then the root
// cause the chain ends at (an idle shim channel, a finished worker or channel, a lock wait), then
// the cycle the chain closes.
// clang-format off
const std::array kCases{
    DeadlockCase{"pool_overacquire", "acquire beyond the shared pool",
                 pool_overacquire, explain_pool_overacquire},
    DeadlockCase{"full_task_queue", "full task queue",
                 full_task_queue, explain_full_task_queue},
    DeadlockCase{"partial_object", "starvation: a partial last object",
                 partial_object, explain_partial_object},
    DeadlockCase{"fill_after_await", "starvation: the sequence awaits before it fills what that needs",
                 fill_after_await, explain_fill_after_await},
    DeadlockCase{"fill_less_than_consumed", "starvation: the sequence fills less than the design consumes",
                 fill_less_than_consumed, explain_fill_less_than_consumed},
    DeadlockCase{"drain_less_than_produced", "starvation: the sequence drains less than the design produces",
                 drain_less_than_produced, explain_drain_less_than_produced},
    DeadlockCase{"cascade_never_got", "cascade words nobody takes",
                 cascade_never_got, explain_cascade_never_got},
    DeadlockCase{"cascade_never_put", "cascade word never put",
                 cascade_never_put, explain_cascade_never_put},
    DeadlockCase{"drain_more_than_produced", "starvation: the sequence drains more than the design produces",
                 drain_more_than_produced, explain_drain_more_than_produced},
    DeadlockCase{"finished_worker", "finished worker",
                 finished_worker, explain_finished_worker},
    DeadlockCase{"finished_channel", "finished DMA channel",
                 finished_channel, explain_finished_channel},
    DeadlockCase{"barrier_never_set", "barrier never set",
                 barrier_never_set, explain_barrier_never_set},
    DeadlockCase{"no_releaser", "lock nobody releases",
                 no_releaser, explain_no_releaser},
    DeadlockCase{"held_exceeds_depth", "producer and consumer hold more than the depth",
                 held_exceeds_depth, explain_held_exceeds_depth},
    DeadlockCase{"lock_cycle", "lock cycle",
                 lock_cycle, explain_lock_cycle, retitle_lock_cycle},
    DeadlockCase{"unknown", "deadlock",
                 always, explain_unknown},
};
// clang-format on

} // namespace

std::span<const DeadlockCase> deadlock_cases() { return kCases; }

void name_case(const StoppedRun& run, const CausalChain& chain, Diagnosis& d) {
    const CaseFacts facts(run, chain);
    for (const auto& c : kCases) {
        if (!c.matches(facts)) continue;
        d.case_id = c.id;
        d.case_title = c.retitle ? c.retitle(facts) : c.title;
        d.case_explanation = c.explain(facts);
        return;
    }
}

} // namespace npusim::sim

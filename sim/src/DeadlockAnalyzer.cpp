#include "DeadlockAnalyzer.hpp"

#include "CausalChain.hpp"
#include "DeadlockCases.hpp"
#include "ReportText.hpp"
#include "WaitGraphBuilder.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace npusim::sim {

DeadlockAnalyzer::DeadlockAnalyzer(const model::Netlist& net, std::vector<ProcessView> processes,
                                   std::vector<LinkView> links, std::vector<LockView> locks, std::uint64_t cycle,
                                   std::vector<std::string> warnings)
    : run_(net, std::move(processes), std::move(links), std::move(locks), cycle, std::move(warnings)) {}

std::string DeadlockAnalyzer::flat_report() const {
    // Each blocked process with what it waits on: a lock (its value, its releasers from the netlist,
    // the last one that released it), its stream peer, a task or a cascade.
    std::string out = "blocked:\n";
    int blocked = 0;
    for (const auto& p : run_.procs) {
        if (!is_blocked(p)) continue;
        const auto& ps = *p.state;
        ++blocked;
        out += fmt::format("  {}", ps.name);
        switch (ps.status) {
        case ProcessState::Status::WaitLock: {
            const auto& l = run_.locks.at(static_cast<std::size_t>(ps.lock));
            std::set<std::string> who;
            for (const auto& r : run_.rel.locks.at(static_cast<std::size_t>(ps.lock)).releasers)
                who.insert(model::actor_name(run_.net, r.actor));
            std::string rel;
            for (const auto& w : who) rel += (rel.empty() ? "" : ", ") + w;
            out += fmt::format(": {}\n      waits on lock {} on {} {} {} (value now {}); released by {}", ps.describe(),
                               l.name, l.where, ps.equal ? "==" : ">=", ps.want, l.value,
                               rel.empty() ? std::string("nobody") : rel);
            if (!l.last_releaser.empty()) out += fmt::format("; last released by {}", l.last_releaser);
            break;
        }
        case ProcessState::Status::WaitStream: {
            const int li = run_.link_of(p);
            std::string peer = "its stream peer";
            if (li >= 0) {
                const auto& l = run_.links[static_cast<std::size_t>(li)];
                const int self = static_cast<int>(&p - run_.procs.data());
                if (l.sender != self && l.sender >= 0) {
                    peer += " " + run_.procs[static_cast<std::size_t>(l.sender)].progress.process;
                } else if (l.sender == self) {
                    // A sender waits for the destinations of its route that are not ready to take
                    // data (all of them when none is marked): each by its tile and port, with the
                    // BD (fifo, element) it is at.
                    std::vector<std::string> who;
                    for (int pass = 0; pass < 2 && who.empty(); ++pass)
                        for (std::size_t k = 0; k < l.receivers.size(); ++k) {
                            if (pass == 0 && l.posted[k]) continue;
                            const auto& r = run_.procs[static_cast<std::size_t>(l.receivers[k])];
                            who.push_back(r.progress.current.empty()
                                              ? r.progress.process
                                              : fmt::format("{}, at {},", r.progress.process, r.progress.current));
                        }
                    std::string names;
                    for (std::size_t k = 0; k < who.size(); ++k) names += (k ? " and " : "") + who[k];
                    if (!names.empty()) peer += fmt::format(" {} to take data", names);
                }
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
    // The processes that no longer act: shim channels with no task, finished workers and channels.
    std::string idle;
    for (const auto& p : run_.procs)
        if (p.progress.state == ProcessProgress::State::Idle)
            idle += fmt::format("  {}: no task queued\n", p.progress.process);
    if (!idle.empty()) out += "idle:\n" + idle;
    std::string finished;
    for (const auto& p : run_.procs)
        if (p.progress.state == ProcessProgress::State::Finished)
            finished += fmt::format(
                "  {}: finished after {}\n", p.progress.process,
                plural(p.progress.steps, singular(p.progress.steps_unit).c_str(), p.progress.steps_unit.c_str()));
    if (!finished.empty()) out += "finished:\n" + finished;
    // Streams held up by back-pressure: the receivers not ready to take data.
    for (const auto& l : run_.links)
        if (l.sender_waiting) {
            std::string missing;
            for (std::size_t k = 0; k < l.receivers.size(); ++k)
                if (!l.posted[k])
                    missing += (missing.empty() ? "" : ", ") +
                               run_.procs[static_cast<std::size_t>(l.receivers[k])].progress.process;
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
    for (const auto& p : run_.procs) {
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
    // Columns as wide as their widest cell (at least their heading).
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
    d.cycle = run_.cycle;
    d.design = run_.net.design;
    d.device = run_.net.device ? run_.net.device->name : "";
    d.progress.reserve(run_.procs.size());
    for (const auto& p : run_.procs) d.progress.push_back(p.progress);
    d.warnings = run_.warnings;
    return d;
}

Diagnosis DeadlockAnalyzer::deadlock() const {
    Diagnosis d = base(Diagnosis::Trigger::Deadlock);
    // The graph of waits and its cycles, then the chain through it, then the case the chain shows.
    WaitGraphBuilder graph(run_, d);
    graph.add_processes(true);
    graph.add_waits();
    graph.mark_cycles();
    const CausalChain chain(run_, d);
    name_case(run_, chain, d);

    // The report: heading, case, numbered chain, cycles, then every process.
    std::string out = fmt::format("deadlock at cycle {} in design '{}' on {}: no process can make progress\n",
                                  grouped(run_.cycle), run_.net.design, d.device);
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
    for (const auto& w : run_.warnings) out += "warning: " + w + "\n";
    d.text = out;
    return d;
}

// At a limit nothing is known to be stuck: the graph holds only the processes, and the case tells
// a run still making progress (too slow for the limit) from one whose processes act without
// progress (a livelock) and from one that stalled.
Diagnosis DeadlockAnalyzer::limit(std::uint64_t max_cycles, double wall_seconds, std::uint64_t progress_cycle) const {
    Diagnosis d = base(Diagnosis::Trigger::Limit);
    WaitGraphBuilder(run_, d).add_processes(false);
    // "Recently": in the last tenth of the run.
    const std::uint64_t span = wall_seconds > 0 ? run_.cycle : max_cycles;
    const std::uint64_t window = std::max<std::uint64_t>(1000, span / 10);
    const std::uint64_t since = run_.cycle > window ? run_.cycle - window : 0;
    std::vector<std::string> active;
    std::uint64_t host_bytes = 0, instructions = 0;
    for (const auto& p : run_.procs) {
        if ((!p.progress.last_action.empty() && p.progress.last_cycle >= since) ||
            p.progress.state == ProcessProgress::State::Running)
            active.push_back(p.progress.process);
        if (p.kind == ProcessView::Kind::ShimDma) host_bytes += p.progress.bytes;
        if (p.kind == ProcessView::Kind::Runtime) instructions += p.progress.steps;
    }
    std::string out =
        wall_seconds > 0
            ? fmt::format("design '{}' on {}: reached the wall-clock limit of {:g} s at cycle {} before the runtime "
                          "sequence finished (--timeout)\n",
                          run_.net.design, d.device, wall_seconds, grouped(run_.cycle))
            : fmt::format("design '{}' on {}: reached the cycle limit of {} cycles before the runtime sequence "
                          "finished (--max-cycles)\n",
                          run_.net.design, d.device, max_cycles);
    const char* raise = wall_seconds > 0 ? "--timeout" : "--max-cycles";
    if (progress_cycle > 0 && progress_cycle >= since) {
        d.case_id = "progressing";
        d.case_title = "still making progress at the limit";
        d.case_explanation = fmt::format(
            "The run moved data to or from host memory or ran sequence instructions in its last {} cycles "
            "({} host bytes moved and {} sequence instructions done so far): it is not stuck, only longer than the "
            "limit. Raise {} (0: none), or give the design a smaller problem.",
            grouped(window), grouped(host_bytes), grouped(instructions), raise);
    } else if (!active.empty()) {
        d.case_id = "livelock";
        d.case_title = "acting without progress at the limit";
        d.case_explanation = fmt::format(
            "{} of {} processes acted in the last {} cycles or are busy now ({}), but no data moved to or from host "
            "memory and no sequence instruction ran then: they repeat without progress (a livelock), or compute "
            "for longer than that between transfers. Compare the counters below with what the design should do, "
            "or raise {}.",
            active.size(), run_.procs.size(), grouped(window), join(active, ", "), raise);
    } else {
        d.case_id = "stalled";
        d.case_title = "no progress near the limit";
        d.case_explanation = fmt::format("No process acted in the last {} cycles: the run waits on timed events "
                                         "that do not move data.",
                                         grouped(window));
    }
    out += fmt::format("case: {} [{}]\n  {}\n", d.case_title, d.case_id, d.case_explanation);
    out += "progress:\n" + progress_table();
    for (const auto& w : run_.warnings) out += "warning: " + w + "\n";
    d.text = out;
    return d;
}

} // namespace npusim::sim

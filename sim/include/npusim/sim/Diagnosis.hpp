#pragma once
// The structured diagnosis of a run that did not finish: a deadlock (the event queue emptied
// before the runtime sequence ended) or a cycle limit. It holds the wait-for graph (processes ->
// the lock / stream / task each waits on -> the processes that could act on it), the cycles of
// that graph, a numbered causal chain from the runtime sequence down to the root cause, the name
// of the case, and every process's progress. The simulator throws it inside a DiagnosedError; the
// CLI prints its text, its JSON (--json) and its DOT graph (--dot).
#include "npusim/model/Error.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npusim::sim {

/// What one end of a fifo did in a worker: objects acquired and released, objects held now.
struct FifoEndProgress {
    std::string end; ///< "fifo 'in' consumer 0"
    std::uint64_t acquired = 0;
    std::uint64_t released = 0;
    int held = 0;
};

/// What a process had done when the run stopped.
struct ProcessProgress {
    /// Running: still has work; Blocked: waits on a lock, stream, task or cascade; Idle: a shim
    /// channel with no task queued; Finished: a worker body that returned, a BD chain that ended.
    enum class State { Running, Blocked, Idle, Finished };
    std::string process; ///< its name ("worker 'w' on (0,2)", "shim DMA (0,0) MM2S 0", ...)
    State state = State::Running; ///< written as to_string(state) in reports, JSON and DOT
    std::string waits_for; ///< blocked: what it waits for, in design terms
    /// Worker: completed body iterations; DMA: BD executions; shim: tasks; runtime: instructions.
    std::uint64_t steps = 0;
    std::string steps_unit; ///< "iterations", "BDs", "tasks", "instructions"
    std::uint64_t bytes = 0; ///< DMA and shim: bytes moved
    std::string current; ///< shim: "task 3 ('out' drain): 2,048 of 4,096 B"; DMA: the current BD
    std::vector<FifoEndProgress> fifo_ends; ///< worker only
    std::string last_action; ///< "released 1 of fifo 'in' consumer 0", "" if none yet
    std::uint64_t last_cycle = 0; ///< the cycle of last_action
};

/// The word reports, the JSON (--json) and the DOT graph use for a state: "running", "blocked",
/// "idle", "finished". Inline: the trace sinks use it without linking the engine.
inline const char* to_string(ProcessProgress::State s) {
    switch (s) {
    case ProcessProgress::State::Running: return "running";
    case ProcessProgress::State::Blocked: return "blocked";
    case ProcessProgress::State::Idle: return "idle";
    case ProcessProgress::State::Finished: return "finished";
    }
    return "?";
}

/// A node of the wait-for graph: a process, or a resource a process waits on.
struct WaitNode {
    enum class Kind { Worker, TileDma, ShimDma, Runtime, Lock, Stream, Task, Queue };
    Kind kind = Kind::Worker;
    std::string id; ///< stable and unique: "worker:w", "lock:in_cons_cons_lock_0", "stream:3"
    std::string label; ///< "worker 'w' on (0,2)", "lock in_cons_cons_lock_0 on (0,2)"
    std::optional<ProcessProgress::State> state; ///< processes only; resources have none (see detail)
    std::string detail; ///< what a process waits for; a lock's value and wanted value
    bool in_cycle = false; ///< on one of the graph's cycles
    bool in_chain = false; ///< on the causal chain
    bool is_process() const { return kind <= Kind::Runtime; }
    /// The state's word, "" for a resource.
    const char* state_name() const { return state ? to_string(*state) : ""; }
};

/// An edge: a process waits on a resource ("waits for"), or a resource can be acted on by a
/// process ("released by", "sent by", "completed by", ...).
struct WaitEdge {
    std::size_t from = 0, to = 0; ///< indices into Diagnosis::nodes
    std::string label;
    bool in_cycle = false;
    bool in_chain = false;
};

struct Diagnosis {
    enum class Trigger { Deadlock, Limit };
    Trigger trigger = Trigger::Deadlock;
    std::uint64_t cycle = 0; ///< when the run stopped
    std::string design, device;
    /// The case, by id: lock_cycle, held_exceeds_depth, pool_overacquire, fill_less_than_consumed,
    /// fill_after_await, drain_more_than_produced, drain_less_than_produced, partial_object,
    /// finished_worker, finished_channel, full_task_queue, barrier_never_set, no_releaser,
    /// cascade_never_put, cascade_never_got, unknown (deadlocks: the rows of the engine's table of
    /// cases, docs/deadlocks.md); progressing, livelock, stalled (cycle or wall-clock limit).
    std::string case_id;
    std::string case_title; ///< "lock cycle", "starvation: the sequence fills less than is consumed"
    std::string case_explanation; ///< one or two sentences in design terms, with the fix
    std::vector<WaitNode> nodes;
    std::vector<WaitEdge> edges;
    std::vector<std::vector<std::size_t>> cycles; ///< node indices, each cycle starting at a process
    std::vector<std::string> chain; ///< the causal chain, one step each (unnumbered)
    std::vector<std::size_t> chain_nodes; ///< the process node of each chain step
    std::vector<ProcessProgress> progress; ///< every process, in creation order
    std::vector<std::string> warnings; ///< the run's warnings (e.g. a parked worker body)
    std::string text; ///< the report for people (what SimulationError::what() says)

    /// The wait-for graph in Graphviz DOT (Boost write_graphviz): blocked processes red, the cycle's
    /// edges bold red, the causal chain's edges bold, finished processes grey, idle ones orange.
    std::string to_dot() const;
};

/// A SimulationError (deadlock or limit) with its structured diagnosis.
class DiagnosedError : public SimulationError {
public:
    DiagnosedError(Kind kind, std::shared_ptr<const Diagnosis> d)
        : SimulationError(kind, d->text), diagnosis_(std::move(d)) {}
    const Diagnosis& diagnosis() const { return *diagnosis_; }

private:
    std::shared_ptr<const Diagnosis> diagnosis_;
};

/// The diagnosis of `e` if it carries one, else nullptr.
inline const Diagnosis* diagnosis_of(const SimulationError& e) {
    const auto* d = dynamic_cast<const DiagnosedError*>(&e);
    return d ? &d->diagnosis() : nullptr;
}

} // namespace npusim::sim

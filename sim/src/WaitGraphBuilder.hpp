#pragma once
// WaitGraphBuilder: the wait-for graph of a stopped run, as the nodes and edges of a Diagnosis.
// Node i is process view i; after the processes come the resources blocked processes wait on
// (a lock, a stream's data or room, a cascade's words or room, an awaited task, a task queue).
// Each blocked process points to its resource ("waits for ..."), and each resource points to the
// processes that could act on it, taken from the netlist ("released by", "sent by", ...).
// WaitForGraph then finds the cycles of that graph and writes it as DOT.
#include "StoppedRun.hpp"
#include "npusim/sim/Diagnosis.hpp"

#include <cstddef>
#include <map>
#include <string>

namespace npusim::sim {

class WaitGraphBuilder {
public:
    WaitGraphBuilder(const StoppedRun& run, Diagnosis& d) : run_(run), d_(d) {}

    /// One node per process, in view order. `with_detail`: with what the deadlock report shows
    /// under its name (iterations, BDs, tasks, or the shim channel's current task).
    void add_processes(bool with_detail);
    /// The resources blocked processes wait on and the edges through them. Call after
    /// add_processes.
    void add_waits();
    /// Finds the graph's cycles (WaitForGraph) into Diagnosis::cycles and marks their nodes and
    /// edges in_cycle.
    void mark_cycles();

private:
    /// The node of resource `id`, created with `kind`, `label` and `detail` when new (`created`).
    std::size_t resource(const std::string& id, WaitNode::Kind kind, const std::string& label,
                         const std::string& detail, bool& created);
    /// An edge, unless the same one exists.
    void edge(std::size_t from, std::size_t to, std::string label);
    void add_lock_wait(std::size_t i);
    void add_stream_wait(std::size_t i);
    void add_cascade_wait(std::size_t i);
    void add_task_wait(std::size_t i);

    const StoppedRun& run_;
    Diagnosis& d_;
    std::map<std::string, std::size_t> resources_; ///< resource id -> node index
};

} // namespace npusim::sim

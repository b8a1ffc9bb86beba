#pragma once
// DeadlockAnalyzer: turns the state of a stopped run into a Diagnosis. From each process's view
// (ProcessView), the stream links, the lock values and the netlist's relations (who acquires,
// releases and sets each lock, who sends and receives each flow, which shim channel completes each
// task) it builds the wait-for graph, finds its cycles (WaitForGraph), walks the causal chain from
// the runtime sequence down to the root cause, names the case and writes the report. It reads
// only plain data: it knows no process class and no SystemC.
#include "ProcessView.hpp"
#include "npusim/model/NetlistRelations.hpp"
#include "npusim/sim/Diagnosis.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::sim {

/// A stream flow (Netlist::flows order) when the run stopped.
struct LinkView {
    std::string label; ///< the flow's provenance
    int sender = -1; ///< index into the process views
    std::vector<int> receivers; ///< indices into the process views
    std::vector<bool> posted; ///< per receiver: ready to take data
    bool sender_waiting = false; ///< the sender waits for a receiver to post
};

/// A lock when the run stopped.
struct LockView {
    std::string name, where;
    int value = 0;
    std::string last_releaser;
};

class DeadlockAnalyzer {
public:
    DeadlockAnalyzer(const model::Netlist& net, std::vector<ProcessView> processes, std::vector<LinkView> links,
                     std::vector<LockView> locks, std::uint64_t cycle, std::vector<std::string> warnings);

    /// The run's event queue emptied before the runtime sequence finished.
    Diagnosis deadlock() const;
    /// The run reached its cycle limit (`max_cycles`) while events were still pending, or its
    /// wall-clock limit (`wall_seconds` > 0).
    Diagnosis limit(std::uint64_t max_cycles, double wall_seconds = 0) const;

private:
    struct Chain;
    int process_of(const model::Actor& a) const;
    int shim_process(const model::StreamEndpoint& e) const;
    int link_of(const ProcessView& p) const;
    /// The first StartTask on shim channel `e` at or after the runtime sequence's current
    /// instruction (a task the host has not pushed yet), -1 if none.
    int later_start(const model::StreamEndpoint& e) const;
    void build_graph(Diagnosis& d) const;
    void walk_chain(Diagnosis& d, Chain& c) const;
    void name_case(Diagnosis& d, const Chain& c) const;
    std::string step_text(const Diagnosis& d, std::size_t process, Chain& c) const;
    std::string root_text(std::size_t process, Chain& c) const;
    std::string flat_report() const;
    std::string progress_table() const;
    Diagnosis base(Diagnosis::Trigger t) const;

    const model::Netlist& net_;
    model::NetlistRelations rel_;
    std::vector<ProcessView> procs_;
    std::vector<LinkView> links_;
    std::vector<LockView> locks_;
    std::uint64_t cycle_;
    std::vector<std::string> warnings_;
};

} // namespace npusim::sim

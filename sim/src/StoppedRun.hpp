#pragma once
// StoppedRun: the plain data the deadlock analysis reads when a run stops - each process's view,
// the stream links, the lock values, the netlist and its relations (who acquires, releases and
// sets each lock, which shim channel completes each task) - and the lookups every part of the
// analysis shares (the process of a netlist actor, of a shim endpoint, the link of a process).
// It knows no process class and no SystemC.
#include "ProcessView.hpp"
#include "npusim/model/NetlistRelations.hpp"

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

/// The process blocks (on a lock, a stream, a task or a cascade).
bool is_blocked(const ProcessView& v);
/// A worker waits in an acquire of more objects than its pool of buffers holds: nothing can ever
/// serve it.
bool over_pool(const ProcessView& v);

struct StoppedRun {
    StoppedRun(const model::Netlist& net, std::vector<ProcessView> processes, std::vector<LinkView> links,
               std::vector<LockView> locks, std::uint64_t cycle, std::vector<std::string> warnings);

    /// The view index of a netlist actor (a core, a tile DMA channel's BDs, the runtime), -1 if none.
    int process_of(const model::Actor& a) const;
    /// The view index of the shim channel at `e`, -1 if the run has none there.
    int shim_process(const model::StreamEndpoint& e) const;
    /// The index of the link `p` (an element of `procs`) sends or receives on, -1 if none.
    int link_of(const ProcessView& p) const;
    /// The first StartTask on shim channel `e` at or after the runtime sequence's current
    /// instruction (a task the host has not pushed yet), -1 if none.
    int later_start(const model::StreamEndpoint& e) const;

    const model::Netlist& net;
    model::NetlistRelations rel;
    std::vector<ProcessView> procs; ///< in creation order: the order of every list in the report
    std::vector<LinkView> links;
    std::vector<LockView> locks; ///< Netlist::locks order
    std::uint64_t cycle; ///< when the run stopped
    std::vector<std::string> warnings; ///< the run's warnings
};

} // namespace npusim::sim

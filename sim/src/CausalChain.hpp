#pragma once
// CausalChain: the "why:" of a deadlock report. It starts at the runtime sequence (what the host
// is stuck on; else the first blocked process) and follows the wait-for graph from process to
// process, breadth first, to the nearest root cause: a process that is finished or idle, or one
// whose wait nobody can serve. When there is none it follows the waits depth first until it meets
// itself, and the chain closes a cycle. Each process on the chain becomes one step of text, in
// design terms; the last step says why the chain ends there.
#include "StoppedRun.hpp"
#include "npusim/sim/Diagnosis.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace npusim::sim {

class CausalChain {
public:
    /// Follows the chain through `d`'s wait-for graph (nodes and edges built), marks its nodes and
    /// edges in_chain, and writes its steps into d.chain and d.chain_nodes.
    CausalChain(const StoppedRun& run, Diagnosis& d);

    /// The processes on the chain (view indices), from its start.
    const std::vector<std::size_t>& path() const { return path_; }
    /// The root-cause process the chain ends at, -1 if it closes a cycle or is empty.
    int terminal() const { return terminal_; }
    /// When the chain closes a cycle: the step (index into path) its last step waits on, else -1.
    int back_to() const { return back_to_; }

private:
    /// Finds the path (breadth first to a root cause, else depth first to a cycle) and marks it.
    void walk(Diagnosis& d);
    void mark(Diagnosis& d, const std::vector<std::vector<std::size_t>>& out) const;
    /// The step of process `i`: what it does and what it waits on, with the counters that matter.
    std::string step_text(std::size_t i);
    std::string runtime_step(const ProcessView& p) const;
    std::string worker_step(std::size_t i);
    std::string dma_step(const ProcessView& p);
    /// The lock process `p` waits on: its value, the wanted value, who releases or sets it.
    std::string lock_text(const ProcessState& ps) const;
    /// The last step when the chain ends at root cause `i` (an idle shim channel, a finished
    /// worker or DMA channel), "" to keep its ordinary step.
    std::string root_text(std::size_t i) const;

    const StoppedRun& run_;
    std::vector<std::size_t> path_;
    int terminal_ = -1;
    int back_to_ = -1;
    // Facts the steps gather on the way, for the root step's text: the object size of the fifo
    // being followed (0: unknown), and the first worker waiting for an object of a fifo it
    // consumes, with that fifo end's index.
    std::uint64_t object_bytes_ = 0;
    int consumer_worker_ = -1;
    int consumer_ring_ = -1;
};

} // namespace npusim::sim

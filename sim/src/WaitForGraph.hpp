#pragma once
// WaitForGraph: the wait-for graph of a stopped run as a Boost.Graph adjacency list over the
// nodes and edges of a Diagnosis. It finds the graph's elementary cycles (Tiernan's algorithm,
// boost::tiernan_all_cycles) and writes the graph as Graphviz DOT (boost::write_graphviz).
#include "npusim/sim/Diagnosis.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace npusim::sim {

class WaitForGraph {
public:
    WaitForGraph(const std::vector<WaitNode>& nodes, const std::vector<WaitEdge>& edges);

    /// The elementary cycles (node indices), at most `max_cycles` of them, each rotated to start
    /// at its lowest-numbered process node, in a deterministic order.
    std::vector<std::vector<std::size_t>> cycles(std::size_t max_cycles = 16) const;

    /// DOT text of the graph: processes as boxes (blocked red, finished grey, idle orange),
    /// resources as ellipses (locks), diamonds (streams) or notes (tasks, queues); edges on a cycle
    /// bold red, edges of the causal chain bold.
    std::string dot(const std::string& title) const;

private:
    const std::vector<WaitNode>& nodes_;
    const std::vector<WaitEdge>& edges_;
};

} // namespace npusim::sim

#include "WaitForGraph.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/directed_graph.hpp>
// GCC 12 reports -Wmaybe-uninitialized inside Boost's edge iterator when write_graphviz is
// instantiated (a false positive in the optional-based iterator); silence it for that header only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/graph/graphviz.hpp>
#include <boost/graph/tiernan_all_cycles.hpp>
#include <set>
#include <sstream>

namespace npusim::sim {

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                    boost::property<boost::edge_index_t, std::size_t>>;

Graph build(std::size_t n, const std::vector<WaitEdge>& edges) {
    Graph g(n);
    for (std::size_t i = 0; i < edges.size(); ++i) boost::add_edge(edges[i].from, edges[i].to, i, g);
    return g;
}

struct StopSearch {};

// Tiernan's search needs a VertexIndexGraph that can renumber its indices: boost::directed_graph.
using CycleGraph = boost::directed_graph<>;

// Collects cycles as vertex-index lists; stops Tiernan's search once it has enough.
struct Collector {
    std::vector<std::vector<std::size_t>>* out;
    std::size_t max;
    template <typename Path, typename G>
    void cycle(const Path& p, const G& g) {
        std::vector<std::size_t> c;
        for (auto v : p) c.push_back(boost::get(boost::vertex_index, g, v));
        out->push_back(std::move(c));
        if (out->size() >= max) throw StopSearch{};
    }
};

std::string escape(const std::string& s) {
    std::string r;
    for (char c : s) {
        if (c == '"' || c == '\\') r += '\\';
        if (c == '\n') {
            r += "\\n";
            continue;
        }
        r += c;
    }
    return r;
}

} // namespace

WaitForGraph::WaitForGraph(const std::vector<WaitNode>& nodes, const std::vector<WaitEdge>& edges)
    : nodes_(nodes), edges_(edges) {}

std::vector<std::vector<std::size_t>> WaitForGraph::cycles(std::size_t max_cycles) const {
    CycleGraph g;
    std::vector<CycleGraph::vertex_descriptor> v;
    for (std::size_t i = 0; i < nodes_.size(); ++i) v.push_back(g.add_vertex());
    for (const auto& e : edges_) g.add_edge(v.at(e.from), v.at(e.to));
    std::vector<std::vector<std::size_t>> found;
    if (max_cycles == 0) return found;
    try {
        boost::tiernan_all_cycles(g, Collector{&found, max_cycles});
    } catch (const StopSearch&) {}
    for (auto& c : found) {
        // Start each cycle at its lowest-numbered process (processes come first in the nodes).
        auto first = std::min_element(c.begin(), c.end(), [&](std::size_t a, std::size_t b) {
            const bool pa = nodes_[a].is_process(), pb = nodes_[b].is_process();
            return pa != pb ? pa : a < b;
        });
        std::rotate(c.begin(), first, c.end());
    }
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    return found;
}

// The false positive is reported where the template is instantiated, so the pragma covers this function too.
std::string WaitForGraph::dot(const std::string& title) const {
    const Graph g = build(nodes_.size(), edges_);
    auto vertex_writer = [&](std::ostream& os, std::size_t v) {
        const auto& n = nodes_[v];
        std::string shape = "box", style = "filled", fill = "white", color = "black";
        switch (n.kind) {
        case WaitNode::Kind::Worker: shape = "box"; break;
        case WaitNode::Kind::TileDma:
        case WaitNode::Kind::ShimDma:
            shape = "box";
            style = "filled,rounded";
            break;
        case WaitNode::Kind::Runtime: shape = "house"; break;
        case WaitNode::Kind::Lock: shape = "ellipse"; break;
        case WaitNode::Kind::Stream: shape = "diamond"; break;
        case WaitNode::Kind::Task:
        case WaitNode::Kind::Queue: shape = "note"; break;
        }
        if (n.is_process()) {
            if (n.state == ProcessProgress::State::Blocked) fill = "#f8c9c4", color = "#c0392b";
            if (n.state == ProcessProgress::State::Finished) fill = "#dddddd", color = "#777777";
            if (n.state == ProcessProgress::State::Idle) fill = "#fde3b0", color = "#d68910";
        } else {
            fill = "#eef3fb";
        }
        if (n.in_cycle) color = "#c0392b";
        std::string label = n.label;
        if (n.is_process() && n.state) label += std::string("\n[") + n.state_name() + "]";
        if (!n.detail.empty()) label += "\n" + n.detail;
        os << "[label=\"" << escape(label) << "\", shape=" << shape << ", style=\"" << style << "\", fillcolor=\""
           << fill << "\", color=\"" << color << "\"" << (n.in_cycle || n.in_chain ? ", penwidth=2" : "") << ", id=\""
           << escape(n.id) << "\"]";
    };
    auto edge_writer = [&](std::ostream& os, const Graph::edge_descriptor& e) {
        const auto& ed = edges_[boost::get(boost::edge_index, g, e)];
        os << "[label=\"" << escape(ed.label) << "\"";
        if (ed.in_cycle)
            os << ", color=\"#c0392b\", fontcolor=\"#c0392b\", penwidth=2.5";
        else if (ed.in_chain)
            os << ", penwidth=2";
        else
            os << ", color=\"#888888\", fontcolor=\"#666666\"";
        os << "]";
    };
    auto graph_writer = [&](std::ostream& os) {
        os << "label=\"" << escape(title) << "\";\nlabelloc=t;\nrankdir=TB;\n"
           << "node [fontname=\"Helvetica\", fontsize=10];\nedge [fontname=\"Helvetica\", fontsize=9];\n";
    };
    std::ostringstream os;
    boost::write_graphviz(os, g, vertex_writer, edge_writer, graph_writer);
    return os.str();
}
#pragma GCC diagnostic pop

} // namespace npusim::sim

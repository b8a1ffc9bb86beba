#pragma once
// Graphs laid out by Graphviz (libgvc, the dot engine) as SVG to inline in the HTML report.
//
// The SVG is Graphviz's, adjusted for inlining: no XML prolog, doctype, comments or namespace
// declarations (an inline <svg> needs none, and the page names no URL); the <svg> element gets
// class "graph" and the given id; a node, edge or cluster group whose DOT `class` attribute is set
// carries that class alone, first (`<g class="tile used" id="...">`, where Graphviz writes
// `<g id="..." class="node tile used">`); `&#45;` (Graphviz's '-') is written as '-'. A DOT
// `tooltip` becomes a <title> child (the browser's native tooltip); Graphviz's own <title>s (the
// DOT names) are dropped. A graph must not set URL or href: the page links nothing.
//
// Graphviz's library is not thread-safe: the layouts of all threads run one at a time.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::traces::html {

/// The parsed graph, for setting attributes before the layout.
class GraphvizGraph {
public:
    struct Edge {
        std::string tail, head; ///< node names
        std::string label;
        void* handle = nullptr;
    };
    explicit GraphvizGraph(void* graph) : graph_(graph) {}
    /// Sets a graph attribute.
    void set_graph(const char* attr, const std::string& value);
    /// Sets an attribute of the node named `node`; false if there is no such node.
    bool set_node(const std::string& node, const char* attr, const std::string& value);
    /// Every edge, by tail node in the graph's order.
    std::vector<Edge> edges() const;
    void set_edge(const Edge& e, const char* attr, const std::string& value);

private:
    void* graph_;
};

struct GraphvizSvg {
    std::string svg; ///< the <svg> element; empty on failure
    std::string error; ///< why the layout failed
};

/// Parses `dot`, lets `decorate` set attributes, lays the graph out with the dot engine and
/// renders it as SVG (see above) with id `svg_id`.
GraphvizSvg layout_svg(std::string_view dot, std::string_view svg_id,
                       const std::function<void(GraphvizGraph&)>& decorate = {});

} // namespace npusim::traces::html

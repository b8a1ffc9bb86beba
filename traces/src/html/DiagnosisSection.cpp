#include "DiagnosisSection.hpp"

#include "GraphvizSvg.hpp"
#include "HtmlText.hpp"

#include <fmt/format.h>

namespace npusim::traces::html {

namespace {

// Diagnosis::to_dot() names node i "i". Each node and edge gets its class, a unique id and a
// tooltip with its whole text.
void decorate(GraphvizGraph& g, const sim::Diagnosis& d) {
    g.set_graph("label", ""); // the section's heading says it
    g.set_graph("id", "deadlock-graph-g");
    const std::size_t n = d.nodes.size();
    for (std::size_t i = 0; i < n; ++i) {
        const auto& node = d.nodes[i];
        const std::string name = std::to_string(i);
        g.set_node(name, "class", node.in_cycle ? "node in-cycle" : "node");
        g.set_node(name, "tooltip",
                   node.label + (!node.state ? std::string() : " [" + std::string(node.state_name()) + "]") +
                       (node.detail.empty() ? std::string() : "\n" + node.detail));
    }
    // Graphviz keeps the edges by tail node; each is matched to the diagnosis edge it was written
    // from: the first unused one with the same ends and label (DOT escapes can change a label: then
    // the same ends).
    std::vector<bool> used(d.edges.size(), false);
    auto match = [&](const GraphvizGraph::Edge& e, bool by_label) -> const sim::WaitEdge* {
        for (std::size_t j = 0; j < d.edges.size(); ++j) {
            const auto& de = d.edges[j];
            if (used[j] || de.from >= n || de.to >= n || std::to_string(de.from) != e.tail ||
                std::to_string(de.to) != e.head || (by_label && de.label != e.label))
                continue;
            used[j] = true;
            return &de;
        }
        return nullptr;
    };
    std::size_t k = 0;
    for (const auto& e : g.edges()) {
        const sim::WaitEdge* de = match(e, true);
        if (!de) de = match(e, false);
        g.set_edge(e, "id", fmt::format("dl-edge{}", ++k));
        if (!de) continue;
        g.set_edge(e, "class", de->in_cycle ? "edge in-cycle" : "edge");
        g.set_edge(e, "tooltip", d.nodes[de->from].label + " \u2192 " + d.nodes[de->to].label + ": " + de->label);
    }
}

} // namespace

std::string render_diagnosis(const HtmlReportSink::Outcome& o) {
    if (!o.diagnosis && o.message.empty()) return {};
    std::string h = "<section id=\"diagnosis\">\n";
    const auto* d = o.diagnosis;
    if (!d) {
        h += "<h2>What went wrong</h2>\n<div class=\"errbox\"><pre id=\"error-text\">" + escape_html(o.message) +
             "</pre></div>\n</section>\n";
        return h;
    }
    h += fmt::format("<h2>{} at cycle {}</h2>\n",
                     d->trigger == sim::Diagnosis::Trigger::Deadlock ? "Deadlock" : "Limit", grouped(d->cycle));
    h += fmt::format("<p><b>case: {}</b> [{}]<br>{}</p>\n", escape_html(d->case_title), escape_html(d->case_id),
                     escape_html(d->case_explanation));
    // The legend of Diagnosis::to_dot()'s colours and shapes.
    h += "<div class=\"legend\"><span><i style=\"background:#f8c9c4;border:1px solid #c0392b\"></i>blocked "
         "process</span>"
         "<span><i style=\"background:#dddddd;border:1px solid #777777\"></i>finished</span>"
         "<span><i style=\"background:#fde3b0;border:1px solid #d68910\"></i>idle</span>"
         "<span><i style=\"background:#ffffff;border:1px solid #000000\"></i>running</span>"
         "<span><i style=\"background:#eef3fb;border:1px solid #000000;border-radius:6px\"></i>lock (ellipse) / "
         "stream (diamond) / task (note)</span>"
         "<span><i style=\"background:#c0392b\"></i>the cycle of waits</span>"
         "<span><i style=\"background:#000000\"></i>causal chain (bold)</span></div>\n";
    const GraphvizSvg graph = layout_svg(d->to_dot(), "deadlock-graph", [&](GraphvizGraph& g) { decorate(g, *d); });
    if (!graph.svg.empty())
        h += "<div style=\"overflow:auto\">" + graph.svg + "</div>\n";
    else
        h += "<p class=\"warn\" id=\"deadlock-graph-error\">The wait-for graph could not be drawn: " +
             escape_html(graph.error) + "</p>\n<pre>" + escape_html(d->to_dot()) + "</pre>\n";
    if (!d->chain.empty()) {
        h += "<h3>Why (causal chain)</h3>\n<ol id=\"chain\">\n";
        for (const auto& c : d->chain) h += "<li>" + escape_html(c) + "</li>\n";
        h += "</ol>\n";
    }
    h += "<h3>Full report</h3>\n<pre id=\"diagnosis-text\">" + escape_html(d->text) + "</pre>\n</section>\n";
    return h;
}

} // namespace npusim::traces::html

#include "DesignSection.hpp"

#include "GraphvizSvg.hpp"
#include "HtmlText.hpp"

#include "npusim/model/DeviceSpec.hpp"

#include <fmt/format.h>

#include <map>

namespace npusim::traces::html {

namespace {

constexpr int kFlowColors = 10;
constexpr const char* kFlowPalette[kFlowColors] = {"#2b6cb0", "#c05621", "#2f855a", "#b83280", "#6b46c1",
                                                   "#b7791f", "#2c7a7b", "#c53030", "#4a5568", "#38a169"};

// Text inside a DOT string literal. Backslashes are doubled so that Graphviz's escapes (\n, \l,
// \N, ...) in label and tooltip text show as written; a newline is a line break.
std::string dot_text(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out;
}

std::string quoted(std::string_view s) { return "\"" + dot_text(s) + "\""; }

std::string node_name(model::TileCoord t) { return fmt::format("t{}_{}", t.col, t.row); }

// The tooltip of a tile: its kind and coordinates, worker, fifo ends, buffers and locks.
std::string tile_title(model::TileCoord tc, const TileInfo* t) {
    std::string title =
        fmt::format("{} tile ({},{})", model::tile_kind_name(model::tile_kind_of_row(tc.row)), tc.col, tc.row);
    if (!t) return title;
    for (const auto& w : t->workers) title += "\nworker " + w;
    for (const auto& f : t->fifo_ends) title += "\n" + f;
    if (!t->buffers.empty()) title += fmt::format("\n{} buffers, {}", t->buffers.size(), bytes_str(t->buffer_bytes));
    if (!t->locks.empty()) title += fmt::format("\n{} locks", t->locks.size());
    return title;
}

} // namespace

std::string design_dot(const CollectedRun& run) {
    std::map<std::pair<int, int>, const TileInfo*> used;
    for (const auto& t : run.tiles) used[{t.tile.col, t.tile.row}] = &t;
    std::string dot = "digraph design {\n"
                      "graph [id=\"design-graph-g\", fontname=\"Helvetica\", fontsize=10, nodesep=0.3, ranksep=0.45];\n"
                      "node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=9, "
                      "margin=\"0.1,0.05\"];\n"
                      "edge [fontname=\"Helvetica\", fontsize=8, penwidth=1.6, arrowsize=0.7];\n";
    for (int c = 0; c < run.cols; ++c) {
        dot += fmt::format("subgraph cluster_col{} {{\nlabel=\"column {}\"; class=\"column\"; id=\"design-col{}\"; "
                           "color=\"#d5d9e0\"; fontcolor=\"#5f6b7a\";\n",
                           c, c, c);
        for (int r = run.rows - 1; r >= 0; --r) {
            const model::TileCoord tc{c, r};
            const auto kind = model::tile_kind_of_row(r);
            const auto it = used.find({c, r});
            const TileInfo* t = it == used.end() ? nullptr : it->second;
            const char* fill = !t                              ? "#f4f5f7"
                               : kind == model::TileKind::Shim ? "#e6fffa"
                               : kind == model::TileKind::Mem  ? "#faf5ff"
                                                               : "#ebf8ff";
            // The label: the tile, then one left-aligned line per worker, fifo end and the buffers.
            std::string label = "\"" + dot_text(fmt::format("{} ({},{})", model::tile_kind_name(kind), c, r));
            if (t) {
                std::vector<std::string> lines;
                for (const auto& w : t->workers) lines.push_back("\u2699 " + w);
                for (const auto& f : t->fifo_ends) lines.push_back(f);
                if (!t->buffers.empty())
                    lines.push_back(fmt::format("{} buffers, {}", t->buffers.size(), bytes_str(t->buffer_bytes)));
                label += "\\n";
                for (const auto& l : lines) label += dot_text(l) + "\\l";
            }
            label += "\"";
            dot += fmt::format("{} [label={}, class=\"{}\", id=\"design-{}\", tooltip={}, fillcolor=\"{}\", "
                               "color=\"{}\", fontcolor=\"{}\"];\n",
                               node_name(tc), label, t ? "tile used" : "tile", node_name(tc), quoted(tile_title(tc, t)),
                               fill, t ? "#5a6b80" : "#d5d9e0", t ? "#1d2330" : "#a0a8b4");
        }
        // The rows in order, top row first.
        for (int r = run.rows - 1; r > 0; --r)
            dot += fmt::format("{} -> {} [style=invis, weight=10];\n", node_name({c, r}), node_name({c, r - 1}));
        dot += "}\n";
    }
    // The flows: an edge from the source tile to each destination, in the flow's colour; they do
    // not rank the tiles. The first edge of a flow carries its name (a label is a node of the
    // layout, so labels never overlap; a broadcast's other edges share its colour); every edge's
    // tooltip names the flow, its ends and its switchbox hops.
    for (std::size_t f = 0; f < run.flows.size(); ++f) {
        const auto& flow = run.flows[f];
        const char* color = kFlowPalette[f % kFlowColors];
        for (std::size_t d = 0; d < flow.dests.size(); ++d) {
            const std::string title =
                fmt::format("{}: {} \u2192 {} ({} switch hops)", flow.label, model::to_string(flow.source),
                            model::to_string(flow.dests[d]), d < flow.paths.size() ? flow.paths[d].size() : 0);
            dot += fmt::format("{} -> {} [{}class=\"flow\", id=\"design-flow{}-{}\", tooltip={}, color=\"{}\", "
                               "fontcolor=\"{}\", constraint=false];\n",
                               node_name(flow.source.tile), node_name(flow.dests[d].tile),
                               d == 0 ? "label=" + quoted(flow.label) + ", " : std::string(), f, d, quoted(title),
                               color, color);
        }
    }
    return dot + "}\n";
}

std::string render_design(const CollectedRun& run) {
    std::string h = "<section id=\"design\">\n<h2>Design graph</h2>\n";
    if (!run.cols || !run.rows) return h + "<p class=\"note\">No netlist was given to the report.</p>\n</section>\n";
    h += fmt::format("<p class=\"note\">{} column{} x {} rows; {} tiles in use, {} stream flows (arrows from the MM2S "
                     "channel to each S2MM destination, labelled with the flow; hover a tile or an arrow for "
                     "details, such as the flow's switchbox hops).</p>\n",
                     run.cols, run.cols == 1 ? "" : "s", run.rows, run.tiles.size(), run.flows.size());
    const std::string dot = design_dot(run);
    const GraphvizSvg graph = layout_svg(dot, "design-graph");
    if (!graph.svg.empty())
        h += "<div style=\"overflow:auto\">" + graph.svg + "</div>\n";
    else
        h += "<p class=\"warn\" id=\"design-graph-error\">The design graph could not be drawn: " +
             escape_html(graph.error) + "</p>\n<pre>" + escape_html(dot) + "</pre>\n";
    if (!run.flows.empty()) {
        h += "<h3>Flows</h3>\n<table class=\"grid\" id=\"flows\"><tr><th></th><th>flow</th><th>source</th>"
             "<th>destinations</th></tr>\n";
        for (std::size_t f = 0; f < run.flows.size(); ++f) {
            std::string dests;
            for (const auto& d : run.flows[f].dests) dests += (dests.empty() ? "" : ", ") + model::to_string(d);
            h += fmt::format("<tr><td><i style=\"display:inline-block;width:18px;height:4px;background:{};"
                             "vertical-align:middle\"></i></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                             kFlowPalette[f % kFlowColors], escape_html(run.flows[f].label),
                             escape_html(model::to_string(run.flows[f].source)), escape_html(dests));
        }
        h += "</table>\n";
    }
    h += "<h3>Tiles</h3>\n<table class=\"grid\" id=\"tiles\"><tr><th>tile</th><th>worker</th><th>fifo ends</th>"
         "<th>buffers</th><th>locks</th></tr>\n";
    auto list = [](const std::vector<std::string>& v) {
        std::string r;
        for (const auto& x : v) r += (r.empty() ? "" : "<br>") + escape_html(x);
        return r;
    };
    for (const auto& t : run.tiles)
        h += fmt::format("<tr><td>{} {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                         model::tile_kind_name(model::tile_kind_of_row(t.tile.row)), tile_str(t.tile), list(t.workers),
                         list(t.fifo_ends), list(t.buffers), list(t.locks));
    h += "</table>\n</section>\n";
    return h;
}

} // namespace npusim::traces::html

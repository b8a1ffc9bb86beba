#include "GraphvizSvg.hpp"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <mutex>
#include <regex>

namespace npusim::traces::html {

namespace {

Agraph_t* as_graph(void* g) { return static_cast<Agraph_t*>(g); }
char* chars(const char* s) { return const_cast<char*>(s); }

// Graphviz's messages of the layout in progress (its error handler is a plain function).
std::string* g_messages = nullptr;
int collect_message(char* message) {
    if (g_messages && message) *g_messages += message;
    return 0;
}

void replace_all(std::string& s, std::string_view from, std::string_view to) {
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
}

// Graphviz's SVG document as an element for inlining in HTML (see GraphvizSvg.hpp).
std::string inline_svg(std::string doc, std::string_view svg_id) {
    const auto start = doc.find("<svg");
    if (start == std::string::npos) return {};
    doc.erase(0, start);
    for (auto at = doc.find("<!--"); at != std::string::npos; at = doc.find("<!--", at)) {
        auto end = doc.find("-->", at);
        end = end == std::string::npos ? doc.size() : end + 3;
        if (end < doc.size() && doc[end] == '\n') ++end;
        doc.erase(at, end - at);
    }
    replace_all(doc, "&#45;", "-");
    const auto tag_end = doc.find('>');
    std::string tag = doc.substr(0, tag_end);
    tag = std::regex_replace(tag, std::regex(R"re(\s+xmlns(:xlink)?="[^"]*")re"), "");
    tag.replace(0, 4, "<svg class=\"graph\" id=\"" + std::string(svg_id) + "\"");
    doc.replace(0, tag_end, tag);
    static const std::regex group(R"re(<g id="([^"]*)" class="(?:node|edge|cluster) ([^"]+)">)re");
    doc = std::regex_replace(doc, group, "<g class=\"$2\" id=\"$1\">");
    // Graphviz's <title>s name the DOT objects ("0", "t0_2"): dropped. Its tooltip anchors
    // (`<a xlink:title="...">`, written only for a tooltip: these graphs set no URL) become <title>
    // children, which every browser shows as the tooltip.
    static const std::regex name_title(R"re(<title>[^<]*</title>\n?)re");
    doc = std::regex_replace(doc, name_title, "");
    static const std::regex anchor(R"re(<a xlink:title="([^"]*)">)re");
    doc = std::regex_replace(doc, anchor, "<title>$1</title>");
    replace_all(doc, "</a>\n", "");
    return doc;
}

} // namespace

void GraphvizGraph::set_graph(const char* attr, const std::string& value) {
    agsafeset(as_graph(graph_), chars(attr), chars(value.c_str()), chars(""));
}

bool GraphvizGraph::set_node(const std::string& node, const char* attr, const std::string& value) {
    Agnode_t* n = agnode(as_graph(graph_), chars(node.c_str()), 0);
    if (!n) return false;
    agsafeset(n, chars(attr), chars(value.c_str()), chars(""));
    return true;
}

std::vector<GraphvizGraph::Edge> GraphvizGraph::edges() const {
    std::vector<Edge> out;
    Agraph_t* g = as_graph(graph_);
    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n))
        for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
            const char* label = agget(e, chars("label"));
            out.push_back({agnameof(agtail(e)), agnameof(aghead(e)), label ? label : "", e});
        }
    return out;
}

void GraphvizGraph::set_edge(const Edge& e, const char* attr, const std::string& value) {
    agsafeset(e.handle, chars(attr), chars(value.c_str()), chars(""));
}

GraphvizSvg layout_svg(std::string_view dot, std::string_view svg_id,
                       const std::function<void(GraphvizGraph&)>& decorate) {
    static std::mutex graphviz;
    const std::lock_guard<std::mutex> lock(graphviz);
    GraphvizSvg out;
    std::string messages;
    g_messages = &messages;
    const agusererrf previous_handler = agseterrf(collect_message);
    const agerrlevel_t previous_level = agseterr(AGERR); // warnings are not errors
    // One context for the process, never freed: Graphviz 2.42's pango plugin keeps a font name from
    // the first context it served and reads it again in the next one, after gvFreeContext freed it
    // (AddressSanitizer: heap-use-after-free in textspan_size on the second report of a run).
    static GVC_t* const gvc = gvContext();
    const std::string text(dot);
    Agraph_t* g = agmemread(text.c_str());
    if (!g) {
        out.error = "Graphviz cannot read the graph: " + messages;
    } else {
        GraphvizGraph graph(g);
        if (decorate) decorate(graph);
        if (gvLayout(gvc, g, "dot") != 0) {
            out.error = "Graphviz cannot lay out the graph: " + messages;
        } else {
            char* data = nullptr;
            unsigned int length = 0;
            if (gvRenderData(gvc, g, "svg", &data, &length) == 0 && data)
                out.svg = inline_svg(std::string(data, length), svg_id);
            else
                out.error = "Graphviz cannot render the graph as SVG: " + messages;
            if (data) gvFreeRenderData(data);
            gvFreeLayout(gvc, g);
        }
        agclose(g);
    }
    agseterr(previous_level);
    agseterrf(previous_handler);
    g_messages = nullptr;
    if (out.svg.empty() && out.error.empty()) out.error = "Graphviz wrote no SVG";
    return out;
}

} // namespace npusim::traces::html

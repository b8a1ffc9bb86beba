#include "ReportPage.hpp"

#include "DataJson.hpp"
#include "DesignSection.hpp"
#include "DiagnosisSection.hpp"
#include "HtmlText.hpp"
#include "Resources.hpp"
#include "Sections.hpp"

#include <fmt/format.h>

namespace npusim::traces::html {

std::string render_page(const CollectedRun& run, const HtmlReportSink::Outcome& o,
                        const HtmlReportSink::Limits& limits) {
    const ReducedTimeline timeline = reduce_timeline(run, limits.max_spans);
    const std::string data = render_data(run, timeline, reduce_counters(run, limits.max_counter_points));
    std::string h;
    h.reserve(data.size() + 200'000);
    h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    h += fmt::format("<title>npusim: {} on {}</title>\n", escape_html(run.run.design), escape_html(run.run.device));
    h += "<style>\n";
    h += report_css();
    h += "</style>\n</head>\n<body>\n";
    h += "<svg id=\"ns-probe\" width=\"0\" height=\"0\" style=\"position:absolute\"></svg>\n";
    h += render_header(run, o);
    h += "<div id=\"render-error\"></div>\n<main>\n";
    h += render_diagnosis(o);

    h += "<section id=\"timeline-section\">\n<h2>Timeline</h2>\n";
    h += "<p class=\"note\">One row per core and DMA channel, grouped by tile (time in cycles). Wheel over the plot "
         "to zoom at the cursor, drag to pan; hover a span for its name, cycles and arguments. Spans narrower than a "
         "pixel are drawn together.</p>\n";
    if (timeline.quantum > 0)
        h += fmt::format("<div class=\"warn\" id=\"reduced\">This run recorded {} spans; to keep the report small, "
                         "spans of one kind on one row separated by at most {} cycles were merged, leaving {} (a "
                         "merged span's tooltip gives how many it stands for and their busy cycles). The utilisation "
                         "figures use every span.</div>\n",
                         grouped(run.span_count), grouped(timeline.quantum), grouped(timeline.embedded));
    h += "<div class=\"toolbar\"><button id=\"zoom-in\" title=\"zoom in\">+</button><button id=\"zoom-out\" "
         "title=\"zoom out\">\u2212</button><button id=\"pan-left\" title=\"pan left\">\u2190</button><button "
         "id=\"pan-right\" title=\"pan right\">\u2192</button><button id=\"zoom-reset\">whole run</button>"
         "<span class=\"note\" id=\"view-range\"></span></div>\n";
    h += "<div class=\"legend\">";
    for (std::size_t k = 0; k < std::size(kKinds); ++k)
        h += fmt::format("<span><i style=\"background:{}\"></i>{}</span>", kColors[k],
                         k == 0 ? "other (runtime awaits, ...)" : kKinds[k]);
    h += "</div>\n<div class=\"plot\" id=\"timeline\"></div>\n</section>\n";

    h += "<section id=\"fifos-section\">\n<h2>Fifo occupancy</h2>\n<p class=\"note\">Objects full in each fifo end's "
         "ring over time: the value of its full-slot lock (<code>&lt;fifo&gt;_cons_lock_N</code>), against the ring's "
         "depth; then other locks. Same time axis as the timeline. A dashed line is the minimum of a reduced "
         "chart (many values: per interval its minimum and maximum).</p>\n<div class=\"plot\" id=\"fifos\"></div>\n"
         "</section>\n";

    h += render_utilisation(run, utilisation(run, o.result), o);
    h += render_design(run);
    h += "</main>\n<div id=\"tooltip\"></div>\n";
    h += "<script type=\"application/json\" id=\"npusim-data\">" + data + "</script>\n";
    h += "<script>\n";
    h += report_js();
    h += "</script>\n</body>\n</html>\n";
    return h;
}

} // namespace npusim::traces::html

#include "Sections.hpp"

#include "HtmlText.hpp"

#include <fmt/format.h>

namespace npusim::traces::html {

std::string render_header(const CollectedRun& run, const HtmlReportSink::Outcome& o) {
    const auto& r = run.run;
    const std::string status = o.status.empty() ? std::string("finished") : o.status;
    const std::string& design = r.design.empty() ? o.design : r.design;
    std::string h = "<header>\n";
    h += fmt::format("<h1>npusim report: {}<span class=\"status status-{}\" id=\"status\">{}</span></h1>\n",
                     escape_html(design.empty() ? std::string("(unnamed design)") : design), status_class(status),
                     escape_html(status));
    h += "<table class=\"facts\">\n";
    auto row = [&](const std::string& k, const std::string& v) {
        h += fmt::format("<tr><td>{}</td><td>{}</td></tr>\n", escape_html(k), escape_html(v));
    };
    if (r.device.empty() && !o.device.empty())
        row("device", o.device + " (the run did not start)");
    else
        row("device",
            fmt::format("{} ({}{})", r.device, model::arch_name(r.arch),
                        run.cols ? fmt::format(", {} column{} x {} rows", run.cols, run.cols == 1 ? "" : "s", run.rows)
                                 : std::string()));
    if (r.clock_mhz > 0) {
        row("clock", fmt::format("{:g} MHz (1 cycle = {:g} ns)", r.clock_mhz, 1000.0 / r.clock_mhz));
        row("cycles",
            fmt::format("{} ({:.2f} us)", grouped(run.end_cycle), static_cast<double>(run.end_cycle) / r.clock_mhz));
    } else {
        row("cycles", grouped(run.end_cycle));
    }
    for (const auto& [k, v] : o.figures) row(k, v);
    row("trace", fmt::format("{} spans on {} tracks", grouped(run.span_count), run.tracks.size()));
    h += "</table>\n";
    h += "<nav>";
    if (o.diagnosis || !o.message.empty()) h += "<a href=\"#diagnosis\">diagnosis</a>";
    h += "<a href=\"#timeline-section\">timeline</a><a href=\"#fifos-section\">fifo occupancy</a>"
         "<a href=\"#utilisation\">utilisation</a><a href=\"#design\">design graph</a></nav>\n";
    h += "</header>\n";
    return h;
}

std::string render_utilisation(const CollectedRun& run, const Utilisation& u, const HtmlReportSink::Outcome& o) {
    std::string h = "<section id=\"utilisation\">\n<h2>Utilisation against peak</h2>\n";
    h += fmt::format(
        "<p class=\"note\">Over the run's {} cycles. A core is busy while a kernel call runs (its call "
        "overhead included); a DMA channel streams while its data moves. Peak: {} B/cycle per compute or "
        "mem tile DMA channel, {} B/cycle per shim DMA channel (timing parameters tile_dma_bytes_per_cycle, "
        "shim_dma_bytes_per_cycle).</p>\n",
        grouped(run.end_cycle), run.tile_dma_peak, run.shim_dma_peak);
    h += "<h3>Cores</h3>\n";
    if (u.cores.empty()) {
        h += "<p class=\"note\">No core track.</p>\n";
    } else {
        h += "<table class=\"grid\" id=\"util-cores\"><tr><th>tile</th><th>core</th><th>kernel calls</th>"
             "<th>kernel cycles</th><th>busy</th><th></th><th>lock stall cycles</th><th>stalled</th></tr>\n";
        for (const auto& c : u.cores) {
            const Track* t = c.track;
            h += fmt::format(
                "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                "<td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
                tile_str({t->info.col, t->info.row}), escape_html(t->info.name), grouped(t->calls),
                grouped(t->kernel_cycles), pct(c.busy), bar(c.busy), grouped(t->stall_cycles), pct(c.stalled));
        }
        h += "</table>\n";
    }
    h += "<h3>DMA channels</h3>\n";
    if (u.dmas.empty()) {
        h += "<p class=\"note\">No DMA channel track.</p>\n";
        return h + "</section>\n";
    }
    h += "<table class=\"grid\" id=\"util-dma\"><tr><th>channel</th><th>transfers</th><th>bytes</th>"
         "<th>streaming cycles</th><th>streaming</th><th>B/cycle over the run</th><th>B/cycle while streaming</th>"
         "<th>peak B/cycle</th><th>of peak</th><th></th></tr>\n";
    for (const auto& f : u.dmas)
        h += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                         "<td class=\"num\">{}</td><td class=\"num\">{:.3f}</td><td class=\"num\">{:.3f}</td>"
                         "<td class=\"num\">{:g}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
                         escape_html(f.track->info.name), grouped(f.transfers), grouped(f.bytes), grouped(f.active),
                         pct(f.streaming), f.rate, f.while_active, f.peak, pct(f.of_peak), bar(f.of_peak, "dma"));
    h += "</table>\n";
    if (!o.result)
        h += "<p class=\"note\">The run did not finish: bytes and cycles are those of the transfers completed "
             "before it stopped (a shim task's bytes are its size in the runtime sequence).</p>\n";
    return h + "</section>\n";
}

} // namespace npusim::traces::html

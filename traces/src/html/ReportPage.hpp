#pragma once
// The HTML report's page: the head (style), the header, the diagnosis, the timeline and fifo
// sections (drawn by the script from the embedded data), the utilisation, the design graph, the
// data and the script.
#include "SpanCollector.hpp"

#include "npusim/traces/HtmlReportSink.hpp"

#include <string>

namespace npusim::traces::html {

std::string render_page(const CollectedRun& run, const HtmlReportSink::Outcome& o,
                        const HtmlReportSink::Limits& limits);

} // namespace npusim::traces::html

#pragma once
// The HTML report's header (what ran, how it ended, the figures, the navigation) and its
// utilisation section (cores and DMA channels against peak).
#include "Reduction.hpp"

#include "npusim/traces/HtmlReportSink.hpp"

#include <string>

namespace npusim::traces::html {

std::string render_header(const CollectedRun& run, const HtmlReportSink::Outcome& o);
std::string render_utilisation(const CollectedRun& run, const Utilisation& u, const HtmlReportSink::Outcome& o);

} // namespace npusim::traces::html

#pragma once
// The HTML report's diagnosis section, for a run that ended in a deadlock, a cycle limit or an
// error: the case, the wait-for graph (the DOT of Diagnosis::to_dot(), as `--dot` writes it, laid
// out by Graphviz: node groups of class "node", edge groups of class "edge", "in-cycle" added on
// the cycle), the causal chain and the report's text. Empty for a run that finished.
#include "npusim/traces/HtmlReportSink.hpp"

#include <string>

namespace npusim::traces::html {

std::string render_diagnosis(const HtmlReportSink::Outcome& o);

} // namespace npusim::traces::html

#pragma once
// What `npusim run --html` tells the report about how the run ended: the status and figures of a
// finished run (from its RunReport), or the status, text and diagnosis of a failed one.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/Error.hpp"
#include "npusim/traces/HtmlReportSink.hpp"

namespace npusim::tools {

/// PASS or FAIL (an output mismatch), the run's figures; `rep` must outlive the outcome.
traces::HtmlReportSink::Outcome html_outcome(const harness::RunReport& rep);
/// deadlock, limit or error, with the message and the diagnosis `e` carries (valid while `e` is).
traces::HtmlReportSink::Outcome html_outcome(const SimulationError& e);
/// error: a failure that is not the simulation's (a file that cannot be written, ...).
traces::HtmlReportSink::Outcome html_outcome(const std::exception& e);

} // namespace npusim::tools

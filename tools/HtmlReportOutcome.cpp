#include "HtmlReportOutcome.hpp"

#include "CliSupport.hpp"

#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/sim/Diagnosis.hpp"

#include <fmt/format.h>

namespace npusim::tools {

traces::HtmlReportSink::Outcome html_outcome(const harness::RunReport& rep) {
    traces::HtmlReportSink::Outcome o;
    o.status = rep.all_match ? "PASS" : "FAIL";
    o.result = &rep.result;
    // A named parameter by its name (dtype_in=i16), as --param takes it.
    const std::string params = harness::design_by_name(rep.design).params_text(rep.params);
    o.figures.emplace_back("parameters", params.empty() ? "-" : params);
    o.figures.emplace_back("kernels", rep.kernels == harness::KernelSet::aie ? "aie (AIE-API kernel sources)"
                                                                             : "ref (reference C++ kernels)");
    std::string tiles;
    for (auto t : rep.tiles_used) tiles += (tiles.empty() ? "" : ", ") + model::to_string(t);
    o.figures.emplace_back("tiles used", fmt::format("{}: {}", rep.tiles_used.size(), tiles));
    o.figures.emplace_back("workers", std::to_string(rep.workers));
    const auto& res = rep.result;
    o.figures.emplace_back("data moved",
                           fmt::format("{} B over streams, {} BD transfers, {} shim tasks", grouped(res.bytes_moved),
                                       grouped(res.bd_transfers), grouped(res.shim_tasks)));
    if (rep.invocations.size() > 1) {
        std::string cycles;
        for (const auto& i : rep.invocations)
            cycles +=
                fmt::format("{}{}{}", cycles.empty() ? "" : ", ", grouped(i.cycles), i.warmup ? " (warm-up)" : "");
        o.figures.emplace_back("invocations", fmt::format("{}: {} cycles", rep.invocations.size(), cycles));
    }
    for (const auto& c : rep.checks)
        o.figures.emplace_back("output " + c.name,
                               c.match ? fmt::format("{} elements match", grouped(c.elements))
                                       : fmt::format("MISMATCH: {} of {} differ{}{}", grouped(c.mismatches),
                                                     grouped(c.elements),
                                                     c.first_mismatches.empty() ? "" : ": " + c.first_mismatches,
                                                     c.error.empty() ? "" : " " + c.error));
    for (const auto& w : res.warnings) o.figures.emplace_back("warning", w);
    o.figures.emplace_back("wall time",
                           fmt::format("build {:.1f} ms, resolve {:.1f} ms, simulate {:.1f} ms",
                                       rep.build_seconds * 1e3, rep.resolve_seconds * 1e3, rep.simulate_seconds * 1e3));
    return o;
}

traces::HtmlReportSink::Outcome html_outcome(const SimulationError& e) {
    traces::HtmlReportSink::Outcome o;
    o.status = e.kind() == SimulationError::Kind::Deadlock ? "deadlock"
               : e.kind() == SimulationError::Kind::Limit  ? "limit"
                                                           : "error";
    o.message = e.what();
    o.diagnosis = sim::diagnosis_of(e);
    if (o.diagnosis)
        for (const auto& w : o.diagnosis->warnings) o.figures.emplace_back("warning", w);
    return o;
}

traces::HtmlReportSink::Outcome html_outcome(const std::exception& e) {
    traces::HtmlReportSink::Outcome o;
    o.status = "error";
    o.message = e.what();
    return o;
}

} // namespace npusim::tools

#include "TrustOutput.hpp"

#include "CliSupport.hpp"

#include <fmt/format.h>
#include <string>

namespace npusim::tools {

namespace {

// The critical path's lines: its cycles by the tag of what priced them, then each [est] parameter
// and the others (each at 0.5% or more).
void print_critical_path(std::ostream& out, const harness::CriticalPathShare& cp) {
    if (cp.cycles <= 0) return;
    out << fmt::format("               critical path, {} cycles (the chain of work and waits that ended the run): "
                       "{:.0f}% priced by [est] parameters, {:.0f}% by [HW]/[doc]/[code] ones, {:.0f}% by kernel "
                       "cost models, {:.0f}% not attributed\n",
                       grouped(static_cast<std::uint64_t>(cp.cycles)), 100 * cp.est_share, 100 * cp.measured_share,
                       100 * cp.model_share, 100 * cp.unattributed_share);
    std::string est, rest;
    for (const auto& c : cp.charges) {
        if (c.share < 0.005) continue;
        auto& into = c.tag == "[est]" ? est : rest;
        into += fmt::format("{}{} {:.0f}%", into.empty() ? "" : ", ", c.name, 100 * c.share);
        if (c.tag != "[est]" && c.tag != "[model]" && !c.tag.empty()) into += " " + c.tag;
    }
    if (!est.empty()) out << "                 [est]: " << est << "\n";
    if (!rest.empty()) out << "                 others: " << rest << "\n";
}

} // namespace

void print_trust(std::ostream& out, const harness::TrustReport& t) {
    if (t.charged_cycles <= 0) return;
    out << fmt::format("  trust        of {} unit cycles (every core's and DMA channel's time, summed): {:.0f}% rest "
                       "on [est] parameters, {:.0f}% on [HW]/[doc]/[code] ones, {:.0f}% on kernel cost models\n",
                       grouped(static_cast<std::uint64_t>(t.charged_cycles)), 100 * t.est_share, 100 * t.measured_share,
                       100 * t.model_share);
    std::string est, rest;
    for (const auto& c : t.charges) {
        if (c.share < 0.005) continue;
        auto& into = c.tag == "[est]" ? est : rest;
        into += fmt::format("{}{} {:.0f}%", into.empty() ? "" : ", ", c.name, 100 * c.share);
        if (c.tag != "[est]" && c.tag != "[model]") into += " " + c.tag;
    }
    if (!est.empty()) out << "               [est]: " << est << "\n";
    if (!rest.empty()) out << "               others: " << rest << "\n";
    print_critical_path(out, t.critical);
    out << fmt::format("               npu time: {:.0f}% is the host invocation latency {}; `--what-if sensitivity` "
                       "gives each [est] parameter's range\n",
                       100 * t.host_share_of_npu_time, t.host_tag);
}

nlohmann::json trust_json(const harness::TrustReport& t) {
    nlohmann::json j{{"basis", "unit cycles: every core's and DMA channel's time, summed"},
                     {"charged_cycles", t.charged_cycles},
                     {"est_share", t.est_share},
                     {"measured_share", t.measured_share},
                     {"model_share", t.model_share},
                     {"host_share_of_npu_time", t.host_share_of_npu_time},
                     {"host_tag", t.host_tag}};
    j["parameters"] = nlohmann::json::array();
    for (const auto& c : t.charges)
        j["parameters"].push_back({{"name", c.name}, {"tag", c.tag}, {"cycles", c.cycles}, {"share", c.share}});
    const auto& cp = t.critical;
    nlohmann::json c{{"basis", "the critical path: the chain of work and waits that ended the run"},
                     {"cycles", cp.cycles},
                     {"est_share", cp.est_share},
                     {"measured_share", cp.measured_share},
                     {"model_share", cp.model_share},
                     {"unattributed_share", cp.unattributed_share}};
    c["parameters"] = nlohmann::json::array();
    for (const auto& p : cp.charges)
        c["parameters"].push_back({{"name", p.name}, {"tag", p.tag}, {"cycles", p.cycles}, {"share", p.share}});
    j["critical_path"] = std::move(c);
    return j;
}

} // namespace npusim::tools

#include "RunReport.hpp"

#include "Breakdown.hpp"
#include "CliSupport.hpp"
#include "TrustOutput.hpp"

#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <string>

namespace npusim::tools {

namespace {

// A parameter's value as the user writes it: the name of a named parameter (dtype_in=i8), else the number.
std::string param_value_str(const std::string& design, const std::string& name, std::int64_t v) {
    for (const auto& p : harness::design_by_name(design).params)
        if (p.name == name) return p.value_str(v);
    return std::to_string(v);
}

} // namespace

void print_run_summary(std::ostream& out, const harness::RunReport& rep, const model::TimingParams& timing) {
    const double clock_mhz = timing.clock_mhz;
    const auto& dev = model::device_by_name(rep.device);
    const auto& res = rep.result;
    out << fmt::format("npusim: {} on {} ({}, {} column{})\n", rep.design, dev.name, model::arch_name(dev.arch),
                       dev.cols, dev.cols == 1 ? "" : "s");
    const std::string params = harness::design_by_name(rep.design).params_text(rep.params);
    std::string tiles;
    for (auto t : rep.tiles_used)
        tiles += fmt::format("{}{} {}", tiles.empty() ? "" : ", ", model::to_string(t),
                             model::tile_kind_name(dev.kind_at(t)));
    auto row = [&](const char* k, const std::string& v) { out << fmt::format("  {:<13}{}\n", k, v); };
    row("parameters", params.empty() ? "-" : params);
    if (harness::design_by_name(rep.design).kernels_note_only())
        row("kernels", rep.kernels_note);
    else
        row("kernels",
            (rep.kernels == harness::KernelSet::aie ? std::string("aie (AIE-API kernel sources, kernels_ref/aie)")
                                                    : std::string("ref (reference C++ kernels)")) +
                (rep.kernels_note.empty() ? "" : "; " + rep.kernels_note));
    std::string inputs;
    for (std::size_t i = 0; i < rep.args.size(); ++i)
        if (rep.args[i].takes_input())
            inputs += fmt::format("{}{} {} ({})", inputs.empty() ? "" : ", ", rep.args[i].name, rep.args[i].type_str(),
                                  rep.arg_sources[i]);
    if (!inputs.empty()) row("inputs", inputs);
    row("tiles used", fmt::format("{}: {}", rep.tiles_used.size(), tiles));
    // The cycles cover every invocation, so with --cold they include the first, the context's first command.
    row("cycles",
        fmt::format("{} array cycles ({:.2f} us at {:.0f} MHz); a host timing the run would see ~{:.0f} us "
                    "(+{:.0f} us invocation latency{})",
                    grouped(res.cycles), res.cycles / clock_mhz, clock_mhz,
                    res.cycles / clock_mhz + timing.host_latency_us(rep.cold), timing.host_invocation_latency_us,
                    rep.cold ? fmt::format(", +{:.0f} us cold start: the first run on a new context",
                                           timing.host_cold_start_us)
                             : std::string()));
    if (rep.invocations.size() > 1) {
        // First and steady state (the mean of the measured runs after the first), as XRT's test
        // wrapper times only the non-warm-up iterations.
        std::uint32_t warm = 0;
        for (const auto& i : rep.invocations) warm += i.warmup ? 1 : 0;
        std::uint64_t rest = 0, n_rest = 0;
        for (const auto& i : rep.invocations)
            if (i.index > 0 && !i.warmup) rest += i.cycles, ++n_rest;
        row("invocations", fmt::format("{} ({} warm-up): first {} cycles, steady state {} cycles per invocation",
                                       rep.invocations.size(), warm, grouped(rep.invocations.front().cycles),
                                       n_rest ? grouped(rest / n_rest) : std::string("-")));
        for (const auto& i : rep.invocations)
            if (!i.warmup && !i.all_match)
                for (const auto& c : i.checks)
                    if (!c.match)
                        out << fmt::format("  invocation {}: output {} MISMATCH ({} differ): {}\n", i.index, c.name,
                                           grouped(c.mismatches), c.first_mismatches);
    }
    row("data moved", fmt::format("{} B over streams, {} BD transfers, {} shim tasks", grouped(res.bytes_moved),
                                  grouped(res.bd_transfers), grouped(res.shim_tasks)));
    if (res.queue_waits)
        row("queue waits",
            fmt::format("{} task push(es) waited for a free shim queue slot (--queue-wait)", grouped(res.queue_waits)));
    row("wall time",
        fmt::format("build {:.1f} ms, resolve {:.1f} ms, simulate {:.1f} ms, reference {:.1f} ms, check {:.1f} ms",
                    rep.build_seconds * 1e3, rep.resolve_seconds * 1e3, rep.simulate_seconds * 1e3,
                    rep.reference_seconds * 1e3, rep.check_seconds * 1e3));
    if (!res.cores.empty()) {
        out << fmt::format("  {:<18} {:>8} {:>14} {:>14} {:>8} {:>10}\n", "worker", "tile", "busy cycles",
                           "stall cycles", "kernels", "iterations");
        for (const auto& c : res.cores)
            out << fmt::format("  {:<18} {:>8} {:>14} {:>14} {:>8} {:>10}\n", c.worker, model::to_string(c.tile),
                               grouped(c.busy_cycles), grouped(c.stall_cycles), grouped(c.kernel_calls),
                               grouped(c.iterations));
    }
    print_breakdown(out, harness::run_breakdown(res, dev));
    print_trust(out, harness::trust_report(res, dev, timing));
    for (const auto& w : res.warnings) out << "  warning: " << w << "\n";
    for (const auto& n : rep.notes) out << "  note: " << n << "\n";
    for (const auto& c : rep.checks) {
        std::string extra;
        if (c.is_float && c.error.empty())
            extra += fmt::format("  (max abs err {:.3g}, max rel err {:.3g}; rtol {:g}, atol {:g})", c.max_abs_err,
                                 c.max_rel_err, c.rtol, c.atol);
        if (c.expected_from != "reference") extra += "  vs " + c.expected_from;
        if (c.ignored) extra += fmt::format("  ({} never-written elements ignored)", grouped(c.ignored));
        out << fmt::format("  output {:<14} {:>9} elements  {}{}\n", c.name, grouped(c.elements),
                           c.match ? "match" : fmt::format("MISMATCH ({} differ)", grouped(c.mismatches)), extra);
        if (!c.match) out << harness::describe_mismatches(c, "    ");
    }
    if (!rep.saved_files.empty()) {
        std::string names;
        for (const auto& f : rep.saved_files)
            names += (names.empty() ? "" : " ") + std::filesystem::path(f).filename().string();
        out << fmt::format("  saved        {} files to {}: {}\n", rep.saved_files.size(),
                           std::filesystem::path(rep.saved_files.front()).parent_path().string(), names);
    }
    out << (rep.all_match ? "result: PASS\n" : "result: FAIL (output mismatch)\n");
}

nlohmann::json first_mismatches_json(const harness::OutputCheck& c) {
    auto first = nlohmann::json::array();
    for (const auto& v : c.first) {
        // Values as numbers (integers exactly; a NaN or infinity, which JSON cannot hold, as null),
        // and as text in the summary's notation.
        nlohmann::json e{{"index", v.index}, {"got_text", v.got}, {"want_text", v.want}};
        if (c.is_float) {
            e["got"] = std::isfinite(v.got_value) ? nlohmann::json(v.got_value) : nlohmann::json();
            e["want"] = std::isfinite(v.want_value) ? nlohmann::json(v.want_value) : nlohmann::json();
            e["abs_err"] = v.abs_err;
            e["rel_err"] = v.rel_err;
        } else {
            e["got"] = static_cast<std::int64_t>(v.got_value);
            e["want"] = static_cast<std::int64_t>(v.want_value);
        }
        first.push_back(e);
    }
    return first;
}

nlohmann::json run_report_json(const harness::RunReport& rep, const model::TimingParams& timing) {
    // Array cycles and the time they take at the array clock, apart from the time a host would
    // measure around one run (array time + the host's invocation latency; docs/timing-model.md).
    const auto array_us = [&](std::uint64_t cycles) { return static_cast<double>(cycles) / timing.clock_mhz; };
    // With --cold the first invocation is a new context's first command (host_cold_start_us).
    const auto npu_us = [&](std::uint64_t cycles, bool first) {
        return array_us(cycles) + timing.host_latency_us(rep.cold && first);
    };
    nlohmann::json j;
    j["status"] = rep.all_match ? "pass" : "mismatch";
    j["design"] = rep.design;
    j["device"] = rep.device;
    j["params"] = nlohmann::json::object();
    for (const auto& [k, v] : rep.params) { // a named parameter (dtype_in=i8) by its name, others as numbers
        const auto text = param_value_str(rep.design, k, v);
        if (text == std::to_string(v))
            j["params"][k] = v;
        else
            j["params"][k] = text;
    }
    j["cycles"] = rep.result.cycles;
    j["clock_mhz"] = timing.clock_mhz;
    j["array_time_us"] = array_us(rep.result.cycles);
    j["npu_time_us"] = npu_us(rep.result.cycles, true); // the cycles of every invocation, the first's included
    j["host_invocation_latency_us"] = timing.host_invocation_latency_us;
    j["cold"] = rep.cold;
    if (rep.cold) j["host_cold_start_us"] = timing.host_cold_start_us;
    j["kernels"] = std::string(harness::kernel_set_name(rep.kernels));
    j["inputs"] = nlohmann::json::array();
    for (std::size_t i = 0; i < rep.args.size(); ++i)
        if (rep.args[i].takes_input())
            j["inputs"].push_back(
                {{"name", rep.args[i].name}, {"type", rep.args[i].type_str()}, {"source", rep.arg_sources[i]}});
    j["outputs"] = nlohmann::json::array();
    for (const auto& c : rep.checks) {
        nlohmann::json o{{"name", c.name},
                         {"arg", c.arg},
                         {"dtype", std::string(dtype_name(c.dtype))},
                         {"shape", c.shape},
                         {"match", c.match},
                         {"elements", c.elements},
                         {"mismatches", c.mismatches},
                         {"mismatch_indices", c.mismatch_indices},
                         {"first_mismatches", c.first_mismatches},
                         {"expected_from", c.expected_from},
                         {"ignored", c.ignored}};
        o["first"] = first_mismatches_json(c);
        if (c.is_float) {
            o["rtol"] = c.rtol;
            o["atol"] = c.atol;
            o["max_abs_err"] = c.max_abs_err;
            o["max_rel_err"] = c.max_rel_err;
        }
        if (!c.error.empty()) o["error"] = c.error;
        j["outputs"].push_back(o);
    }
    j["invocations"] = nlohmann::json::array();
    for (const auto& i : rep.invocations) {
        bool match = i.all_match;
        j["invocations"].push_back({{"index", i.index},
                                    {"warmup", i.warmup},
                                    {"cycles", i.cycles},
                                    {"array_time_us", array_us(i.cycles)},
                                    {"npu_time_us", npu_us(i.cycles, i.index == 0)},
                                    {"match", match}});
    }
    j["saved"] = rep.saved_files;
    j["notes"] = rep.notes;
    nlohmann::json st;
    st["bytes_moved"] = rep.result.bytes_moved;
    st["bd_transfers"] = rep.result.bd_transfers;
    st["shim_tasks"] = rep.result.shim_tasks;
    st["queue_waits"] = rep.result.queue_waits;
    st["build_seconds"] = rep.build_seconds;
    st["resolve_seconds"] = rep.resolve_seconds;
    st["simulate_seconds"] = rep.simulate_seconds;
    st["reference_seconds"] = rep.reference_seconds;
    st["check_seconds"] = rep.check_seconds;
    st["tiles_used"] = nlohmann::json::array();
    for (auto t : rep.tiles_used) st["tiles_used"].push_back({t.col, t.row});
    st["cores"] = nlohmann::json::array();
    for (const auto& c : rep.result.cores)
        st["cores"].push_back({{"worker", c.worker},
                               {"tile", {c.tile.col, c.tile.row}},
                               {"busy_cycles", c.busy_cycles},
                               {"stall_cycles", c.stall_cycles},
                               {"cascade_stall_cycles", c.cascade_stall_cycles},
                               {"kernel_calls", c.kernel_calls},
                               {"iterations", c.iterations}});
    st["channels"] = nlohmann::json::array();
    for (const auto& c : rep.result.channels)
        st["channels"].push_back({{"channel", model::to_string(c.channel)},
                                  {"label", c.label},
                                  {"bytes", c.bytes},
                                  {"bds", c.bds},
                                  {"active_cycles", c.active_cycles},
                                  {"stream_stall_cycles", c.stream_stall_cycles},
                                  {"lock_stall_cycles", c.lock_stall_cycles},
                                  {"peak_bytes_per_cycle", c.peak_bytes_per_cycle}});
    st["shared_paths"] = nlohmann::json::array();
    for (const auto& p : rep.result.shared_paths)
        st["shared_paths"].push_back({{"label", p.label},
                                      {"bytes", p.bytes},
                                      {"bytes_per_cycle", p.bytes_per_cycle},
                                      {"delay_cycles", p.delay_cycles}});
    j["stats"] = st;
    j["breakdown"] = breakdown_json(harness::run_breakdown(rep.result, model::device_by_name(rep.device)));
    j["trust"] = trust_json(harness::trust_report(rep.result, model::device_by_name(rep.device), timing));
    j["warnings"] = rep.result.warnings;
    return j;
}

nlohmann::json diagnosis_json(const sim::Diagnosis& d) {
    static const char* kinds[] = {"worker", "tile_dma", "shim_dma", "runtime", "lock", "stream", "task", "queue"};
    nlohmann::json j{{"cycle", d.cycle},
                     {"design", d.design},
                     {"device", d.device},
                     {"case", {{"id", d.case_id}, {"title", d.case_title}, {"explanation", d.case_explanation}}}};
    j["nodes"] = nlohmann::json::array();
    for (const auto& n : d.nodes)
        j["nodes"].push_back({{"id", n.id},
                              {"kind", kinds[static_cast<int>(n.kind)]},
                              {"label", n.label},
                              {"state", n.state_name()},
                              {"detail", n.detail},
                              {"in_cycle", n.in_cycle},
                              {"in_chain", n.in_chain}});
    j["edges"] = nlohmann::json::array();
    for (const auto& e : d.edges)
        j["edges"].push_back({{"from", d.nodes[e.from].id},
                              {"to", d.nodes[e.to].id},
                              {"label", e.label},
                              {"in_cycle", e.in_cycle},
                              {"in_chain", e.in_chain}});
    j["cycles"] = nlohmann::json::array();
    for (const auto& c : d.cycles) {
        nlohmann::json ids = nlohmann::json::array();
        for (auto n : c) ids.push_back(d.nodes[n].id);
        j["cycles"].push_back(ids);
    }
    j["chain"] = nlohmann::json::array();
    for (std::size_t k = 0; k < d.chain.size(); ++k)
        j["chain"].push_back({{"step", k + 1}, {"process", d.nodes.at(d.chain_nodes.at(k)).id}, {"text", d.chain[k]}});
    j["progress"] = nlohmann::json::array();
    for (const auto& p : d.progress) {
        nlohmann::json q{{"process", p.process},       {"state", sim::to_string(p.state)},
                         {"waits_for", p.waits_for},   {"steps", p.steps},
                         {"steps_unit", p.steps_unit}, {"bytes", p.bytes},
                         {"current", p.current},       {"last_action", p.last_action},
                         {"last_cycle", p.last_cycle}};
        q["fifo_ends"] = nlohmann::json::array();
        for (const auto& f : p.fifo_ends)
            q["fifo_ends"].push_back(
                {{"end", f.end}, {"acquired", f.acquired}, {"released", f.released}, {"held", f.held}});
        j["progress"].push_back(q);
    }
    j["warnings"] = d.warnings;
    return j;
}

} // namespace npusim::tools

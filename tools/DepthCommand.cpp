#include "DepthCommand.hpp"
#include "PythonCommand.hpp"

#include "CliSupport.hpp"
#include "JsonDocument.hpp"
#include "ProgressLine.hpp"
#include "OutputPaths.hpp"

#include "npusim/harness/DepthAnalysis.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <set>
#include <unistd.h>
#include <utility>

namespace npusim::tools {

namespace {

struct DepthArgs {
    std::string design;
    std::string device = "npu1_1col";
    harness::DepthOptions opts;
    bool json = false;
    bool progress = false; ///< --progress: the progress line even when stderr is not a terminal
    std::string csv_file;
};

std::string tile_str(model::TileCoord t) { return model::to_string(t); }

// What an endpoint without buffers uses instead.
std::string holding_text(const model::FifoEndpointInfo& e) {
    std::string s = model::fifo_end_holding_name(e.holding);
    if (!e.pool_owner.empty()) s += " (" + e.pool_owner + ")";
    return s;
}

// A table cell: the cycles, or the status; the resolved depth is marked '*'.
std::string cell(const harness::DepthOutcome& o, bool resolved) {
    const std::string v = o.ok() ? grouped(o.cycles) : std::string(harness::to_string(o.status));
    return v + (resolved ? "*" : "");
}

// Cycles at depth 2 against depth 1, as a change: "-29.5%" (double buffering pays), "+0.0%".
std::string double_buffering(const harness::EndpointDepths& e) {
    const auto one = e.by_depth.find(1), two = e.by_depth.find(2);
    if (one == e.by_depth.end() || two == e.by_depth.end() || !one->second.ok() || !two->second.ok() ||
        one->second.cycles == 0)
        return "-";
    const double change = static_cast<double>(two->second.cycles) / static_cast<double>(one->second.cycles) - 1.0;
    return fmt::format("{:+.1f}%", 100.0 * change);
}

void print_text(const harness::DepthReport& rep, std::ostream& out) {
    // A named parameter by its name (dtype_in=i16), as --param takes it.
    const std::string params = harness::design_by_name(rep.design).params_text(rep.params);
    out << fmt::format("npusim depth: {} on {}{}\n", rep.design, rep.device, params.empty() ? "" : " (" + params + ")");
    out << fmt::format("  baseline (every endpoint at its resolved depth): {}\n",
                       rep.baseline.ok() ? grouped(rep.baseline.cycles) + " cycles, outputs match"
                                         : rep.baseline.describe());
    out << fmt::format("  {} configurations ({} simulated, {} refused by resolve), {} answered from the cache; "
                       "{} worker process{}, {:.1f} s\n\n",
                       rep.configurations, rep.simulations, rep.configurations - rep.simulations, rep.reused, rep.jobs,
                       rep.jobs == 1 ? "" : "es", rep.seconds);

    int k = 0;
    for (const auto& e : rep.endpoints) k = std::max(k, e.table_depth);
    std::size_t wf = 4, we = 3, wh = 5;
    for (const auto& e : rep.endpoints) {
        wf = std::max(wf, e.info.fifo.size());
        we = std::max(we, e.info.end.size());
        if (e.info.owns_buffers()) wh = std::max(wh, holding_text(e.info).size());
    }
    std::vector<std::size_t> wd(static_cast<std::size_t>(k) + 1, 0);
    for (int d = 1; d <= k; ++d) wd[static_cast<std::size_t>(d)] = fmt::format("depth {}", d).size();
    for (const auto& e : rep.endpoints)
        for (const auto& [d, o] : e.by_depth)
            if (d <= k)
                wd[static_cast<std::size_t>(d)] =
                    std::max(wd[static_cast<std::size_t>(d)], cell(o, d == e.info.depth).size());
    std::string head = fmt::format(
        "{:<{}}  {:<{}}  {:>8}  {:<{}}  {:>4} {:>4} {:>4}  {:>9}  {:>10}  {:>19}  {:>4}  {:>7}", "fifo", wf, "end", we,
        "tile", "holds", wh, "decl", "res", "min", "B/object", "B at min", "tile B / capacity", "sat", "2 vs 1");
    for (int d = 1; d <= k; ++d)
        head += fmt::format("  {:>{}}", fmt::format("depth {}", d), wd[static_cast<std::size_t>(d)]);
    out << head << "\n";
    for (const auto& e : rep.endpoints) {
        std::string row =
            fmt::format("{:<{}}  {:<{}}  {:>8}  ", e.info.fifo, wf, e.info.end, we, tile_str(e.info.tile));
        if (!e.info.owns_buffers()) {
            out << row << holding_text(e.info) << "\n";
            continue;
        }
        const std::string mem = e.tile_capacity
                                    ? fmt::format("{} / {}", grouped(e.tile_bytes_used), grouped(e.tile_capacity))
                                    : std::string("-");
        row += fmt::format("{:<{}}  {:>4} {:>4} {:>4}  {:>9}  {:>10}  {:>19}  {:>4}  {:>7}", holding_text(e.info), wh,
                           e.info.declared, e.info.depth, e.min_depth ? std::to_string(*e.min_depth) : "none",
                           grouped(e.info.object_bytes), e.min_depth ? grouped(e.bytes_at(*e.min_depth)) : "-", mem,
                           e.saturation_depth ? std::to_string(*e.saturation_depth) : "-", double_buffering(e));
        for (int d = 1; d <= k; ++d) {
            const auto it = e.by_depth.find(d);
            row += fmt::format("  {:>{}}", it == e.by_depth.end() ? "" : cell(it->second, d == e.info.depth),
                               wd[static_cast<std::size_t>(d)]);
        }
        out << row << "\n";
    }
    out << "\n  cycles per depth of one endpoint, every other endpoint at its resolved depth; * the resolved depth\n"
           "  (the toolchain's rule); min: the smallest depth that runs and matches; sat: the smallest depth within\n"
           "  1% of the fewest cycles (more depth buys nothing); 2 vs 1: cycles at depth 2 against depth 1 (negative:\n"
           "  double buffering pays); B at min: that endpoint's buffers at its min depth\n";

    // Per endpoint: depths searched beyond the table, why depths were refused or failed (a deadlock
    // or a limit speaks for itself).
    std::vector<std::string> lines;
    const auto explained = [](const harness::DepthOutcome& o) {
        return !o.ok() && !o.message.empty() && o.status != harness::DepthOutcome::Status::Deadlock &&
               o.status != harness::DepthOutcome::Status::Limit;
    };
    for (const auto& e : rep.endpoints) {
        if (!e.info.owns_buffers()) continue;
        const std::string who = e.info.describe();
        std::string searched;
        for (const auto& [d, o] : e.by_depth)
            if (d > e.table_depth)
                searched += fmt::format("{}{}: {}", searched.empty() ? "" : ", ", d,
                                        o.ok() ? grouped(o.cycles) + " cycles" : harness::to_string(o.status));
        if (!searched.empty()) lines.push_back(fmt::format("{}: searched beyond the table: {}", who, searched));
        std::set<std::string> reasons;
        for (const auto& [d, o] : e.by_depth)
            if (explained(o) && reasons.insert(o.describe()).second)
                lines.push_back(fmt::format("{}: depth {} {}", who, d, o.describe()));
        if (!e.min_depth)
            lines.push_back(fmt::format("{}: no depth up to {} runs and matches", who,
                                        std::max(e.table_depth, e.by_depth.empty() ? 0 : e.by_depth.rbegin()->first)));
        for (const auto& n : e.notes) lines.push_back(fmt::format("{}: {}", who, n));
    }
    if (!rep.baseline.ok() && !rep.baseline.message.empty())
        lines.insert(lines.begin(),
                     fmt::format("baseline: {}: {}", harness::to_string(rep.baseline.status), rep.baseline.message));
    if (!lines.empty()) {
        out << "\nnotes:\n";
        for (const auto& l : lines) out << "  " << l << "\n";
    }
}

// Cycles are an integer where a run matched and null otherwise; what went wrong is its status (an
// enum) and its message, never a string in the place of a number.
nlohmann::json cycles_json(const harness::DepthOutcome& o) { return o.ok() ? nlohmann::json(o.cycles) : nlohmann::json(nullptr); }

nlohmann::json report_json(const harness::DepthReport& rep) {
    nlohmann::json j;
    j["design"] = rep.design;
    j["device"] = rep.device;
    j["params"] = rep.params;
    j["baseline"] = {{"status", harness::to_string(rep.baseline.status)},
                     {"cycles", cycles_json(rep.baseline)},
                     {"message", rep.baseline.message}};
    j["endpoints"] = nlohmann::json::array();
    for (const auto& e : rep.endpoints) {
        const bool owns = e.info.owns_buffers();
        nlohmann::json o{
            {"fifo", e.info.fifo},
            {"endpoint", e.info.end},
            {"tile", tile_str(e.info.tile)},
            {"holding", model::fifo_end_holding_name(e.info.holding)},
            {"declared", e.info.declared},
            {"resolved", owns ? nlohmann::json(e.info.depth) : nlohmann::json(nullptr)},
            {"min_depth", e.min_depth ? nlohmann::json(*e.min_depth) : nlohmann::json(nullptr)},
            {"saturation_depth", e.saturation_depth ? nlohmann::json(*e.saturation_depth) : nlohmann::json(nullptr)},
            {"bytes_per_object", e.info.object_bytes},
            {"tile_bytes_used", e.tile_bytes_used},
            {"tile_capacity", e.tile_capacity}};
        if (!e.info.pool_owner.empty()) o["shares"] = e.info.pool_owner;
        // Every depth tried has a status; the depths that ran and matched have cycles; those that
        // did not and say why have a message.
        o["cycles_by_depth"] = nlohmann::json::object();
        o["status_by_depth"] = nlohmann::json::object();
        o["messages_by_depth"] = nlohmann::json::object();
        for (const auto& [d, oc] : e.by_depth) {
            const std::string k = std::to_string(d);
            o["status_by_depth"][k] = harness::to_string(oc.status);
            if (oc.ok()) o["cycles_by_depth"][k] = oc.cycles;
            if (!oc.ok() && !oc.message.empty()) o["messages_by_depth"][k] = oc.message;
        }
        o["notes"] = e.notes;
        j["endpoints"].push_back(o);
    }
    j["configurations"] = rep.configurations;
    j["simulations"] = rep.simulations;
    j["reused"] = rep.reused;
    j["jobs"] = rep.jobs;
    j["seconds"] = rep.seconds;
    return j;
}

void write_csv(const harness::DepthReport& rep, const std::string& path) {
    std::ofstream f(path, std::ios::trunc);
    if (!f) throw FileError(fmt::format("cannot write --csv '{}': {}", path, std::strerror(errno)));
    f << "design,device,fifo,endpoint,tile,holding,declared,resolved,min_depth,bytes_per_object,tile_bytes_used,"
         "tile_capacity,depth,status,cycles,message\n";
    for (const auto& e : rep.endpoints) {
        const std::string head = fmt::format(
            "{},{},{},{},{},{},{},{},{},{},{},{}", csv_field(rep.design), csv_field(rep.device), csv_field(e.info.fifo),
            csv_field(e.info.end), csv_field(tile_str(e.info.tile)), csv_field(holding_text(e.info)), e.info.declared,
            e.info.owns_buffers() ? std::to_string(e.info.depth) : "", e.min_depth ? std::to_string(*e.min_depth) : "",
            e.info.object_bytes, e.tile_bytes_used, e.tile_capacity);
        if (e.by_depth.empty()) f << head << ",,,,\n";
        for (const auto& [d, o] : e.by_depth)
            f << head
              << fmt::format(",{},{},{},{}\n", d, harness::to_string(o.status),
                             o.status == harness::DepthOutcome::Status::Ok ||
                                     o.status == harness::DepthOutcome::Status::Mismatch
                                 ? std::to_string(o.cycles)
                                 : "",
                             csv_field(o.message));
    }
    f.close(); // written out now: an error (a full disk) shows here, not in the destructor
    if (!f) throw FileError(fmt::format("cannot write --csv '{}': {}", path, std::strerror(errno)));
}

} // namespace

namespace {

int run_depth(DepthArgs& r, std::ostream& out, std::ostream& err) {
    if (!r.csv_file.empty()) check_output_file("--csv", r.csv_file); // at once, not after the analysis
    // One updating line on stderr: on a terminal, or when asked for (whole lines in a log).
    const bool terminal = &err == &std::cerr && ::isatty(STDERR_FILENO);
    ProgressLine line(err, terminal);
    if (r.progress || terminal) // the search can add configurations: no report is known to be the last
        r.opts.progress = [&line](const harness::DepthProgress& p) {
            line.show(fmt::format("  depth analysis: {}/{} configurations, {:.1f}/s, ETA {:.0f} s", p.done, p.total,
                                  p.rate(), p.eta_seconds()),
                      p.seconds, false);
        };
    const auto& spec = harness::design_by_name(r.design);
    harness::DepthAnalysis analysis(spec, r.device, r.opts);
    const harness::DepthReport rep = analysis.run();
    line.finish();
    if (r.json)
        out << json_document("depth", report_json(rep)).dump(2) << "\n";
    else
        print_text(rep, out);
    if (!r.csv_file.empty()) {
        write_csv(rep, r.csv_file);
        if (!r.json) out << "  table written to " << r.csv_file << " (one row per endpoint and depth)\n";
    }
    // Every configuration (the baseline and each endpoint's depths) failed or was refused: there is
    // no depth to recommend, so not exit 0 (--help says which code).
    std::vector<harness::RunOutcome> outcomes{rep.baseline};
    for (const auto& e : rep.endpoints)
        for (const auto& [d, o] : e.by_depth) outcomes.push_back(o);
    const int code = batch_exit_code(outcomes);
    if (code != 0) err << "npusim depth: no configuration ran and matched (" << status_counts(outcomes) << ")\n";
    return code;
}

} // namespace

Command add_depth_command(CLI::App& app, std::ostream& out, std::ostream& err) {
    auto* sub = add_command(app, "depth", "  npusim depth DESIGN [options]  ObjectFifo depth analysis: per fifo endpoint "
                                            "the smallest depth that\n                                 runs "
                                            "deadlock-free and matches, its memory, and cycles at depths 1..k", batch_exit_note("configuration"));
    auto r = std::make_shared<DepthArgs>();
    auto o = std::make_shared<CliOptions>(*sub, "depth", "depth options");
    o->value("--device", "NAME", "the device (default npu1_1col), as for run",
             [r](const std::string& v) { r->device = v; });
    o->repeated("--param", "K=V", "override a design parameter (repeatable), as for run",
                [r](const std::string& v) { parse_param(v, r->opts.params); });
    o->value("--max-depth", "K",
             "cycles at depths 1..K of every endpoint (default: per endpoint, the larger of its declared depth and 4)",
             [r](const std::string& v) { r->opts.max_depth = static_cast<int>(parse_count(v, "--max-depth", 1, 63)); });
    o->value("--jobs", "N", "worker processes, one configuration each (default: the number of cores)",
             [r](const std::string& v) { r->opts.jobs = static_cast<unsigned>(parse_count(v, "--jobs", 1, 256)); });
    add_batch_options(
        *o, {r->design, r->json, r->progress, r->csv_file, r->opts.seed, r->opts.max_cycles, r->opts.timeout_seconds},
        "configuration", "endpoint and depth");
    return {sub, [r, o, &out, &err] {
                o->apply();
                if (r->design.empty()) throw UsageError("depth: which design? (see `npusim list`)");
                if (r->design.ends_with(".py")) { // an IRON Python design: npusim.depth on each of its runs
                    std::vector<std::string> args{"--depth"};
                    // depth's own default (npu1_1col) is not passed: a Python design runs on npu2 by default
                    if (r->device != DepthArgs{}.device) args.insert(args.end(), {"--device", r->device});
                    if (r->opts.max_depth > 0) args.insert(args.end(), {"--max-depth", std::to_string(r->opts.max_depth)});
                    args.push_back(r->design);
                    return run_python(args, out, err);
                }
                return run_depth(*r, out, err);
            }};
}

} // namespace npusim::tools

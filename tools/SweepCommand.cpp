#include "SweepCommand.hpp"

#include "Cli.hpp"
#include "CliSupport.hpp"
#include "JsonDocument.hpp"
#include "OutputPaths.hpp"
#include "MpiSession.hpp"
#include "ProgressLine.hpp"

#include "npusim/harness/ForkPool.hpp"
#include "npusim/harness/Sweep.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace npusim::tools {

namespace {

struct SweepArgs {
    std::string design;
    std::vector<std::string> devices{"npu1_1col"};
    std::vector<harness::SweepAxis> axes;
    harness::SweepOptions opts;
    bool jobs_given = false;
    bool serial = false; ///< --serial: no worker processes (opts.fork_workers off)
    bool json = false;
    bool progress = false;
    std::string csv_file;
};

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::size_t at = 0;
    for (;;) {
        const auto next = s.find(sep, at);
        parts.push_back(s.substr(at, next == std::string::npos ? std::string::npos : next - at));
        if (next == std::string::npos) return parts;
        at = next + 1;
    }
}

// "K=a,b,c": one axis. Each value as --param takes it (an integer, or a name for a named parameter).
harness::SweepAxis parse_axis(const std::string& kv) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size())
        throw UsageError(fmt::format("--param expects K=V or K=V1,V2,..., got '{}'", kv));
    harness::SweepAxis axis{kv.substr(0, eq), {}};
    for (const auto& v : split(kv.substr(eq + 1), ',')) {
        harness::Params one;
        parse_param(axis.first + "=" + v, one);
        axis.second.push_back(one.at(axis.first));
    }
    return axis;
}

struct Table {
    const harness::DesignSpec& spec;
    std::vector<std::string> swept; ///< the swept parameters, in the order given
    const std::vector<harness::SweepPoint>& points;
    const std::vector<harness::SweepResult>& results;
    int ranks = 1;
    unsigned jobs = 1; ///< worker processes per rank (1: serial)
    double seconds = 0;
};

double array_us(const harness::SweepPoint& p, std::uint64_t cycles) {
    return static_cast<double>(cycles) / model::TimingParams::for_arch(model::device_by_name(p.device).arch).clock_mhz;
}

bool has_cycles(const harness::RunOutcome& o) {
    return o.status == harness::RunOutcome::Status::Ok || o.status == harness::RunOutcome::Status::Mismatch;
}

std::string param_text(const harness::DesignSpec& spec, const std::string& k, std::int64_t v) {
    for (const auto& p : spec.params)
        if (p.name == k) return p.value_str(v);
    return std::to_string(v);
}

void print_text(const Table& t, std::ostream& out) {
    std::map<std::string, std::size_t> by_status;
    for (const auto& r : t.results) ++by_status[harness::to_string(r.outcome.status)];
    out << fmt::format("npusim sweep: {}, {} point{} in {:.1f} s ({} rank{} x {} worker process{})\n", t.spec.name,
                       t.points.size(), t.points.size() == 1 ? "" : "s", t.seconds, t.ranks, t.ranks == 1 ? "" : "s",
                       t.jobs, t.jobs == 1 ? "" : "es");
    std::vector<std::string> head{"device"};
    for (const auto& k : t.swept) head.push_back(k);
    for (const char* c : {"status", "cycles", "array us", "wall s", "note"}) head.push_back(c);
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < t.points.size(); ++i) {
        const auto& p = t.points[i];
        const auto& o = t.results[i].outcome;
        std::vector<std::string> row{p.device};
        for (const auto& k : t.swept) row.push_back(param_text(t.spec, k, p.params.at(k)));
        row.push_back(harness::to_string(o.status));
        row.push_back(has_cycles(o) ? grouped(o.cycles) : "-");
        row.push_back(has_cycles(o) ? fmt::format("{:.2f}", array_us(p, o.cycles)) : "-");
        row.push_back(fmt::format("{:.2f}", t.results[i].seconds));
        row.push_back(o.message);
        rows.push_back(std::move(row));
    }
    std::vector<std::size_t> w(head.size());
    for (std::size_t c = 0; c < head.size(); ++c) {
        w[c] = head[c].size();
        for (const auto& row : rows) w[c] = std::max(w[c], row[c].size());
    }
    auto line = [&](const std::vector<std::string>& cells) {
        std::string s = " ";
        for (std::size_t c = 0; c < cells.size(); ++c) {
            // numbers right-aligned: the swept parameters, cycles, array us, wall s
            const bool right = (c >= 1 && c <= t.swept.size()) || (c > t.swept.size() + 1 && c + 1 < cells.size());
            if (c + 1 == cells.size())
                s += " " + cells[c];
            else
                s += right ? fmt::format(" {:>{}}", cells[c], w[c]) : fmt::format(" {:<{}}", cells[c], w[c]);
        }
        while (!s.empty() && s.back() == ' ') s.pop_back();
        out << s << "\n";
    };
    line(head);
    for (const auto& row : rows) line(row);
    std::string counts;
    for (const auto& [status, n] : by_status) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, status);
    out << "  " << counts << "\n";
}

nlohmann::json to_json(const Table& t) {
    nlohmann::json j;
    j["design"] = t.spec.name;
    j["swept"] = t.swept;
    j["ranks"] = t.ranks;
    j["jobs"] = t.jobs;
    j["seconds"] = t.seconds;
    j["points"] = nlohmann::json::array();
    for (std::size_t i = 0; i < t.points.size(); ++i) {
        const auto& p = t.points[i];
        const auto& o = t.results[i].outcome;
        nlohmann::json params = nlohmann::json::object();
        for (const auto& [k, v] : p.params) {
            const auto text = param_text(t.spec, k, v);
            if (text == std::to_string(v))
                params[k] = v;
            else
                params[k] = text;
        }
        nlohmann::json pj{{"device", p.device},
                          {"params", params},
                          {"status", harness::to_string(o.status)},
                          {"seconds", t.results[i].seconds},
                          {"message", o.message}};
        if (has_cycles(o)) {
            pj["cycles"] = o.cycles;
            pj["array_time_us"] = array_us(p, o.cycles);
        }
        j["points"].push_back(pj);
    }
    return j;
}

void write_csv(const Table& t, const std::string& path) {
    std::ofstream f(path, std::ios::trunc);
    if (!f) throw FileError(fmt::format("cannot write --csv '{}': {}", path, std::strerror(errno)));
    f << "design,device";
    for (const auto& k : t.swept) f << "," << csv_field(k);
    f << ",status,cycles,array_time_us,seconds,message\n";
    for (std::size_t i = 0; i < t.points.size(); ++i) {
        const auto& p = t.points[i];
        const auto& o = t.results[i].outcome;
        f << csv_field(t.spec.name) << "," << csv_field(p.device);
        for (const auto& k : t.swept) f << "," << csv_field(param_text(t.spec, k, p.params.at(k)));
        f << fmt::format(",{},{},{},{:.6f},{}\n", harness::to_string(o.status),
                         has_cycles(o) ? std::to_string(o.cycles) : "",
                         has_cycles(o) ? fmt::format("{:.3f}", array_us(p, o.cycles)) : "", t.results[i].seconds,
                         csv_field(o.message));
    }
    f.close(); // written out now: an error (a full disk) shows here, not in the destructor
    if (!f) throw FileError(fmt::format("cannot write --csv '{}': {}", path, std::strerror(errno)));
}

// One rank's results as text: per point "index length\n" + encode(result).
std::string encode_share(const std::vector<std::size_t>& indices, const std::vector<harness::SweepResult>& results) {
    std::string s;
    for (std::size_t k = 0; k < indices.size(); ++k) {
        const std::string e = harness::encode(results[k]);
        s += fmt::format("{} {}\n{}", indices[k], e.size(), e);
    }
    return s;
}

void decode_share(const std::string& s, std::vector<std::optional<harness::SweepResult>>& into, int rank) {
    std::size_t at = 0;
    while (at < s.size()) {
        const auto nl = s.find('\n', at);
        std::istringstream head(s.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
        std::size_t index = 0, len = 0;
        if (nl == std::string::npos || !(head >> index >> len) || index >= into.size() || nl + 1 + len > s.size())
            throw std::runtime_error(fmt::format("sweep: rank {} sent a malformed result", rank));
        const auto r = harness::decode_sweep_result(s.substr(nl + 1, len));
        if (!r) throw std::runtime_error(fmt::format("sweep: rank {} sent a malformed result", rank));
        into[index] = *r;
        at = nl + 1 + len;
    }
}

// "!CODE\nSTATUS\nKIND\nMESSAGE": the error a rank sent instead of its share, as rank 0 reports it.
ClassifiedError rank_error(const std::string& share, int rank) {
    std::istringstream in(share.substr(1));
    ErrorClass c;
    std::string code, message;
    std::getline(in, code);
    std::getline(in, c.status);
    std::getline(in, c.kind);
    std::getline(in, message, '\0');
    c.code = std::atoi(code.c_str());
    return ClassifiedError(c, fmt::format("sweep: rank {}: {}", rank, message));
}

int run_sweep(SweepArgs& r, std::ostream& out, std::ostream& err) {
    const auto& spec = harness::design_by_name(r.design);
    const auto points = harness::sweep_points(spec, r.devices, r.axes);
    if (!r.csv_file.empty()) check_output_file("--csv", r.csv_file); // at once, not after the sweep
    std::vector<std::string> swept;
    for (const auto& a : r.axes) swept.push_back(a.first);

    std::unique_ptr<MpiSession> mpi;
    if (launched_by_mpi()) mpi = std::make_unique<MpiSession>();
    const int rank = mpi ? mpi->rank() : 0, ranks = mpi ? mpi->size() : 1;
    // This rank's points: every ranks-th one from its own rank on.
    std::vector<std::size_t> mine;
    std::vector<harness::SweepPoint> my_points;
    for (std::size_t i = static_cast<std::size_t>(rank); i < points.size(); i += static_cast<std::size_t>(ranks)) {
        mine.push_back(i);
        my_points.push_back(points[i]);
    }
    // The machine's cores are shared among the ranks that run on it.
    if (mpi && !r.jobs_given)
        r.opts.jobs = std::max(1u, std::max(1u, std::thread::hardware_concurrency()) /
                                       static_cast<unsigned>(std::max(1, mpi->local_size())));
    const unsigned jobs = r.opts.fork_workers ? harness::ForkPool(r.opts.jobs).jobs() : 1;
    const bool terminal = &err == &std::cerr && ::isatty(STDERR_FILENO);
    const bool show = rank == 0 && (r.progress || terminal);
    const auto started = std::chrono::steady_clock::now();
    ProgressLine line(err, terminal);
    if (show)
        r.opts.progress = [&](std::size_t done, std::size_t total) {
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            line.show(fmt::format("  sweep{}: {}/{} points, {:.1f} s", ranks > 1 ? " (rank 0)" : "", done, total, s), s,
                      done == total);
        };
    // A rank whose share fails sends its error in place of its results: rank 0 reports it, once.
    std::vector<harness::SweepResult> my_results;
    std::string failure;
    try {
        my_results = harness::run_sweep(spec, my_points, r.opts);
    } catch (const std::exception& e) {
        if (!mpi) throw;
        const auto c = classify_error(e);
        failure = fmt::format("!{}\n{}\n{}\n{}", c.code, c.status, c.kind, e.what());
    }
    line.finish();

    std::vector<harness::SweepResult> results(points.size());
    if (mpi) {
        const auto shares = mpi->gather(failure.empty() ? encode_share(mine, my_results) : failure);
        mpi->collectives_done();
        if (rank != 0) return 0;
        for (std::size_t k = 0; k < shares.size(); ++k)
            if (shares[k].starts_with("!")) throw rank_error(shares[k], static_cast<int>(k));
        std::vector<std::optional<harness::SweepResult>> got(points.size());
        for (std::size_t k = 0; k < shares.size(); ++k) decode_share(shares[k], got, static_cast<int>(k));
        for (std::size_t i = 0; i < points.size(); ++i) {
            if (!got[i]) throw std::runtime_error(fmt::format("sweep: no result for point {}", i));
            results[i] = *got[i];
        }
    } else {
        results = my_results;
    }
    const Table t{spec,
                  swept,
                  points,
                  results,
                  ranks,
                  jobs,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()};
    if (r.json)
        out << json_document("sweep", to_json(t)).dump(2) << "\n";
    else
        print_text(t, out);
    if (!r.csv_file.empty()) {
        write_csv(t, r.csv_file);
        if (!r.json) out << "  table written to " << r.csv_file << " (one row per point)\n";
    }
    // A sweep where nothing ran and matched has no result to offer: not exit 0 (--help says which code).
    std::vector<harness::RunOutcome> outcomes;
    for (const auto& res : results) outcomes.push_back(res.outcome);
    const int code = batch_exit_code(outcomes);
    if (code != 0) err << "npusim sweep: no point ran and matched (" << status_counts(outcomes) << ")\n";
    return code;
}

} // namespace

Command add_sweep_command(CLI::App& app, std::ostream& out, std::ostream& err) {
    auto* sub = add_command(app, "sweep", "  npusim sweep DESIGN --param K=V1,V2,... [options]\n"
                                            "                                 the design at every point of a parameter "
                                            "grid, in worker processes\n                                 (one per "
                                            "core); under `mpirun -np N`, split over the ranks",
                            batch_exit_note("point"));
    auto r = std::make_shared<SweepArgs>();
    auto o = std::make_shared<CliOptions>(*sub, "sweep", "sweep options");
    o->repeated("--param", "K=V1,V2,...",
                "the values of a swept parameter (repeatable: the grid is every combination, the last --param varying "
                "fastest); a single value fixes the parameter",
                [r](const std::string& v) { r->axes.push_back(parse_axis(v)); });
    o->value("--device", "D1,D2,...", "every point on each of these devices (default npu1_1col)",
             [r](const std::string& v) {
                 r->devices = split(v, ',');
                 if (std::any_of(r->devices.begin(), r->devices.end(), [](const std::string& d) { return d.empty(); }))
                     throw UsageError("--device expects D or D1,D2,...");
             });
    o->value("--kernels", "ref|aie", "which kernel build the workers call (default ref), as for run",
             [r](const std::string& k) {
                 const auto ks = harness::parse_kernel_set(k);
                 if (!ks) throw UsageError(fmt::format("--kernels expects ref or aie, got '{}'", k));
                 r->opts.kernels = *ks;
             });
    o->value("--jobs", "N",
             "worker processes at a time, one point each (default: the number of cores; under mpirun: the cores "
             "shared among the ranks on the machine)",
             [r](const std::string& v) {
                 r->opts.jobs = static_cast<unsigned>(parse_count(v, "--jobs", 1, 256));
                 r->jobs_given = true;
             });
    o->flag("--serial", "run the points one after another in this process (no worker processes)", r->serial);
    add_batch_options(
        *o, {r->design, r->json, r->progress, r->csv_file, r->opts.seed, r->opts.max_cycles, r->opts.timeout_seconds},
        "point", "point");
    return {sub, [r, o, &out, &err] {
                o->apply();
                if (r->design.empty()) throw UsageError("sweep: which design? (see `npusim list`)");
                if (r->serial) r->opts.fork_workers = false;
                return run_sweep(*r, out, err);
            }};
}

} // namespace npusim::tools

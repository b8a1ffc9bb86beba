#include "Cli.hpp"

#include "npusim/examples/DesignRunner.hpp"
#include "npusim/model/Error.hpp"
#include "npusim/model/TimingParams.hpp"

#include <charconv>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#if __has_include("npusim/traces/PerfettoTraceSink.hpp")
#include "npusim/traces/PerfettoTraceSink.hpp"
#include "npusim/traces/TeeTraceSink.hpp"
#include "npusim/traces/VcdTraceSink.hpp"
#define NPUSIM_HAVE_TRACES 1
#endif

namespace npusim::tools {

namespace {

const char* kUsage = R"(usage:
  npusim                         run the default demo design and print its summary
  npusim list                    designs available, one line each
  npusim devices                 devices and their resources
  npusim run DESIGN [options]    simulate a design and check its outputs
  npusim timing [--device D]     the timing model's parameters and their sources

run options:
  --device NAME        npu1, npu1_1col..npu1_3col, npu2, npu2_1col..npu2_7col (default npu1_1col)
  --param K=V          override a design parameter (repeatable); see `npusim list`
  --seed N             input data seed (default 1)
  --max-cycles N       stop with exit code 4 after N simulated cycles
  --timing FILE        JSON object overriding timing parameters
  --trace FILE.json    Perfetto / Chrome trace of cores, DMA channels and locks
  --vcd FILE.vcd       VCD waveform for GTKWave
  --json               print one machine-readable result object
  --netlist            print the resolved netlist before simulating
  --progress           report progress on stderr during long runs

exit codes: 0 outputs match, 1 output mismatch, 2 design or usage error, 3 deadlock, 4 limit reached
)";

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::uint64_t parse_u64(const std::string& s, const std::string& opt) {
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) throw UsageError(fmt::format("{} expects a non-negative integer, got '{}'", opt, s));
    return v;
}

std::int64_t parse_i64(const std::string& s, const std::string& what) {
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) throw UsageError(fmt::format("{} expects an integer, got '{}'", what, s));
    return v;
}

std::string grouped(std::uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

struct RunArgs {
    std::string design;
    std::string device = "npu1_1col";
    examples::Params params;
    std::uint64_t seed = 1;
    std::uint64_t max_cycles = 0;
    std::string timing_file, trace_file, vcd_file;
    bool json = false, netlist = false, progress = false;
};

RunArgs parse_run(const std::vector<std::string>& a, std::size_t i) {
    RunArgs r;
    auto value = [&](const std::string& opt) -> std::string {
        if (i + 1 >= a.size()) throw UsageError(fmt::format("{} needs a value", opt));
        return a[++i];
    };
    for (; i < a.size(); ++i) {
        const std::string& s = a[i];
        if (s == "--device") r.device = value(s);
        else if (s == "--param") {
            const std::string kv = value(s);
            const auto eq = kv.find('=');
            if (eq == std::string::npos || eq == 0) throw UsageError(fmt::format("--param expects K=V, got '{}'", kv));
            r.params[kv.substr(0, eq)] = parse_i64(kv.substr(eq + 1), "--param " + kv.substr(0, eq));
        } else if (s == "--seed") r.seed = parse_u64(value(s), s);
        else if (s == "--max-cycles") r.max_cycles = parse_u64(value(s), s);
        else if (s == "--timing") r.timing_file = value(s);
        else if (s == "--trace") r.trace_file = value(s);
        else if (s == "--vcd") r.vcd_file = value(s);
        else if (s == "--html") throw UsageError("--html is not available in this version");
        else if (s == "--json") r.json = true;
        else if (s == "--netlist") r.netlist = true;
        else if (s == "--progress") r.progress = true;
        else if (!s.empty() && s[0] == '-') throw UsageError(fmt::format("unknown option '{}'", s));
        else if (r.design.empty()) r.design = s;
        else throw UsageError(fmt::format("unexpected argument '{}'", s));
    }
    if (r.design.empty()) throw UsageError("run: which design? (see `npusim list`)");
    return r;
}

void print_summary(std::ostream& out, const examples::RunReport& rep, double clock_mhz) {
    const auto& dev = model::device_by_name(rep.device);
    const auto& res = rep.result;
    out << fmt::format("npusim: {} on {} ({}, {} column{})\n", rep.design, dev.name, model::arch_name(dev.arch), dev.cols,
                       dev.cols == 1 ? "" : "s");
    std::string params;
    for (const auto& [k, v] : rep.params) params += fmt::format("{}{}={}", params.empty() ? "" : " ", k, v);
    std::string tiles;
    for (auto t : rep.tiles_used) tiles += fmt::format("{}{} {}", tiles.empty() ? "" : ", ", model::to_string(t), model::tile_kind_name(dev.kind_at(t)));
    auto row = [&](const char* k, const std::string& v) { out << fmt::format("  {:<13}{}\n", k, v); };
    row("parameters", params.empty() ? "-" : params);
    row("tiles used", fmt::format("{}: {}", rep.tiles_used.size(), tiles));
    row("cycles", fmt::format("{} ({:.2f} us at {:.0f} MHz)", grouped(res.cycles), res.cycles / clock_mhz, clock_mhz));
    row("data moved", fmt::format("{} B over streams, {} BD transfers, {} shim tasks", grouped(res.bytes_moved),
                                  grouped(res.bd_transfers), grouped(res.shim_tasks)));
    row("wall time", fmt::format("resolve {:.1f} ms, simulate {:.1f} ms", rep.resolve_seconds * 1e3, rep.simulate_seconds * 1e3));
    if (!res.cores.empty()) {
        out << fmt::format("  {:<18} {:>8} {:>14} {:>14} {:>8} {:>10}\n", "worker", "tile", "busy cycles", "stall cycles",
                           "kernels", "iterations");
        for (const auto& c : res.cores)
            out << fmt::format("  {:<18} {:>8} {:>14} {:>14} {:>8} {:>10}\n", c.worker, model::to_string(c.tile),
                               grouped(c.busy_cycles), grouped(c.stall_cycles), grouped(c.kernel_calls), grouped(c.iterations));
    }
    for (const auto& w : res.warnings) out << "  warning: " << w << "\n";
    for (const auto& c : rep.checks) {
        out << fmt::format("  output {:<14} {:>9} elements  {}\n", c.name, grouped(c.elements),
                           c.match ? "match" : fmt::format("MISMATCH ({} differ)", grouped(c.mismatches)));
        if (!c.match) out << "    first differences: " << c.first_mismatches << "\n";
    }
    out << (rep.all_match ? "result: PASS\n" : "result: FAIL (output mismatch)\n");
}

nlohmann::json report_json(const examples::RunReport& rep) {
    nlohmann::json j;
    j["status"] = rep.all_match ? "pass" : "mismatch";
    j["design"] = rep.design;
    j["device"] = rep.device;
    j["params"] = rep.params;
    j["cycles"] = rep.result.cycles;
    j["outputs"] = nlohmann::json::array();
    for (const auto& c : rep.checks)
        j["outputs"].push_back({{"name", c.name}, {"match", c.match}, {"elements", c.elements}, {"mismatches", c.mismatches},
                                {"first_mismatches", c.first_mismatches}});
    nlohmann::json st;
    st["bytes_moved"] = rep.result.bytes_moved;
    st["bd_transfers"] = rep.result.bd_transfers;
    st["shim_tasks"] = rep.result.shim_tasks;
    st["resolve_seconds"] = rep.resolve_seconds;
    st["simulate_seconds"] = rep.simulate_seconds;
    st["tiles_used"] = nlohmann::json::array();
    for (auto t : rep.tiles_used) st["tiles_used"].push_back({t.col, t.row});
    st["cores"] = nlohmann::json::array();
    for (const auto& c : rep.result.cores)
        st["cores"].push_back({{"worker", c.worker}, {"tile", {c.tile.col, c.tile.row}}, {"busy_cycles", c.busy_cycles},
                               {"stall_cycles", c.stall_cycles}, {"kernel_calls", c.kernel_calls}, {"iterations", c.iterations}});
    j["stats"] = st;
    j["warnings"] = rep.result.warnings;
    return j;
}

int cmd_list(std::ostream& out) {
    std::size_t w = 4;
    for (const auto& d : examples::all_designs()) w = std::max(w, d.name.size());
    for (const auto& d : examples::all_designs()) {
        std::string params;
        for (const auto& p : d.params) params += fmt::format("{}{}={}", params.empty() ? "" : " ", p.name, p.default_value);
        out << fmt::format("{:<{}}  {}  [{}]\n", d.name, w, d.description, params);
    }
    return 0;
}

int cmd_devices(std::ostream& out) {
    out << fmt::format("{:<10} {:<9} {:>5} {:>5} {:>8}  {}\n", "device", "class", "arch", "cols", "cores", "per tile (compute / mem / shim)");
    for (const auto& d : model::all_devices())
        out << fmt::format("{:<10} {:<9} {:>5} {:>5} {:>8}  mem {}K/{}K/-, locks {}/{}/{}, BDs {}/{}/{}, DMA in+out {}+{}/{}+{}/{}+{}\n",
                           d.name, d.iron_class, model::arch_name(d.arch), d.cols, d.tiles_of(model::TileKind::Compute).size(),
                           d.compute.memory_bytes / 1024, d.mem.memory_bytes / 1024, d.compute.locks, d.mem.locks, d.shim.locks,
                           d.compute.bds, d.mem.bds, d.shim.bds, d.compute.dma_s2mm_channels, d.compute.dma_mm2s_channels,
                           d.mem.dma_s2mm_channels, d.mem.dma_mm2s_channels, d.shim.dma_s2mm_channels, d.shim.dma_mm2s_channels);
    return 0;
}

int cmd_timing(const std::vector<std::string>& a, std::ostream& out) {
    std::string device = "npu1";
    for (std::size_t i = 1; i < a.size(); ++i) {
        if (a[i] == "--device" && i + 1 < a.size()) device = a[++i];
        else throw UsageError(fmt::format("timing: unexpected argument '{}'", a[i]));
    }
    const auto& dev = model::device_by_name(device);
    const auto p = model::TimingParams::for_arch(dev.arch);
    out << fmt::format("timing model for {} ({})\n", dev.name, model::arch_name(dev.arch));
    for (const auto& i : p.describe()) out << fmt::format("  {:<32} {:>8} {:<8} {}\n", i.name, i.value, i.unit, i.source);
    return 0;
}

int cmd_run(const RunArgs& r, std::ostream& out, std::ostream& err) {
    const auto& spec = examples::design_by_name(r.design);
    const auto& dev = model::device_by_name(r.device);
    sim::SimOptions so;
    so.timing = model::TimingParams::for_arch(dev.arch);
    if (!r.timing_file.empty()) so.timing.apply_json_file(r.timing_file);
    so.max_cycles = r.max_cycles;
    if (r.progress) {
        so.progress_interval_cycles = 10'000'000;
        so.progress = [&err](std::uint64_t c) { err << fmt::format("\r  simulated {} cycles", grouped(c)) << std::flush; };
    }
#ifdef NPUSIM_HAVE_TRACES
    std::unique_ptr<traces::PerfettoTraceSink> perfetto;
    std::unique_ptr<traces::VcdTraceSink> vcd;
    std::vector<sim::TraceSink*> sinks;
    if (!r.trace_file.empty()) sinks.push_back((perfetto = std::make_unique<traces::PerfettoTraceSink>(r.trace_file)).get());
    if (!r.vcd_file.empty()) sinks.push_back((vcd = std::make_unique<traces::VcdTraceSink>(r.vcd_file)).get());
    traces::TeeTraceSink tee(sinks);
    if (!sinks.empty()) so.trace = &tee;
#else
    if (!r.trace_file.empty() || !r.vcd_file.empty()) throw UsageError("this build has no trace support");
#endif
    if (r.netlist) {
        auto inst = spec.build(dev, spec.resolve_params(r.params), r.seed);
        out << inst.program.resolve().dump();
    }
    const auto rep = examples::run_design(spec, dev.name, r.params, r.seed, so);
    if (r.progress) err << "\n";
    if (r.json) out << report_json(rep).dump(2) << "\n";
    else print_summary(out, rep, so.timing.clock_mhz);
    if (!r.trace_file.empty() && !r.json) out << "  trace written to " << r.trace_file << " (open in ui.perfetto.dev)\n";
    if (!r.vcd_file.empty() && !r.json) out << "  waveform written to " << r.vcd_file << " (open with GTKWave)\n";
    return rep.all_match ? 0 : 1;
}

int error_exit(bool json, std::ostream& out, std::ostream& err, const std::string& status, const std::string& kind,
               const std::string& msg, int code) {
    if (json) {
        nlohmann::json j{{"status", status}, {"error", {{"kind", kind}, {"message", msg}}}};
        out << j.dump(2) << "\n";
    } else {
        err << "npusim: " << kind << ": " << msg << (msg.empty() || msg.back() == '\n' ? "" : "\n");
    }
    return code;
}

} // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    bool json = false;
    for (const auto& a : args) json |= a == "--json";
    try {
        if (args.empty()) {
            RunArgs r;
            r.design = examples::default_design();
            out << "npusim demo: simulating the IRON passthrough_kernel design (see `npusim --help`)\n\n";
            return cmd_run(r, out, err);
        }
        const std::string& cmd = args[0];
        if (cmd == "--help" || cmd == "-h" || cmd == "help") {
            out << kUsage;
            return 0;
        }
        if (cmd == "list") return cmd_list(out);
        if (cmd == "devices") return cmd_devices(out);
        if (cmd == "timing") return cmd_timing(args, out);
        if (cmd == "run") return cmd_run(parse_run(args, 1), out, err);
        throw UsageError(fmt::format("unknown command '{}'", cmd));
    } catch (const UsageError& e) {
        if (!json) err << kUsage << "\n";
        return error_exit(json, out, err, "usage_error", "usage error", e.what(), 2);
    } catch (const DesignError& e) {
        return error_exit(json, out, err, "design_error", "design error", e.what(), 2);
    } catch (const SimulationError& e) {
        const auto code = static_cast<int>(exit_code_for(e.kind()));
        const char* kind = e.kind() == SimulationError::Kind::Deadlock ? "deadlock"
                           : e.kind() == SimulationError::Kind::Limit  ? "limit reached"
                           : e.kind() == SimulationError::Kind::Kernel ? "kernel error"
                           : e.kind() == SimulationError::Kind::Mismatch ? "size mismatch"
                                                                         : "protocol error";
        return error_exit(json, out, err, code == 3 ? "deadlock" : code == 4 ? "limit" : "error", kind, e.what(), code);
    } catch (const std::exception& e) {
        return error_exit(json, out, err, "error", "error", e.what(), 2);
    }
}

} // namespace npusim::tools

#include "Cli.hpp"
#include "Breakdown.hpp"
#include "CliOptions.hpp"
#include "CliSupport.hpp"
#include "CrashReporter.hpp"
#include "DepthCommand.hpp"
#include "ExportCommand.hpp"
#include "HelpFormatter.hpp"
#include "HtmlReportOutcome.hpp"
#include "HwCommand.hpp"
#include "JsonDocument.hpp"
#include "ProgressLine.hpp"
#include "SweepCommand.hpp"
#include "Watchdog.hpp"

#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/NpyFile.hpp"
#include "npusim/hw/HardwareError.hpp"
#include "npusim/model/Error.hpp"
#include "npusim/model/NativeActivity.hpp"
#include "npusim/model/TimingParams.hpp"
#include "npusim/sim/Diagnosis.hpp"
#include "npusim/traces/HtmlReportSink.hpp"
#include "npusim/traces/MlirAieTraceSink.hpp"
#include "npusim/traces/PerfettoTraceSink.hpp"
#include "npusim/traces/TeeTraceSink.hpp"
#include "npusim/traces/VcdTraceSink.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <ostream>
#include <unistd.h>
#include <utility>

namespace npusim::tools {

namespace {

// The files a failed run wrote up to its failure (trace, waveform, report, wait-for graph), for
// the error document's "files" (its text form lists them on stderr).
std::map<std::string, std::string>& failure_files() {
    static std::map<std::string, std::string> files;
    return files;
}

// The lines of the command list that are not a subcommand's (each subcommand's own lines are its
// description; tools/HelpFormatter.hpp puts them together).
const char* const kTopLines =
    "  npusim                         run the default demo design and print its summary\n"
    "  npusim --version               npusim's version (also: npusim version)\n"
    "  npusim help [COMMAND]          this usage, or one command's (also: npusim COMMAND --help)\n";

const char* const kNpyNote = ".npy files: NumPy format 1.0/2.0/3.0, little-endian, C order; int8 uint8 int16 int32 "
                             "uint32\nfloat32 and bfloat16 (descr '<V2' or 'bfloat16').\n";

double parse_tolerance(const std::string& s, const std::string& opt) {
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || !(v >= 0) || v == std::numeric_limits<double>::infinity())
        throw UsageError(fmt::format("{} expects a non-negative number, got '{}'", opt, s));
    return v;
}

// NAME=FILE for --input / --expect; a name may be given once.
// A run stops at these unless told otherwise (a normal design is far from both: the largest
// registered one, matmul_whole_array on npu2, simulates about 10^6 cycles in under a second).
constexpr std::uint64_t kDefaultMaxCycles = 10'000'000'000;
constexpr double kDefaultTimeoutSeconds = 600;

struct RunArgs {
    std::string design;
    std::string device = "npu1_1col";
    harness::Params params;
    std::uint64_t seed = 1;
    std::uint64_t max_cycles = kDefaultMaxCycles;
    double timeout_seconds = kDefaultTimeoutSeconds;
    std::uint64_t core_stack_bytes = 0; ///< 0: SimOptions' default
    std::uint64_t kernel_threads = 0; ///< SimOptions::kernel_threads
    std::string timing_file, trace_file, vcd_file, dot_file, html_file;
    bool mlir_aie_trace = false; ///< --trace-format mlir-aie
    bool json = false, netlist = false, progress = false, queue_wait = false, werror = false, check_memory = true;
    bool no_memory_check = false; ///< --no-memory-check (check_memory is its negation)
    harness::KernelSet kernels = harness::KernelSet::reference;
    std::map<std::string, std::string> inputs, expected;
    std::string save_dir;
    std::optional<double> rtol, atol;
    std::optional<iron::AllocScheme> alloc_scheme;
    std::uint32_t iters = 1, warmup = 0;
    harness::ToleranceMode tolerance = harness::ToleranceMode::allclose;
    std::vector<std::string> what_if; ///< --what-if: ablation names, in the order given
};

/// A --what-if ablation: the same run with one part of the cost model switched off.
struct Ablation {
    const char* name;
    const char* what;
    void (*apply)(sim::SimOptions&);
};
const Ablation kAblations[] = {
    {"free-kernels", "kernels cost no cycles (their call overhead included); they still compute",
     [](sim::SimOptions& o) { o.free_kernels = true; }},
    {"unlimited-ddr", "host memory bandwidth unlimited (ddr_bytes_per_cycle 1e12); shim channels keep their rate",
     [](sim::SimOptions& o) { o.timing.ddr_bytes_per_cycle = 1e12; }},
    {"ideal-locks", "lock acquire and release take no cycles (lock_acquire_cycles = lock_release_cycles = 0)",
     [](sim::SimOptions& o) { o.timing.lock_acquire_cycles = o.timing.lock_release_cycles = 0; }},
    {"zero-host-latency", "no host invocation latency (host_invocation_latency_us = 0): npu time only",
     [](sim::SimOptions& o) { o.timing.host_invocation_latency_us = 0; }},
};

std::string ablation_names() {
    std::string s;
    for (const auto& a : kAblations) s += (s.empty() ? "" : ", ") + std::string(a.name);
    return s;
}

// --what-if LIST: names separated by commas, or `all`; repeatable, each name once.
void parse_what_if(const std::string& v, std::vector<std::string>& into) {
    std::size_t pos = 0;
    for (;;) {
        const auto comma = v.find(',', pos);
        const std::string name = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (name == "all") {
            for (const auto& a : kAblations)
                if (std::find(into.begin(), into.end(), a.name) == into.end()) into.push_back(a.name);
        } else {
            const bool known = std::any_of(std::begin(kAblations), std::end(kAblations),
                                           [&](const Ablation& a) { return name == a.name; });
            if (!known)
                throw UsageError(
                    fmt::format("--what-if: unknown ablation '{}' (one of: {}, all)", name, ablation_names()));
            if (std::find(into.begin(), into.end(), name) == into.end()) into.push_back(name);
        }
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
}

// --device a,b,c: the devices in the order given, each once.
std::vector<std::string> device_list(const std::string& v) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    for (;;) {
        const auto comma = v.find(',', pos);
        const std::string name = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (name.empty()) throw UsageError(fmt::format("--device '{}': an empty device name in the list", v));
        const std::string canonical = model::device_by_name(name).name;
        if (std::find(out.begin(), out.end(), canonical) == out.end()) out.push_back(canonical);
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return out;
}

// A parameter's value as the user writes it: the name of a named parameter (dtype_in=i8), else the number.
std::string param_value_str(const std::string& design, const std::string& name, std::int64_t v) {
    for (const auto& p : harness::design_by_name(design).params)
        if (p.name == name) return p.value_str(v);
    return std::to_string(v);
}

void print_summary(std::ostream& out, const harness::RunReport& rep, const model::TimingParams& timing) {
    const double clock_mhz = timing.clock_mhz;
    const auto& dev = model::device_by_name(rep.device);
    const auto& res = rep.result;
    out << fmt::format("npusim: {} on {} ({}, {} column{})\n", rep.design, dev.name, model::arch_name(dev.arch),
                       dev.cols, dev.cols == 1 ? "" : "s");
    std::string params;
    for (const auto& [k, v] : rep.params)
        params += fmt::format("{}{}={}", params.empty() ? "" : " ", k, param_value_str(rep.design, k, v));
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
    row("cycles",
        fmt::format("{} array cycles ({:.2f} us at {:.0f} MHz); a host timing the run would see ~{:.0f} us "
                    "(+{:.0f} us invocation latency)",
                    grouped(res.cycles), res.cycles / clock_mhz, clock_mhz,
                    res.cycles / clock_mhz + timing.host_invocation_latency_us, timing.host_invocation_latency_us));
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

nlohmann::json report_json(const harness::RunReport& rep, const model::TimingParams& timing) {
    // Array cycles and the time they take at the array clock, apart from the time a host would
    // measure around one run (array time + the host's invocation latency; docs/timing-model.md).
    const auto array_us = [&](std::uint64_t cycles) { return static_cast<double>(cycles) / timing.clock_mhz; };
    const auto npu_us = [&](std::uint64_t cycles) { return array_us(cycles) + timing.host_invocation_latency_us; };
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
    j["npu_time_us"] = npu_us(rep.result.cycles);
    j["host_invocation_latency_us"] = timing.host_invocation_latency_us;
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
        o["first"] = nlohmann::json::array();
        for (const auto& v : c.first) {
            // Values as numbers (integers exactly; a NaN or infinity, which JSON cannot hold, as null),
            // and as text in the summary's notation.
            nlohmann::json e{{"index", v.index}, {"got_text", v.got}, {"want_text", v.want}};
            if (c.is_float) {
                e["got"] = std::isfinite(v.got_value) ? nlohmann::json(v.got_value) : nlohmann::json();
                e["want"] = std::isfinite(v.want_value) ? nlohmann::json(v.want_value) : nlohmann::json();
            } else {
                e["got"] = static_cast<std::int64_t>(v.got_value);
                e["want"] = static_cast<std::int64_t>(v.want_value);
            }
            if (c.is_float) {
                e["abs_err"] = v.abs_err;
                e["rel_err"] = v.rel_err;
            }
            o["first"].push_back(e);
        }
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
                                    {"npu_time_us", npu_us(i.cycles)},
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
    j["warnings"] = rep.result.warnings;
    return j;
}

int cmd_list(std::ostream& out, bool json) {
    if (json) {
        auto j = json_document("list", {{"designs", nlohmann::json::array()}});
        for (const auto& d : harness::all_designs()) {
            nlohmann::json params = nlohmann::json::array();
            for (const auto& p : d.params) {
                nlohmann::json pj{{"name", p.name}, {"help", p.help}};
                if (p.named()) {
                    pj["default"] = p.value_str(p.default_value);
                    pj["values"] = p.names;
                } else {
                    pj["default"] = p.default_value;
                }
                params.push_back(pj);
            }
            nlohmann::json kernels = nlohmann::json::array();
            for (auto k : d.kernel_sets) kernels.push_back(std::string(harness::kernel_set_name(k)));
            j["designs"].push_back({{"name", d.name},
                                    {"description", d.description},
                                    {"params", params},
                                    {"devices", d.devices},
                                    {"kernel_sets", kernels},
                                    {"kernels_note", d.kernels_note}});
        }
        out << j.dump(2) << "\n";
        return 0;
    }
    std::size_t w = 4;
    for (const auto& d : harness::all_designs()) w = std::max(w, d.name.size());
    for (const auto& d : harness::all_designs()) {
        std::string params;
        for (const auto& p : d.params)
            params += fmt::format("{}{}", params.empty() ? "" : " ", p.describe()); // named: default{allowed}
        std::string kernels;
        for (auto k : d.kernel_sets)
            kernels += fmt::format("{}{}", kernels.empty() ? "" : ",", harness::kernel_set_name(k));
        const std::string ks = d.kernels_note_only()
                                   ? d.kernels_note
                                   : "kernels: " + kernels + (d.kernels_note.empty() ? "" : "; " + d.kernels_note);
        out << fmt::format("{:<{}}  {}  [{}] [{}]\n", d.name, w, d.description, params, ks);
    }
    return 0;
}

int cmd_args(const RunArgs& r, std::ostream& out) {
    const auto& spec = harness::design_by_name(r.design);
    const auto& dev = model::device_by_name(r.device);
    const auto inst = spec.build(dev, spec.resolve_params(r.params), harness::BuildOptions(r.seed, r.kernels));
    if (r.json) {
        auto j =
            json_document("args", {{"design", spec.name}, {"device", dev.name}, {"args", nlohmann::json::array()}});
        for (std::size_t i = 0; i < inst.args.size(); ++i) {
            const auto& a = inst.args[i];
            nlohmann::json aj{{"index", i},
                              {"name", a.name},
                              {"role", std::string(harness::role_name(a.role))},
                              {"dtype", std::string(dtype_name(a.dtype))},
                              {"shape", a.shape},
                              {"npy_descr", harness::NpyFile::descr(a.dtype)},
                              {"checked", a.is_checked()}};
            if (a.is_checked()) {
                aj["comparison"] = a.is_float() ? "tolerance" : "exact";
                if (a.is_float()) {
                    aj["rtol"] = a.rtol;
                    aj["atol"] = a.atol;
                }
            }
            j["args"].push_back(aj);
        }
        out << j.dump(2) << "\n";
        return 0;
    }
    std::size_t w = 4, tw = 4;
    for (const auto& a : inst.args) {
        w = std::max(w, a.name.size());
        tw = std::max(tw, a.type_str().size());
    }
    out << fmt::format("{:<3} {:<{}}  {:<6}  {:<{}}  {:<8}  {}\n", "arg", "name", w, "role", "type", tw, "npy",
                       "comparison");
    for (std::size_t i = 0; i < inst.args.size(); ++i) {
        const auto& a = inst.args[i];
        std::string cmp = !a.is_checked() ? "-"
                          : a.is_float()  ? fmt::format("rtol {:g}, atol {:g}", a.rtol, a.atol)
                                          : std::string("exact");
        out << fmt::format("{:<3} {:<{}}  {:<6}  {:<{}}  {:<8}  {}\n", i, a.name, w, harness::role_name(a.role),
                           a.type_str(), tw, harness::NpyFile::descr(a.dtype), cmp);
    }
    return 0;
}

int cmd_devices(std::ostream& out, bool json) {
    if (json) {
        auto j = json_document("devices", {{"devices", nlohmann::json::array()}});
        auto tile = [](const model::TileResources& t) {
            return nlohmann::json{{"memory_bytes", t.memory_bytes},
                                  {"locks", t.locks},
                                  {"bds", t.bds},
                                  {"dma_s2mm_channels", t.dma_s2mm_channels},
                                  {"dma_mm2s_channels", t.dma_mm2s_channels}};
        };
        for (const auto& d : model::all_devices())
            j["devices"].push_back({{"name", d.name},
                                    {"class", d.iron_class},
                                    {"arch", std::string(model::arch_name(d.arch))},
                                    {"columns", d.cols},
                                    {"cores", d.tiles_of(model::TileKind::Compute).size()},
                                    {"compute_tile", tile(d.compute)},
                                    {"mem_tile", tile(d.mem)},
                                    {"shim_tile", tile(d.shim)}});
        out << j.dump(2) << "\n";
        return 0;
    }
    out << fmt::format("{:<10} {:<9} {:>5} {:>5} {:>8}  {}\n", "device", "class", "arch", "cols", "cores",
                       "per tile (compute / mem / shim)");
    for (const auto& d : model::all_devices())
        out << fmt::format(
            "{:<10} {:<9} {:>5} {:>5} {:>8}  mem {}K/{}K/-, locks {}/{}/{}, BDs {}/{}/{}, DMA in+out "
            "{}+{}/{}+{}/{}+{}\n",
            d.name, d.iron_class, model::arch_name(d.arch), d.cols, d.tiles_of(model::TileKind::Compute).size(),
            d.compute.memory_bytes / 1024, d.mem.memory_bytes / 1024, d.compute.locks, d.mem.locks, d.shim.locks,
            d.compute.bds, d.mem.bds, d.shim.bds, d.compute.dma_s2mm_channels, d.compute.dma_mm2s_channels,
            d.mem.dma_s2mm_channels, d.mem.dma_mm2s_channels, d.shim.dma_s2mm_channels, d.shim.dma_mm2s_channels);
    return 0;
}

int cmd_timing(const std::string& device, bool json, std::ostream& out) {
    const auto& dev = model::device_by_name(device);
    const auto p = model::TimingParams::for_arch(dev.arch);
    if (json) {
        auto j = json_document("timing", {{"device", dev.name},
                                          {"arch", std::string(model::arch_name(dev.arch))},
                                          {"parameters", nlohmann::json::array()}});
        for (const auto& i : p.describe())
            j["parameters"].push_back({{"name", i.name}, {"value", i.value}, {"unit", i.unit}, {"source", i.source}});
        out << j.dump(2) << "\n";
        return 0;
    }
    out << fmt::format("timing model for {} ({})\n", dev.name, model::arch_name(dev.arch));
    for (const auto& i : p.describe())
        out << fmt::format("  {:<32} {:>8} {:<8} {}\n", i.name, i.value, i.unit, i.source);
    return 0;
}

// The harness options of a run on `dev` (the --device list runs this once per device).
harness::RunOptions run_options(const RunArgs& r, const model::DeviceSpec& dev) {
    harness::RunOptions ro;
    ro.seed = r.seed;
    ro.kernels = r.kernels;
    ro.input_files = r.inputs;
    ro.expected_files = r.expected;
    ro.save_dir = r.save_dir;
    ro.rtol = r.rtol;
    ro.atol = r.atol;
    ro.alloc_scheme = r.alloc_scheme;
    ro.iters = r.iters;
    ro.tolerance = r.tolerance;
    ro.werror = r.werror;
    ro.warmup = r.warmup;
    sim::SimOptions& so = ro.sim;
    so.timing = model::TimingParams::for_arch(dev.arch);
    if (!r.timing_file.empty()) so.timing.apply_json_file(r.timing_file);
    so.max_cycles = r.max_cycles;
    so.queue_wait = r.queue_wait;
    so.check_memory = r.check_memory;
    return ro;
}

int cmd_run_devices(const RunArgs& r, const std::vector<std::string>& devices, std::ostream& out);
void run_what_ifs(const RunArgs& r, const harness::DesignSpec& spec, const harness::RunOptions& base,
                  const harness::RunReport& baseline, std::ostream& out, nlohmann::json* json);

int cmd_run(const RunArgs& r, std::ostream& out, std::ostream& err) {
    const auto& spec = harness::design_by_name(r.design);
    if (r.device.find(',') != std::string::npos) return cmd_run_devices(r, device_list(r.device), out);
    const auto& dev = model::device_by_name(r.device);
    harness::RunOptions ro = run_options(r, dev);
    sim::SimOptions& so = ro.sim;
    std::optional<ProgressLine> progress;
    if (r.progress) {
        // Reports every million simulated cycles, printed as ProgressLine throttles them.
        progress.emplace(err, &err == &std::cerr && ::isatty(STDERR_FILENO));
        so.progress_interval_cycles = 1'000'000;
        so.progress = [&progress](const sim::SimProgress& p) { (*progress)(p); };
    }
    // Output files are opened before the run: a bad path fails at once, not after the simulation.
    bool dot_existed = false;
    for (const auto* path : {&r.trace_file, &r.vcd_file, &r.dot_file, &r.html_file}) {
        if (path->empty()) continue;
        if (path == &r.dot_file) dot_existed = std::filesystem::exists(*path);
        std::ofstream probe(*path, std::ios::app);
        if (!probe)
            throw std::runtime_error(fmt::format("cannot write {} '{}': {}",
                                                 path == &r.trace_file ? "--trace"
                                                 : path == &r.vcd_file ? "--vcd"
                                                 : path == &r.dot_file ? "--dot"
                                                                       : "--html",
                                                 *path, std::strerror(errno)));
    }
    std::unique_ptr<traces::PerfettoTraceSink> perfetto;
    std::unique_ptr<traces::MlirAieTraceSink> mlir_aie;
    std::unique_ptr<traces::VcdTraceSink> vcd;
    std::vector<sim::TraceSink*> sinks;
    if (!r.trace_file.empty() && r.mlir_aie_trace)
        sinks.push_back((mlir_aie = std::make_unique<traces::MlirAieTraceSink>(r.trace_file)).get());
    else if (!r.trace_file.empty())
        sinks.push_back((perfetto = std::make_unique<traces::PerfettoTraceSink>(r.trace_file)).get());
    if (!r.vcd_file.empty()) sinks.push_back((vcd = std::make_unique<traces::VcdTraceSink>(r.vcd_file)).get());
    // The report is written once the run's end is known (pass, mismatch or failure), not by finish().
    std::unique_ptr<traces::HtmlReportSink> html;
    if (!r.html_file.empty())
        sinks.push_back((html = std::make_unique<traces::HtmlReportSink>(r.html_file, false)).get());
    traces::TeeTraceSink tee(sinks);
    if (!sinks.empty()) so.trace = &tee;
    std::string netlist_text; // --netlist: printed now, or with --json a field of the document
    if (r.netlist) {
        auto inst = spec.build(dev, spec.resolve_params(r.params), harness::BuildOptions(r.seed, r.kernels));
        netlist_text = inst.program.resolve(harness::resolve_options(spec, ro)).dump();
        if (!r.json) out << netlist_text;
    }
    so.wall_timeout_seconds = r.timeout_seconds;
    if (r.core_stack_bytes) so.core_stack_bytes = static_cast<std::size_t>(r.core_stack_bytes);
    so.kernel_threads = static_cast<unsigned>(r.kernel_threads);
    CrashReporter::install(); // a kernel that crashes gets a message naming it, not a bare signal
    // Native code that never returns cannot be stopped from inside: a watchdog names it and ends
    // the process a second after the limit (the simulation itself stops at the limit when it can).
    std::optional<Watchdog> watchdog;
    if (r.timeout_seconds > 0)
        watchdog.emplace(r.timeout_seconds + 1.0, [&out, &err, json = r.json, t = r.timeout_seconds] {
            std::string where = model::NativeActivity::describe();
            const std::string msg = fmt::format(
                "wall-clock limit of {:g} s reached (--timeout): {}; it has not returned, so npusim stops here", t,
                where.empty() ? std::string("the simulator did not return") : where);
            if (json)
                out << json_document("error",
                                     {{"status", "limit"}, {"error", {{"kind", "limit reached"}, {"message", msg}}}})
                           .dump(2)
                    << "\n";
            else
                err << "npusim: limit reached: " << msg << "\n";
            out.flush();
            err.flush();
            std::_Exit(4);
        });
    std::optional<harness::RunReport> run;
    try {
        run = harness::run_design(spec, dev.name, r.params, ro);
    } catch (const SimulationError& e) {
        // The simulator wrote the trace and waveform up to the failure (blocked spans open there).
        if (html) {
            // A report that cannot be written is noted; the failure's report and exit code stay.
            try {
                html->write(html_outcome(e));
                err << "  report written to " << r.html_file << " (up to the failure; open in a browser)\n";
                failure_files()["html"] = r.html_file;
            } catch (const std::exception& w) {
                err << "  --html: " << w.what() << "; the report follows\n";
            }
        }
        if (!r.trace_file.empty()) {
            err << "  trace written to " << r.trace_file << " (up to the failure)\n";
            failure_files()["trace"] = r.trace_file;
        }
        if (!r.vcd_file.empty()) {
            err << "  waveform written to " << r.vcd_file << " (up to the failure)\n";
            failure_files()["vcd"] = r.vcd_file;
        }
        if (!r.dot_file.empty()) {
            if (const auto* d = sim::diagnosis_of(e)) {
                std::ofstream f(r.dot_file, std::ios::trunc);
                f << d->to_dot();
                f.flush();
                // A graph that cannot be written is noted; the deadlock report and exit code stay.
                if (!f)
                    err << "  --dot: cannot write '" << r.dot_file << "': " << std::strerror(errno)
                        << "; the report follows\n";
                else {
                    err << "  wait-for graph written to " << r.dot_file << " (render: dot -Tsvg " << r.dot_file
                        << " -o graph.svg)\n";
                    failure_files()["dot"] = r.dot_file;
                }
            } else if (!dot_existed) {
                std::filesystem::remove(r.dot_file);
            }
        }
        throw;
    } catch (const std::exception& e) {
        // Before the simulation (a design error) or after it (--save-outputs cannot write): the
        // report shows the error, and the run when there was one.
        if (html) {
            try {
                auto o = html_outcome(e);
                o.design = r.design;
                o.device = dev.name;
                html->write(o);
                err << "  report written to " << r.html_file << " (open in a browser)\n";
            } catch (const std::exception&) { // the error being reported matters more
            }
        }
        throw;
    }
    if (!r.dot_file.empty()) {
        if (!dot_existed) std::filesystem::remove(r.dot_file);
        err << "  --dot: the run finished, so there is no wait-for graph to draw (" << r.dot_file << " not written)\n";
    }
    const auto& rep = *run;
    if (html) html->write(html_outcome(rep));
    if (r.json) {
        auto j = json_document("run", report_json(rep, so.timing));
        if (!netlist_text.empty()) j["netlist"] = netlist_text;
        j["files"] = nlohmann::json::object(); // the files this run wrote
        for (const auto& [key, path] : {std::pair<const char*, const std::string*>{"trace", &r.trace_file},
                                        {"vcd", &r.vcd_file},
                                        {"html", &r.html_file},
                                        {"save_outputs", &r.save_dir}})
            if (!path->empty()) j["files"][key] = *path;
        if (!r.what_if.empty()) run_what_ifs(r, spec, run_options(r, dev), rep, out, &j);
        out << j.dump(2) << "\n";
    } else {
        print_summary(out, rep, so.timing);
        if (!r.what_if.empty()) run_what_ifs(r, spec, run_options(r, dev), rep, out, nullptr);
    }
    if (!r.trace_file.empty() && !r.json)
        out << "  trace written to " << r.trace_file
            << (r.mlir_aie_trace ? " (mlir-aie format: open in ui.perfetto.dev, summarise with get_trace_summary.py)\n"
                                 : " (open in ui.perfetto.dev)\n");
    if (!r.vcd_file.empty() && !r.json) out << "  waveform written to " << r.vcd_file << " (open with GTKWave)\n";
    if (!r.html_file.empty() && !r.json) out << "  report written to " << r.html_file << " (open in a browser)\n";
    return rep.all_match ? 0 : 1;
}

// The structured diagnosis of a deadlock or limit (the `deadlock` / `limit` object of --json).
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

// --what-if: each ablation alone, the same design, inputs and checks as the baseline, side by side.
void run_what_ifs(const RunArgs& r, const harness::DesignSpec& spec, const harness::RunOptions& base,
                  const harness::RunReport& baseline, std::ostream& out, nlohmann::json* json) {
    const auto& timing = base.sim.timing;
    const auto npu_us = [](const harness::RunReport& rep, const model::TimingParams& t) {
        return static_cast<double>(rep.result.cycles) / t.clock_mhz + t.host_invocation_latency_us;
    };
    struct Row {
        std::string name, what;
        std::optional<harness::RunReport> rep;
        model::TimingParams timing;
        std::string error;
    };
    std::vector<Row> rows;
    for (const auto& name : r.what_if) {
        const auto& a = *std::find_if(std::begin(kAblations), std::end(kAblations),
                                      [&](const Ablation& x) { return name == x.name; });
        auto ro = base;
        ro.save_dir.clear(); // the baseline's files stay the baseline's
        a.apply(ro.sim);
        Row row{a.name, a.what, std::nullopt, ro.sim.timing, {}};
        try {
            row.rep = harness::run_design(spec, baseline.device, r.params, ro);
        } catch (const std::exception& e) {
            const auto c = classify_error(e);
            row.error = fmt::format("{}: {}", c.kind, e.what());
        }
        rows.push_back(std::move(row));
    }
    const auto base_cycles = static_cast<double>(baseline.result.cycles);
    auto change = [&](std::uint64_t c) {
        return base_cycles > 0 ? 100.0 * (static_cast<double>(c) - base_cycles) / base_cycles : 0.0;
    };
    if (json) {
        auto& arr = (*json)["what_if"] = nlohmann::json::array();
        for (const auto& row : rows) {
            nlohmann::json j{{"name", row.name}, {"what", row.what}};
            if (row.rep) {
                j["cycles"] = row.rep->result.cycles;
                j["change_percent"] = change(row.rep->result.cycles);
                j["npu_time_us"] = npu_us(*row.rep, row.timing);
                j["match"] = row.rep->all_match;
            } else {
                j["error"] = row.error;
            }
            arr.push_back(std::move(j));
        }
        return;
    }
    out << "  what-if: each ablation alone against the baseline (same inputs; outputs checked on every run)\n";
    out << fmt::format("  {:<19} {:>14} {:>9} {:>12}  {}\n", "scenario", "cycles", "change", "npu time", "outputs");
    out << fmt::format("  {:<19} {:>14} {:>9} {:>9.1f} us  {}\n", "baseline", grouped(baseline.result.cycles), "-",
                       npu_us(baseline, timing), baseline.all_match ? "match" : "MISMATCH");
    for (const auto& row : rows) {
        if (!row.rep) {
            out << fmt::format("  {:<19} {}\n", row.name, row.error);
            continue;
        }
        out << fmt::format("  {:<19} {:>14} {:>8.1f}% {:>9.1f} us  {}\n", row.name, grouped(row.rep->result.cycles),
                           change(row.rep->result.cycles), npu_us(*row.rep, row.timing),
                           row.rep->all_match ? "match" : "MISMATCH");
    }
    for (const auto& row : rows) out << fmt::format("  {:<19} {}\n", row.name + ":", row.what);
}

// FNV-1a over an output's bytes: equal outputs on two devices have equal digests.
std::uint64_t digest(const std::vector<std::uint8_t>& bytes) {
    std::uint64_t h = 1469598103934665603ull;
    for (auto b : bytes) h = (h ^ b) * 1099511628211ull;
    return h;
}

// --device a,b: the same design, parameters and seed on each device, outputs and cycles side by side.
int cmd_run_devices(const RunArgs& r, const std::vector<std::string>& devices, std::ostream& out) {
    for (const auto* f : {&r.trace_file, &r.vcd_file, &r.dot_file, &r.html_file})
        if (!f->empty())
            throw UsageError(
                "--trace, --vcd, --dot and --html write one run's files: give one device, not a --device list");
    if (!r.save_dir.empty()) throw UsageError("--save-outputs writes one run's files: give one device, not a list");
    if (!r.what_if.empty()) throw UsageError("--what-if compares ablations on one device: give one device, not a list");
    if (r.netlist) throw UsageError("--netlist prints one device's netlist: give one device, not a list");
    const auto& spec = harness::design_by_name(r.design);
    struct Row {
        std::string device;
        std::optional<harness::RunReport> rep;
        model::TimingParams timing;
        ErrorClass error;
        std::string message;
    };
    std::vector<Row> rows;
    for (const auto& d : devices) {
        const auto& dev = model::device_by_name(d);
        const auto ro = run_options(r, dev);
        Row row{d, std::nullopt, ro.sim.timing, {}, {}};
        try {
            row.rep = harness::run_design(spec, d, r.params, ro);
        } catch (const std::exception& e) {
            row.error = classify_error(e);
            row.message = e.what();
        }
        rows.push_back(std::move(row));
    }
    // Outputs by name, in the first successful run's order; a digest per device.
    std::vector<std::string> outputs;
    for (const auto& row : rows)
        if (row.rep && outputs.empty())
            for (const auto& c : row.rep->checks) outputs.push_back(c.arg);
    auto output_digest = [](const harness::RunReport& rep, const std::string& arg) -> std::optional<std::uint64_t> {
        for (const auto& c : rep.checks)
            if (c.arg == arg && c.arg_index >= 0 && static_cast<std::size_t>(c.arg_index) < rep.result.host.size())
                return digest(rep.result.host[static_cast<std::size_t>(c.arg_index)]);
        return std::nullopt;
    };
    int code = 0;
    bool identical = true;
    std::map<std::string, std::uint64_t> first_digest;
    for (const auto& row : rows) {
        if (!row.rep) {
            code = std::max(code, row.error.code);
            continue;
        }
        if (!row.rep->all_match) code = std::max(code, 1);
        for (const auto& o : outputs) {
            const auto d = output_digest(*row.rep, o);
            if (!d) continue;
            const auto [it, fresh] = first_digest.try_emplace(o, *d);
            if (!fresh && it->second != *d) identical = false;
        }
    }
    if (r.json) {
        auto j = json_document("run_devices", {{"design", r.design}, {"devices", nlohmann::json::array()}});
        for (const auto& row : rows) {
            nlohmann::json d;
            if (row.rep) {
                d = report_json(*row.rep, row.timing);
                for (const auto& o : outputs)
                    if (const auto dg = output_digest(*row.rep, o))
                        d["output_digests"][o] = fmt::format("{:016x}", *dg);
            } else {
                d = {{"device", row.device},
                     {"status", row.error.status},
                     {"error", {{"kind", row.error.kind}, {"message", row.message}}}};
            }
            j["devices"].push_back(std::move(d));
        }
        j["outputs_identical"] = identical;
        j["status"] = code == 0 ? "pass" : "fail";
        out << j.dump(2) << "\n";
        return code;
    }
    out << fmt::format("npusim: {} on {} devices (same parameters, seed {})\n", r.design, rows.size(), r.seed);
    std::string head = fmt::format("  {:<10} {:<6} {:>4} {:>14} {:>11} {:>11}", "device", "arch", "cols", "cycles",
                                   "array time", "npu time");
    auto rtrim = [](std::string s) {
        while (!s.empty() && s.back() == ' ') s.pop_back();
        return s;
    };
    for (const auto& o : outputs) head += fmt::format("  {:<24}", o + " (digest, check)");
    out << rtrim(head) << "\n";
    for (const auto& row : rows) {
        const auto& dev = model::device_by_name(row.device);
        std::string line = fmt::format("  {:<10} {:<6} {:>4}", row.device, model::arch_name(dev.arch), dev.cols);
        if (!row.rep) {
            out << line << "  " << row.error.kind << ": " << row.message << "\n";
            continue;
        }
        const auto cycles = row.rep->result.cycles;
        const double array_us = static_cast<double>(cycles) / row.timing.clock_mhz;
        line += fmt::format(" {:>14} {:>8.1f} us {:>8.1f} us", grouped(cycles), array_us,
                            array_us + row.timing.host_invocation_latency_us);
        for (const auto& o : outputs) {
            const auto d = output_digest(*row.rep, o);
            bool match = false;
            for (const auto& c : row.rep->checks)
                if (c.arg == o) match = c.match;
            line += fmt::format("  {:<24}", d ? fmt::format("{:016x} {}", *d, match ? "ok" : "MISMATCH") : "-");
        }
        out << rtrim(line) << "\n";
    }
    const bool all_ran = std::all_of(rows.begin(), rows.end(), [](const Row& x) { return x.rep.has_value(); });
    if (all_ran && rows.size() > 1)
        out << (identical ? "  outputs: identical on every device\n"
                          : "  outputs: DIFFER between devices (the digests above): a portability bug\n");
    out << (code == 0 ? "result: PASS on every device\n" : "result: FAIL\n");
    return code;
}

int error_exit(bool json, std::ostream& out, std::ostream& err, const std::string& status, const std::string& kind,
               const std::string& msg, int code, const sim::Diagnosis* diagnosis = nullptr) {
    if (json) {
        auto j = json_document("error", {{"status", status}, {"error", {{"kind", kind}, {"message", msg}}}});
        if (diagnosis)
            j[diagnosis->trigger == sim::Diagnosis::Trigger::Deadlock ? "deadlock" : "limit"] =
                diagnosis_json(*diagnosis);
        j["files"] = nlohmann::json::object(); // what the run wrote up to the failure
        for (const auto& [key, path] : failure_files()) j["files"][key] = path;
        out << j.dump(2) << "\n";
    } else {
        err << "npusim: " << kind << ": " << msg << (msg.empty() || msg.back() == '\n' ? "" : "\n");
    }
    return code;
}


// The options run, golden and args share: the design, where it runs, its parameters and inputs.
void add_design_options(CliOptions& o, RunArgs& r, bool device_list) {
    o.design(r.design);
    o.value("--device", device_list ? "NAME[,NAME...]" : "NAME",
            device_list ? "npu1, npu1_1col..npu1_3col, npu2, npu2_1col..npu2_7col (default npu1_1col); a list "
                          "(--device npu1_4col,npu2) runs the same design, parameters and seed on each and prints "
                          "cycles and output digests side by side"
                        : "npu1, npu1_1col..npu1_3col, npu2, npu2_1col..npu2_7col (default npu1_1col)",
            [&r](const std::string& v) { r.device = v; });
    o.repeated("--param", "K=V", "override a design parameter (repeatable); see `npusim list`",
               [&r](const std::string& v) { parse_param(v, r.params); });
    o.value("--seed", "N", "seed of the generated inputs (default 1)",
            [&r](const std::string& v) { r.seed = parse_u64(v, "--seed"); });
    o.value("--kernels", "ref|aie",
            "which kernel build the workers call (default ref): the reference C++ kernels, or aie: the AIE-API "
            "kernel sources (kernels_ref/aie) compiled natively, checked against the same golden reference. aie "
            "applies to every design with an external kernel (`npusim list` marks them), e.g. passthrough_kernel "
            "(E1: passThrough) and vector_scalar_mul (E3: scale); passthrough_dmas (E2) and transpose_dma move data "
            "by DMA only (no kernel) and vector_vector_add (E4) has no external kernel (it computes in the core body)",
            [&r](const std::string& k) {
                const auto ks = harness::parse_kernel_set(k);
                if (!ks) throw UsageError(fmt::format("--kernels expects ref or aie, got '{}'", k));
                r.kernels = *ks;
            });
    o.flag("--json", "print one machine-readable result object", r.json);
}

// The options of a run (run, golden) besides the design's.
void add_run_options(CliOptions& o, RunArgs& r) {
    o.repeated("--what-if", "LIST",
            "after the run, rerun with each ablation alone and show it beside the baseline: free-kernels, "
            "unlimited-ddr, ideal-locks, zero-host-latency, all (names separated by commas; repeatable)",
               [&r](const std::string& v) { parse_what_if(v, r.what_if); });
    o.repeated("--input", "NAME=FILE",
               "read input argument NAME from a .npy file (repeatable); inputs without a file are generated from "
               "--seed. dtype and shape must match the argument",
               [&r](const std::string& v) { parse_named_file(v, "--input", r.inputs); });
    o.repeated("--expect", "NAME=FILE",
               "compare output NAME with a .npy file instead of the design's reference (repeatable)",
               [&r](const std::string& v) { parse_named_file(v, "--expect", r.expected); });
    o.value("--save-outputs", "DIR",
            "write NAME.npy for every input and output argument and NAME.expected.npy for every output (bf16 is "
            "saved with descr '<V2', as ml_dtypes does: np.load(f).view(ml_dtypes.bfloat16))",
            [&r](const std::string& v) { r.save_dir = v; });
    o.value("--rtol", "X", "relative tolerance of f32/bf16 outputs (default: the design's own); integer outputs are "
                           "always compared exactly",
            [&r](const std::string& v) { r.rtol = parse_tolerance(v, "--rtol"); });
    o.value("--atol", "Y", "absolute tolerance of f32/bf16 outputs (default: the design's own)",
            [&r](const std::string& v) { r.atol = parse_tolerance(v, "--atol"); });
    o.value("--tolerance", "allclose|nearly-equal",
            "allclose (default, numpy): |got - want| <= atol + rtol*|want|, NaN == NaN; nearly-equal (mlir-aie "
            "verify.py): got == want or |got - want| < max(atol, rtol*(|got| + |want|)) in float32, NaN never equal",
            [&r](const std::string& v) {
                const auto m = harness::parse_tolerance_mode(v);
                if (!m) throw UsageError(fmt::format("--tolerance expects allclose or nearly-equal, got '{}'", v));
                r.tolerance = *m;
            });
    o.value("--max-cycles", "N", "stop with exit code 4 after N simulated cycles (default 10000000000; 0: none)",
            [&r](const std::string& v) { r.max_cycles = parse_u64(v, "--max-cycles"); });
    o.value("--core-stack", "BYTES",
            "host stack of each core's worker body and kernels (default 4194304); a kernel with large local arrays "
            "needs more (a stack overflow is reported, exit 2)",
            [&r](const std::string& v) {
                r.core_stack_bytes = parse_u64(v, "--core-stack");
                if (r.core_stack_bytes < (1u << 20) || r.core_stack_bytes > (1ull << 31))
                    throw UsageError(fmt::format("--core-stack expects 1048576 up to 2147483648 bytes, got {}",
                                                 r.core_stack_bytes));
            });
    o.value("--kernel-threads", "N",
            "run kernel calls on N host threads, the simulating thread one of them (default 0: one per hardware "
            "thread; 1: all on the simulating thread); same results, cycles and traces; used only with --no-memory-check, for "
            "cores without cascade or stream ports, and for kernels whose calls take 20 us or more",
            [&r](const std::string& v) {
                r.kernel_threads = parse_u64(v, "--kernel-threads");
                if (r.kernel_threads > 256)
                    throw UsageError(
                        fmt::format("--kernel-threads expects 0 up to 256 threads, got {}", r.kernel_threads));
            });
    o.value("--timeout", "SECONDS",
            "stop with exit code 4 after this much wall-clock time (default 600; 0: none), with the progress "
            "report; a worker body or kernel that never returns (in the simulation or the resolve-time trace) is "
            "named and the process ends within a second of the limit",
            [&r](const std::string& v) { r.timeout_seconds = parse_tolerance(v, "--timeout"); });
    o.value("--timing", "FILE", "JSON object overriding timing parameters",
            [&r](const std::string& v) { r.timing_file = v; });
    o.value("--trace", "FILE.json", "Perfetto / Chrome trace of cores, DMA channels and locks (ts in cycles)",
            [&r](const std::string& v) { r.trace_file = v; });
    o.value("--trace-format", "rich|mlir-aie",
            "rich (default): every kernel call, BD, lock stall, lock acquire/release and lock value, with arguments "
            "and the clock in its metadata; mlir-aie: the JSON mlir-aie's parse.py makes from a hardware trace (8 "
            "event slots per traced tile, B/E pairs), for its get_trace_summary.py; the design's enable_trace "
            "chooses tiles, events and buffer size, else every core with default events",
            [&r](const std::string& f) {
                if (f != "rich" && f != "mlir-aie")
                    throw UsageError(fmt::format("--trace-format expects rich or mlir-aie, got '{}'", f));
                r.mlir_aie_trace = f == "mlir-aie";
            });
    o.value("--vcd", "FILE.vcd", "VCD waveform for GTKWave", [&r](const std::string& v) { r.vcd_file = v; });
    o.value("--dot", "FILE.dot",
            "on a deadlock or cycle limit: the wait-for graph in Graphviz DOT (blocked processes red, the cycle bold "
            "red, the causal chain bold); render it with `dot -Tsvg FILE.dot -o FILE.svg`",
            [&r](const std::string& v) { r.dot_file = v; });
    o.value("--html", "FILE.html",
            "one self-contained HTML report for a browser (no network): per-tile timeline with zoom and tooltips, "
            "fifo occupancy, utilisation against peak, the design graph, and the deadlock graph; written when the "
            "run fails too",
            [&r](const std::string& v) { r.html_file = v; });
    o.flag("--netlist", "print the resolved netlist before simulating (with --json: the document's \"netlist\")",
           r.netlist);
    o.value("--alloc-scheme", "bank-aware|basic-sequential",
            "buffer allocation scheme, as aiecc's --alloc-scheme (mlir-aie AIEAssignBuffers.cpp): bank-aware or "
            "basic-sequential, each without fallback; unset: the design's own, by default bank-aware falling back "
            "to basic-sequential with a warning",
            [&r](const std::string& v) {
                r.alloc_scheme = iron::parse_alloc_scheme(v);
                if (!r.alloc_scheme)
                    throw UsageError(
                        fmt::format("--alloc-scheme expects bank-aware or basic-sequential, got '{}'", v));
            });
    o.flag("--progress",
           "progress on stderr: sequence ops done/total, simulated cycles, rate, elapsed time (one updating line on "
           "a terminal, whole lines every 2 s otherwise)",
           r.progress);
    auto count = [&r](const char* opt, std::uint64_t lo, std::uint32_t RunArgs::*into) {
        return [&r, opt, lo, into](const std::string& s) {
            const auto v = parse_u64(s, opt);
            if (v < lo || v > 1'000'000)
                throw UsageError(fmt::format("{} expects {} up to 1000000, got {}", opt, lo, v));
            r.*into = static_cast<std::uint32_t>(v);
        };
    };
    o.value("--iters", "N",
            "run the runtime sequence N times on the same loaded array (as XRT runs a kernel again: cores, locks, "
            "buffers persist; init_values are not re-applied) and check every run's outputs against the reference "
            "at its index",
            count("--iters", 1, &RunArgs::iters));
    o.value("--warmup", "W", "W unchecked runs before the N checked ones (default 0)",
            count("--warmup", 0, &RunArgs::warmup));
    o.flag("--no-memory-check",
           "do not look for kernel and worker-body writes outside the memory they were given (on by default: such a "
           "write is an error naming the buffer hit; off, it corrupts data silently, as on the NPU)",
           r.no_memory_check);
    o.flag("--werror",
           "resolve-time warnings (hangs found before simulating, allocation fallback) are design errors (exit 2)",
           r.werror);
    o.flag("--queue-wait",
           "before each shim task push, wait until the channel's 4-deep task queue has room, as a toolchain that "
           "enforces the queue depth does (mlir-aie PR 3734; its --no-enforce-dma-queue-depth is this option left "
           "off). Without it a push onto a full queue is an error (exit 4): the hardware drops it",
           r.queue_wait);
}

// `npusim run` and `npusim golden` (the same command under two names).
Command add_run(CLI::App& app, const std::string& name, std::ostream& out, std::ostream& err) {
    auto* sub = app.add_subcommand(
        name, name == "run" ? "  npusim run DESIGN [options]    simulate a design and check every output against its "
                              "golden\n                                 reference (the design's C++ reference on the "
                              "same inputs)"
                            : "  npusim golden DESIGN [options] the same as run (for golden-model test scripts)");
    sub->footer(kNpyNote);
    auto r = std::make_shared<RunArgs>();
    auto o = std::make_shared<CliOptions>(*sub, name, "run options (golden takes the same)");
    add_design_options(*o, *r, true);
    add_run_options(*o, *r);
    return {sub, [r, o, name, &out, &err] {
                o->apply();
                if (r->design.empty()) throw UsageError(fmt::format("{}: which design? (see `npusim list`)", name));
                if (r->mlir_aie_trace && r->trace_file.empty())
                    throw UsageError("--trace-format mlir-aie needs --trace FILE.json");
                r->check_memory = !r->no_memory_check;
                return cmd_run(*r, out, err);
            }};
}

// `npusim args DESIGN`: the runtime arguments (the design is built, not resolved).
Command add_args(CLI::App& app, std::ostream& out) {
    auto* sub = app.add_subcommand("args", "  npusim args DESIGN [--device D] [--param K=V ...]\n"
                                           "                                 the design's runtime arguments: name, "
                                           "role, dtype, shape, tolerance");
    sub->footer(kNpyNote);
    auto r = std::make_shared<RunArgs>();
    auto o = std::make_shared<CliOptions>(*sub, "args", "args options");
    add_design_options(*o, *r, false);
    return {sub, [r, o, &out] {
                o->apply();
                if (r->design.empty()) throw UsageError("args: which design? (see `npusim list`)");
                return cmd_args(*r, out);
            }};
}

// `npusim list` and `npusim devices`: --json and nothing else.
Command add_listing(CLI::App& app, const std::string& name, const std::string& lines, std::ostream& out,
                    int (*cmd)(std::ostream&, bool)) {
    auto* sub = app.add_subcommand(name, lines);
    auto json = std::make_shared<bool>(false);
    auto o = std::make_shared<CliOptions>(*sub, name, name + " options");
    o->flag("--json", "print one machine-readable object", *json);
    return {sub, [json, o, cmd, &out] {
                o->apply();
                return cmd(out, *json);
            }};
}

Command add_timing(CLI::App& app, std::ostream& out) {
    auto* sub = app.add_subcommand("timing", "  npusim timing [--device D]     the timing model's parameters and "
                                             "their sources");
    struct TimingArgs {
        std::string device = "npu1";
        bool json = false;
    };
    auto r = std::make_shared<TimingArgs>();
    auto o = std::make_shared<CliOptions>(*sub, "timing", "timing options");
    o->value("--device", "NAME", "the device whose architecture's parameters to print (default npu1)",
             [r](const std::string& v) { r->device = v; });
    o->flag("--json", "print one machine-readable object", r->json);
    return {sub, [r, o, &out] {
                o->apply();
                return cmd_timing(r->device, r->json, out);
            }};
}

// `npusim help [COMMAND]` and `npusim version`.
Command add_help(CLI::App& app, std::ostream& out) {
    auto* sub = app.add_subcommand("help")->group(""); // in kTopLines
    auto which = std::make_shared<std::string>();
    auto o = std::make_shared<CliOptions>(*sub, "help", "help options");
    sub->add_option("command", *which, "the command whose usage to print")->group("");
    return {sub, [&app, which, o, &out] {
                o->apply();
                if (which->empty()) { // the whole usage (app.help() would give this command's)
                    out << app.get_formatter()->make_help(&app, "npusim", CLI::AppFormatMode::Normal);
                    return 0;
                }
                CLI::App* cmd = nullptr;
                try {
                    cmd = app.get_subcommand(*which);
                } catch (const CLI::OptionNotFound&) {
                    throw UsageError(fmt::format("help: unknown command '{}'", *which));
                }
                out << cmd->help();
                return 0;
            }};
}

Command add_version(CLI::App& app, std::ostream& out) {
    auto* sub = app.add_subcommand("version")->group("");
    auto o = std::make_shared<CliOptions>(*sub, "version", "version options");
    return {sub, [o, &out] {
                o->apply();
                out << "npusim " << npusim_version() << "\n";
                return 0;
            }};
}

// A CLI11 parse error in npusim's words, naming the option.
std::string usage_message(const CLI::ParseError& e) {
    const std::string m = e.what();
    static const std::regex missing(R"(^(\S+): \d+ required .* missing$)"); // "--device: 1 required NAME missing"
    static const std::regex override(R"(^-*(\S+) was given a disallowed flag override$)");
    std::smatch g;
    if (std::regex_match(m, g, missing)) return g[1].str() + " needs a value";
    if (std::regex_match(m, g, override)) return "--" + g[1].str() + " takes no value";
    return m;
}

// CLI11 reads `--flag=true` and `--flag=` as the flag given: npusim's flags take no value at all.
void refuse_flag_values(const CLI::App& sub, const std::vector<std::string>& args) {
    for (const auto& a : args) {
        if (a == "--") break;
        const auto eq = a.find('=');
        if (!a.starts_with("--") || eq == std::string::npos) continue;
        const auto* o = sub.get_option_no_throw(a.substr(0, eq));
        if (o != nullptr && o->get_expected_max() == 0) // a flag
            throw UsageError(fmt::format("{} takes no value", a.substr(0, eq)));
    }
}

// The App: every subcommand, each one function that registers its options and what it runs. A new
// subcommand is one more such function and one line here:
//   Command add_x(CLI::App& app, std::ostream& out) {
//       auto* sub = app.add_subcommand("x", "  npusim x DESIGN [options]     what it does");
//       auto r = std::make_shared<XArgs>();
//       auto o = std::make_shared<CliOptions>(*sub, "x", "x options");
//       o->design(r->design);
//       o->value("--opt", "N", "what it means", [r](const std::string& v) { r->n = parse_u64(v, "--opt"); });
//       return {sub, [r, o, &out] { o->apply(); return run_x(*r, out); }};
//   }
// A command with a parser of its own (a function of the argument list) takes its arguments as given:
// sub->allow_extras() and sub->prefix_command(), then parse(sub->remaining()) in its run.
struct Cli {
    CLI::App app{"npusim", "npusim"};
    std::vector<Command> commands;
    bool version = false;

    Cli(std::ostream& out, std::ostream& err) {
        app.formatter(std::make_shared<HelpFormatter>());
        app.description(kTopLines);
        app.allow_extras(); // reported in npusim's words (run_cli)
        app.require_subcommand(0, 1);
        app.set_help_flag("-h,--help", "this help");
        app.add_flag("--version", version, "npusim's version")->disable_flag_override();
        commands.push_back(add_listing(app, "list", "  npusim list                    designs available, one line each",
                                       out, cmd_list));
        commands.push_back(add_listing(app, "devices",
                                       "  npusim devices                 devices and their resources", out,
                                       cmd_devices));
        commands.push_back(add_run(app, "run", out, err));
        commands.push_back(add_run(app, "golden", out, err));
        commands.push_back(add_args(app, out));
        commands.push_back(add_timing(app, out));
        commands.push_back(add_depth_command(app, out, err));
        commands.push_back(add_sweep_command(app, out, err));
        commands.push_back(add_export_command(app, out));
        commands.push_back(add_hw_command(app, out));
        commands.push_back(add_compare_command(app, out));
        commands.push_back(add_help(app, out));
        commands.push_back(add_version(app, out));
        app.footer(kNpyNote); // after the subcommands: they would inherit it
    }

    // The subcommand's help when one was chosen, else the whole usage.
    std::string help() const { return app.help(); }
};

} // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    failure_files().clear();
    bool json = false;
    for (const auto& a : args) json |= a == "--json";
    std::optional<Cli> cli;
    try {
        if (args.empty()) {
            RunArgs r;
            r.design = harness::default_design();
            out << "npusim demo: simulating the IRON passthrough_kernel design (see `npusim --help`)\n\n";
            return cmd_run(r, out, err);
        }
        cli.emplace(out, err);
        std::vector<std::string> reversed(args.rbegin(), args.rend()); // as CLI11 takes them
        try {
            cli->app.parse(reversed);
        } catch (const CLI::CallForHelp&) {
            out << cli->help(); // the chosen command's, or the whole usage
            return 0;
        } catch (const CLI::ParseError& e) {
            throw UsageError(usage_message(e));
        }
        if (cli->version) {
            out << "npusim " << npusim_version() << "\n";
            return 0;
        }
        const auto extra = cli->app.remaining();
        for (const auto& c : cli->commands) {
            if (!c.app->parsed()) continue;
            if (!extra.empty()) // after `--`
                throw UsageError(fmt::format("{}: unexpected argument '{}'", c.app->get_name(), extra.front()));
            refuse_flag_values(*c.app, args);
            return c.run();
        }
        if (!extra.empty() && extra.front().size() > 1 && extra.front()[0] == '-')
            throw UsageError(fmt::format("unknown option '{}'", extra.front().substr(0, extra.front().find('='))));
        throw UsageError(fmt::format("unknown command '{}'", extra.empty() ? std::string() : extra.front()));
    } catch (const UsageError& e) {
        if (!json) err << (cli ? cli->help() : std::string()) << "\n";
        const auto c = classify_error(e);
        return error_exit(json, out, err, c.status, c.kind, e.what(), c.code);
    } catch (const std::exception& e) {
        const auto c = classify_error(e);
        const auto* sim_error = dynamic_cast<const SimulationError*>(&e);
        return error_exit(json, out, err, c.status, c.kind, e.what(), c.code,
                          sim_error ? sim::diagnosis_of(*sim_error) : nullptr);
    }
}

ErrorClass classify_error(const std::exception& e) {
    if (dynamic_cast<const UsageError*>(&e)) return {2, "usage_error", "usage error"};
    if (dynamic_cast<const DesignError*>(&e)) return {2, "design_error", "design error"};
    if (dynamic_cast<const harness::NpyError*>(&e)) return {2, "file_error", "file error"};
    if (const auto* h = dynamic_cast<const hw::HardwareError*>(&e))
        return {static_cast<int>(ExitCode::Hardware), "hardware_error", hw::HardwareError::kind_name(h->kind())};
    if (const auto* s = dynamic_cast<const SimulationError*>(&e)) {
        const auto code = static_cast<int>(exit_code_for(s->kind()));
        switch (s->kind()) {
        case SimulationError::Kind::Deadlock: return {code, "deadlock", "deadlock"};
        case SimulationError::Kind::Limit: return {code, "limit", "limit reached"};
        case SimulationError::Kind::Kernel: return {code, "error", "kernel error"};
        case SimulationError::Kind::Mismatch: return {code, "error", "size mismatch"};
        case SimulationError::Kind::Internal: return {code, "internal_error", "internal error"};
        case SimulationError::Kind::Protocol: break;
        }
        return {code, "error", "protocol error"};
    }
    return {2, "error", "error"};
}

} // namespace npusim::tools

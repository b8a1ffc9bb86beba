#include "HwCommand.hpp"
#include "CliSupport.hpp"
#include "JsonDocument.hpp"
#include "RunReport.hpp"

#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/DesignSpec.hpp"
#include "npusim/harness/NpyFile.hpp"
#include "npusim/hw/BufferPlan.hpp"
#include "npusim/hw/InstructionStream.hpp"
#include "npusim/hw/XrtRunner.hpp"
#include "npusim/model/Error.hpp"
#include "npusim/model/TimingParams.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <ostream>
#include <sstream>

namespace npusim::tools {

namespace {

struct HwArgs {
    std::string cmd;
    std::string design;
    std::string device = "npu1_1col";
    harness::Params params;
    std::uint64_t seed = 1;
    std::map<std::string, std::string> input_files;
    std::string xclbin, insts, kernel = "MLIR_AIE";
    std::string hw_outputs, hw_times;
    std::uint32_t iters = 1, warmup = 0;
    bool json = false;
};

const harness::DesignSpec& checked_spec(const HwArgs& r, const model::DeviceSpec& dev) {
    const auto& spec = harness::design_by_name(r.design);
    if (!spec.supports(dev.name))
        throw DesignError(fmt::format("design '{}' does not run on {} (devices: {})", spec.name, dev.name,
                                      fmt::join(spec.devices, ", ")));
    return spec;
}

std::vector<hw::HostArg> host_args(const std::vector<harness::ArgSpec>& args) {
    std::vector<hw::HostArg> v;
    for (const auto& a : args) {
        using R = hw::HostArg::Role;
        const R role = a.role == harness::ArgRole::input    ? R::input
                       : a.role == harness::ArgRole::output ? R::output
                       : a.role == harness::ArgRole::inout  ? R::inout
                                                            : R::unused;
        v.push_back({a.name, role, a.bytes()});
    }
    return v;
}

nlohmann::json plan_json(const hw::BufferPlan& plan) {
    auto j = nlohmann::json::array();
    for (const auto& b : plan.bos())
        j.push_back({{"name", b.name},
                     {"group_id", b.group_id},
                     {"bytes", b.bytes},
                     {"cacheable", b.cacheable},
                     {"to_device", b.to_device},
                     {"from_device", b.from_device}});
    return j;
}

nlohmann::json checks_json(const std::vector<harness::OutputCheck>& checks) {
    auto j = nlohmann::json::array();
    for (const auto& c : checks) {
        nlohmann::json o{{"name", c.arg},
                         {"match", c.match},
                         {"elements", c.elements},
                         {"mismatches", c.mismatches},
                         {"first_mismatches", c.first_mismatches},
                         {"first", first_mismatches_json(c)},
                         {"error", c.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.error)}};
        if (c.is_float) {
            o["max_abs_err"] = std::isfinite(c.max_abs_err) ? nlohmann::json(c.max_abs_err) : nlohmann::json(nullptr);
            o["rtol"] = c.rtol;
            o["atol"] = c.atol;
        }
        j.push_back(std::move(o));
    }
    return j;
}

nlohmann::json times_json(const TimeSummary& t) {
    if (t.runs == 0) return nullptr;
    return {{"runs", t.runs}, {"min_us", t.min_us}, {"avg_us", t.avg_us}, {"max_us", t.max_us}};
}

void require_hw_files(const HwArgs& r) {
    if (r.xclbin.empty())
        throw UsageError(fmt::format("{}: --xclbin FILE is required (the xclbin aiecc builds: npusim export {} -o "
                                     "design.mlir --print-commands)",
                                     r.cmd, r.design.empty() ? "DESIGN" : r.design));
    if (r.insts.empty())
        throw UsageError(fmt::format("{}: --insts FILE is required (the instruction stream aiecc writes with "
                                     "--npu-insts-name)",
                                     r.cmd));
}

// The host side as mlir-aie's test programs run it; `inputs` holds one byte vector per argument.
hw::XrtResult run_on_npu(const HwArgs& r, const std::string& design, const std::vector<harness::ArgSpec>& args,
                         const std::vector<std::vector<std::uint8_t>>& inputs, std::ostream& out,
                         nlohmann::json& plan_out) {
    const auto insts = hw::InstructionStream::load(r.insts);
    const hw::BufferPlan plan(design, insts.size(), host_args(args));
    plan_out = plan_json(plan);
    if (!r.json) {
        const std::string xrt = hw::XrtRunner::xrt_version();
        out << fmt::format("{} on the NPU through XRT{}\n", design, xrt.empty() ? " (not built in)" : " " + xrt);
        out << fmt::format("  xclbin  {} (kernel {}*)\n  insts   {} ({} words, {} form)\n", r.xclbin, r.kernel, r.insts,
                           insts.size(),
                           hw::InstructionStream::form_for(r.insts) == hw::InstructionStream::Form::Text ? "text"
                                                                                                           : "binary");
        out << fmt::format("  buffer objects, then {} (warm-up {}, timed {}):\n", plan.kernel_call(), r.warmup,
                           r.iters);
        out << plan.table();
        out.flush();
    }
    hw::XrtRequest req;
    req.xclbin = r.xclbin;
    req.kernel_name = r.kernel;
    req.warmup = r.warmup;
    req.iters = r.iters;
    return hw::XrtRunner::run(req, insts, plan, inputs);
}

int run_hw(const HwArgs& r, std::ostream& out) {
    if (r.design.empty()) throw UsageError("hw: which design? (see `npusim list`)");
    require_hw_files(r);
    const auto& dev = model::device_by_name(r.device);
    const auto& spec = checked_spec(r, dev);
    const auto params = spec.resolve_params(r.params);
    auto inst = spec.build(dev, params, harness::BuildOptions(r.seed));
    std::vector<std::vector<std::uint8_t>> inputs(inst.args.size());
    for (std::size_t i = 0; i < inst.args.size(); ++i) {
        const auto& a = inst.args[i];
        const auto it = inst.inputs.find(a.name);
        inputs[i] = a.takes_input() && it != inst.inputs.end() ? it->second.data
                                                               : std::vector<std::uint8_t>(a.bytes(), 0);
    }
    nlohmann::json plan;
    const auto res = run_on_npu(r, spec.name, inst.args, inputs, out, plan);
    // The golden reference on the same inputs, for the last run (as `run --iters` checks each).
    const auto want = inst.expected(inst.inputs, r.warmup + r.iters - 1);
    std::vector<harness::OutputCheck> checks;
    for (std::size_t i = 0; i < inst.args.size(); ++i) {
        const auto& a = inst.args[i];
        if (!a.is_checked()) continue;
        const harness::Tensor got(a.dtype, a.shape, res.outputs.at(i));
        checks.push_back(harness::compare_output(a, static_cast<int>(i), got, want.at(a.name), a.rtol, a.atol));
    }
    const bool pass = std::all_of(checks.begin(), checks.end(), [](const auto& c) { return c.match; });
    const auto t = summarize_times(res.times_us);
    if (r.json) {
        out << json_document("hw", {{"design", spec.name},
                                    {"device", dev.name},
                                    {"xrt_version", hw::XrtRunner::xrt_version()},
                                    {"npu_device", res.device_name},
                                    {"buffer_objects", plan},
                                    {"outputs", checks_json(checks)},
                                    {"times", times_json(t)},
                                    {"status", pass ? "pass" : "mismatch"}})
                   .dump(2)
            << "\n";
    } else {
        for (const auto& c : checks) {
            out << fmt::format("  {}: {}\n", c.name, c.match ? "matches the reference" : "MISMATCH");
            if (!c.match) out << harness::describe_mismatches(c);
        }
        out << fmt::format("NPU time over {} runs: avg {:.1f} us, min {:.1f} us, max {:.1f} us\n", t.runs, t.avg_us,
                           t.min_us, t.max_us);
        out << "result: " << (pass ? "PASS" : "FAIL") << "\n";
    }
    return pass ? 0 : static_cast<int>(ExitCode::Mismatch);
}

// A scratch directory for the simulation's outputs, removed when done.
struct ScratchDir {
    std::filesystem::path path;
    ScratchDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "npusim-compare-XXXXXX").string();
        if (!::mkdtemp(tmpl.data())) throw std::runtime_error("compare: cannot create a scratch directory");
        path = tmpl;
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
};

int run_compare(const HwArgs& r, std::ostream& out) {
    if (r.design.empty()) throw UsageError("compare: which design? (see `npusim list`)");
    const bool recorded = !r.hw_outputs.empty();
    if (recorded && (!r.xclbin.empty() || !r.insts.empty()))
        throw UsageError("compare: give either --hw-outputs DIR (recorded outputs) or --xclbin and --insts (a run "
                         "on the NPU), not both");
    if (!recorded) require_hw_files(r);
    if (!r.hw_times.empty() && !recorded)
        throw UsageError("compare: --hw-times goes with --hw-outputs (a run on the NPU measures its own times)");
    // The recorded times first: a bad file stops the command before the simulation runs.
    std::vector<double> times;
    if (!r.hw_times.empty()) times = read_times_file(r.hw_times);
    const auto& dev = model::device_by_name(r.device);
    const auto& spec = checked_spec(r, dev);

    // 1. The simulation, its inputs and outputs saved as .npy.
    ScratchDir scratch;
    harness::RunOptions ro;
    ro.seed = r.seed;
    ro.input_files = r.input_files;
    ro.iters = r.iters;
    ro.warmup = r.warmup;
    ro.save_dir = scratch.path.string();
    ro.sim.timing = model::TimingParams::for_arch(dev.arch);
    // With no warm-up the hardware's first timed run is the new context's first command, as XRT's
    // test wrapper times it, so the simulated side pays the cold start too (as `run --cold` does).
    const bool cold = r.warmup == 0;
    ro.cold = cold;
    const auto rep = harness::run_design(spec, dev.name, r.params, ro);
    const auto& timing = ro.sim.timing;
    // Per timed run, as the hardware's times are: the average of the checked invocations' cycles.
    double cycles = 0;
    std::size_t timed = 0;
    for (const auto& inv : rep.invocations)
        if (!inv.warmup) {
            cycles += static_cast<double>(inv.cycles);
            ++timed;
        }
    if (timed == 0) cycles = static_cast<double>(rep.result.cycles), timed = 1;
    const double sim_cycles = cycles / static_cast<double>(timed);
    const double sim_array_us = sim_cycles / timing.clock_mhz;
    // The mean over the timed runs: each pays the invocation latency, the first of a cold run the
    // cold start as well.
    const double sim_npu_us = sim_array_us + timing.host_invocation_latency_us +
                              (cold ? timing.host_cold_start_us / static_cast<double>(timed) : 0.0);
    auto saved = [&](const std::string& name) { return (scratch.path / (name + ".npy")).string(); };

    // 2. The hardware's outputs: recorded, or from a run with the simulation's inputs.
    std::vector<harness::Tensor> hw_out(rep.args.size());
    std::string source;
    if (recorded) {
        source = r.hw_outputs;
        for (std::size_t i = 0; i < rep.args.size(); ++i)
            if (rep.args[i].is_checked())
                hw_out[i] = harness::NpyFile::read((std::filesystem::path(r.hw_outputs) / (rep.args[i].name + ".npy")).string());
    } else {
        source = "XRT";
        std::vector<std::vector<std::uint8_t>> inputs(rep.args.size());
        for (std::size_t i = 0; i < rep.args.size(); ++i)
            inputs[i] = rep.args[i].takes_input() ? harness::NpyFile::read(saved(rep.args[i].name)).data
                                                  : std::vector<std::uint8_t>(rep.args[i].bytes(), 0);
        nlohmann::json plan;
        auto res = run_on_npu(r, spec.name, rep.args, inputs, out, plan);
        for (std::size_t i = 0; i < rep.args.size(); ++i)
            if (rep.args[i].is_checked())
                hw_out[i] = harness::Tensor(rep.args[i].dtype, rep.args[i].shape, std::move(res.outputs.at(i)));
        times = std::move(res.times_us);
    }

    // 3. Element by element: the hardware's output against the simulation's.
    std::vector<harness::OutputCheck> checks;
    for (std::size_t i = 0; i < rep.args.size(); ++i) {
        const auto& a = rep.args[i];
        if (!a.is_checked()) continue;
        const auto sim = harness::NpyFile::read(saved(a.name));
        auto c = harness::compare_output(a, static_cast<int>(i), hw_out[i], sim, a.rtol, a.atol);
        c.expected_from = "simulation";
        checks.push_back(std::move(c));
    }
    const bool pass = std::all_of(checks.begin(), checks.end(), [](const auto& c) { return c.match; });
    const auto t = summarize_times(times);
    if (r.json) {
        nlohmann::json hwj{{"source", recorded ? "recorded" : "xrt"}, {"outputs_from", source}, {"times", times_json(t)}};
        out << json_document("compare",
                             {{"design", spec.name},
                              {"device", dev.name},
                              {"params", rep.params},
                              {"iters", r.iters},
                              {"warmup", r.warmup},
                              {"simulation",
                               {{"cycles", std::llround(sim_cycles)},
                                {"clock_mhz", timing.clock_mhz},
                                {"array_time_us", sim_array_us},
                                {"npu_time_us", sim_npu_us},
                                {"cold", cold},
                                {"host_cold_start_us", cold ? timing.host_cold_start_us : 0.0},
                                {"matches_reference", rep.all_match}}},
                              {"hardware", hwj},
                              {"outputs", checks_json(checks)},
                              {"ratio", t.runs ? nlohmann::json(t.avg_us / sim_npu_us) : nlohmann::json(nullptr)},
                              {"status", pass ? "pass" : "mismatch"}})
                   .dump(2)
            << "\n";
    } else {
        out << fmt::format("compare {} on {}: the simulation (seed {}, {} timed run{}) against the hardware ({})\n",
                           spec.name, dev.name, r.seed, r.iters, r.iters == 1 ? "" : "s", source);
        out << fmt::format("  the simulation {} its golden reference\n",
                           rep.all_match ? "matches" : "does NOT match");
        if (cold)
            out << fmt::format("  cold: no warm-up, so the first timed run is the context's first; the simulated "
                               "host time includes host_cold_start_us = {:.0f} us once in {} run{}\n",
                               timing.host_cold_start_us, timed, timed == 1 ? "" : "s");
        out << comparison_text(checks, sim_array_us, sim_npu_us, t);
        out << "result: " << (pass ? "PASS (the hardware's outputs equal the simulation's)" : "FAIL") << "\n";
    }
    return pass ? 0 : static_cast<int>(ExitCode::Mismatch);
}

void add_common(CliOptions& o, HwArgs& r) {
    o.design(r.design);
    o.value("--device", "NAME", "the device (default npu1_1col), as for run", [&r](const std::string& v) { r.device = v; });
    o.repeated("--param", "K=V", "override a design parameter (repeatable), as for run",
               [&r](const std::string& v) { parse_param(v, r.params); });
    o.value("--seed", "N", "seed of the generated inputs (default 1), as for run",
            [&r](const std::string& v) { r.seed = parse_u64(v, "--seed"); });
    o.value("--iters", "N", "timed runs (default 1); the outputs are those of the last",
            [&r](const std::string& v) { r.iters = static_cast<std::uint32_t>(parse_count(v, "--iters", 1, 1'000'000)); });
    o.value("--warmup", "W", "untimed runs before them (default 0: the first timed run is a cold start)",
            [&r](const std::string& v) { r.warmup = static_cast<std::uint32_t>(parse_count(v, "--warmup", 0, 1'000'000)); });
    o.value("--xclbin", "FILE", "the xclbin aiecc built for the design (npusim export --print-commands)",
            [&r](const std::string& v) { r.xclbin = v; });
    o.value("--insts", "FILE", "its instruction stream: insts.bin (binary) or insts.txt (one hex word per line)",
            [&r](const std::string& v) { r.insts = v; });
    o.value("--kernel", "NAME", "the xclbin's kernel, matched by prefix (default MLIR_AIE)",
            [&r](const std::string& v) { r.kernel = v; });
    o.flag("--json", "print one machine-readable result object", r.json);
}

} // namespace

TimeSummary summarize_times(const std::vector<double>& us) {
    TimeSummary t;
    t.runs = us.size();
    if (us.empty()) return t;
    t.min_us = *std::min_element(us.begin(), us.end());
    t.max_us = *std::max_element(us.begin(), us.end());
    t.avg_us = std::accumulate(us.begin(), us.end(), 0.0) / static_cast<double>(us.size());
    return t;
}

std::vector<double> read_times_file(const std::string& path) {
    std::ifstream f(path);
    if (!f) throw DesignError(fmt::format("--hw-times '{}' cannot be read", path));
    std::vector<double> v;
    std::string line;
    for (int n = 1; std::getline(f, line); ++n) {
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::replace(line.begin(), line.end(), ',', ' ');
        std::istringstream in(line);
        for (std::string word; in >> word;) {
            char* end = nullptr;
            const double x = std::strtod(word.c_str(), &end);
            if (end != word.c_str() + word.size() || !std::isfinite(x) || x < 0)
                throw DesignError(fmt::format("--hw-times '{}' line {}: '{}' is not a time in microseconds", path, n,
                                              word));
            v.push_back(x);
        }
    }
    if (v.empty()) throw DesignError(fmt::format("--hw-times '{}' holds no times", path));
    return v;
}

std::string comparison_text(const std::vector<harness::OutputCheck>& checks, double sim_array_us, double sim_npu_us,
                            const TimeSummary& hw) {
    std::size_t w = 6;
    for (const auto& c : checks) w = std::max(w, c.arg.size());
    std::string s = fmt::format("  {:<{}}  {:>10}  {:>10}  {}\n", "output", w, "elements", "mismatches", "largest |hw - sim|");
    for (const auto& c : checks) {
        std::string err = !c.error.empty() ? c.error
                          : c.is_float      ? fmt::format("{:.6g}", c.max_abs_err)
                          : c.mismatches    ? "(integers: see below)"
                                            : "0";
        s += fmt::format("  {:<{}}  {:>10}  {:>10}  {}\n", c.arg, w, c.elements, c.mismatches, err);
    }
    for (const auto& c : checks)
        if (!c.match && c.error.empty()) s += fmt::format("  {} differs:\n{}", c.arg, harness::describe_mismatches(c, "    "));
    s += fmt::format("  time       simulated: array {:.2f} us, as a host times it {:.2f} us\n", sim_array_us, sim_npu_us);
    if (hw.runs)
        s += fmt::format("             measured over {} run{}: avg {:.2f} us, min {:.2f} us, max {:.2f} us; "
                         "measured / simulated = {:.2f}\n",
                         hw.runs, hw.runs == 1 ? "" : "s", hw.avg_us, hw.min_us, hw.max_us, hw.avg_us / sim_npu_us);
    else
        s += "             measured: no times recorded (--hw-times FILE gives them)\n";
    return s;
}

Command add_hw_command(CLI::App& app, std::ostream& out) {
    auto* sub = add_command(app,
        "hw", "  npusim hw DESIGN --xclbin F --insts F [--iters N --warmup W] [options]\n"
              "                                 run the design on an NPU through XRT with the inputs `run` would\n"
              "                                 give it and check its outputs against the golden reference\n"
              "                                 (docs/hardware.md; exit 6 without an NPU)");
    auto r = std::make_shared<HwArgs>();
    r->cmd = "hw";
    auto o = std::make_shared<CliOptions>(*sub, "hw", "hw options");
    add_common(*o, *r);
    return {sub, [r, o, &out] {
                o->apply();
                return run_hw(*r, out);
            }};
}

Command add_compare_command(CLI::App& app, std::ostream& out) {
    auto* sub = add_command(app,
        "compare", "  npusim compare DESIGN (--xclbin F --insts F | --hw-outputs DIR [--hw-times FILE]) [options]\n"
                   "                                 the simulation and the hardware with the same inputs: every output\n"
                   "                                 element by element, simulated beside measured times");
    auto r = std::make_shared<HwArgs>();
    r->cmd = "compare";
    auto o = std::make_shared<CliOptions>(*sub, "compare", "compare options");
    add_common(*o, *r);
    o->repeated("--input", "NAME=FILE", "read input argument NAME from a .npy file (repeatable), as for run",
                [r](const std::string& kv) { parse_named_file(kv, "--input", r->input_files); });
    o->value("--hw-outputs", "DIR",
             "the hardware's outputs recorded as NAME.npy (as `run --save-outputs` names them) instead of a run on "
             "the NPU",
             [r](const std::string& v) { r->hw_outputs = v; });
    o->value("--hw-times", "FILE", "with --hw-outputs: the measured times of the runs, in microseconds",
             [r](const std::string& v) { r->hw_times = v; });
    return {sub, [r, o, &out] {
                o->apply();
                return run_compare(*r, out);
            }};
}

} // namespace npusim::tools

#include "InfoCommands.hpp"

#include "CliSupport.hpp"
#include "HelpFormatter.hpp"
#include "JsonDocument.hpp"
#include "RunArgs.hpp"

#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/NpyFile.hpp"
#include "npusim/model/TimingParams.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace npusim::tools {

namespace {

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

} // namespace

Command add_list_command(CLI::App& app, std::ostream& out) {
    return add_listing(app, "list", "  npusim list                    designs available, one line each", out, cmd_list);
}

Command add_devices_command(CLI::App& app, std::ostream& out) {
    return add_listing(app, "devices", "  npusim devices                 devices and their resources", out,
                       cmd_devices);
}

Command add_args_command(CLI::App& app, std::ostream& out) {
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

Command add_timing_command(CLI::App& app, std::ostream& out) {
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

Command add_help_command(CLI::App& app, std::ostream& out) {
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

Command add_version_command(CLI::App& app, std::ostream& out) {
    auto* sub = app.add_subcommand("version")->group("");
    auto o = std::make_shared<CliOptions>(*sub, "version", "version options");
    return {sub, [o, &out] {
                o->apply();
                out << "npusim " << npusim_version() << "\n";
                return 0;
            }};
}

} // namespace npusim::tools

#include "ExportCommand.hpp"

#include "CliSupport.hpp"
#include "JsonDocument.hpp"
#include "OutputPaths.hpp"

#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignSpec.hpp"
#include "npusim/iron.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <regex>
#include <set>

namespace npusim::tools {

namespace {

struct ExportArgs {
    std::string design;
    std::string device = "npu1_1col";
    harness::Params params;
    std::uint64_t seed = 1;
    iron::ExportOptions opts;
    std::string output;
    bool print_commands = false;
    bool chess = false;
    bool full_elf = false;
    bool json = false;
    ExportArgs() { opts.refuse_unknown_link_with = true; } // a kernel the design lacks is a typo
};

} // namespace

std::string build_commands(const std::string& mlir, const std::string& mlir_file, const std::string& device, bool chess,
                           bool full_elf, iron::AllocScheme alloc_scheme) {
    const bool npu2 = device.starts_with("npu2");
    const std::string arch = npu2 ? "aie2p" : "aie2";
    std::string out = fmt::format("# Build {} for {} ({}) with mlir-aie's toolchain.\n", mlir_file, device, arch);
    // One compile per distinct link_with object, in declaration order.
    std::set<std::string> seen;
    const std::regex link(R"re(link_with = "([^"]+)")re");
    bool any = false;
    for (std::sregex_iterator it(mlir.begin(), mlir.end(), link), end; it != end; ++it) {
        const std::string obj = (*it)[1].str();
        if (!seen.insert(obj).second) continue;
        if (!any) out += "# 1. kernels: compile each kernel source into the object its func.func links with\n";
        any = true;
        const std::string src = std::filesystem::path(obj).replace_extension(".cc").string();
        if (chess) // makefile-common CHESSCCWRAP2_FLAGS / CHESSCCWRAP2P_FLAGS
            out += fmt::format("xchesscc_wrapper {} -I ${{AIETOOLS_DIR}}/include -c {} -o {}\n", arch, src, obj);
        else // makefile-common PEANOWRAP2_FLAGS / PEANOWRAP2P_FLAGS
            out += fmt::format("${{PEANO_INSTALL_DIR}}/bin/clang++ -O2 -std=c++20 --target={}-none-unknown-elf "
                               "-Wno-parentheses -Wno-attributes -Wno-macro-redefined -Wno-empty-body "
                               "-Wno-missing-template-arg-list-after-template-kw -DNDEBUG -I ${{MLIR_AIE_DIR}}/include "
                               "-D__AIE_API_AIE_ADF_HPP__ -c {} -o {}\n",
                               arch, src, obj);
    }
    const std::string prj = std::filesystem::path(mlir_file).stem().string() + ".prj";
    out +=
        fmt::format("# {}. the design: aiecc places the logical tiles, lowers the objectfifos and links the kernels\n",
                    any ? 2 : 1);
    // python/utils/compile/utils.py _run_aiecc (HEAD, --get-* flags since #3364).
    out += fmt::format("aiecc {} {}", mlir_file,
                       chess ? "--unified --xchesscc --xbridge" : "--peano=${PEANO_INSTALL_DIR}");
    if (full_elf)
        out += " --get-full-elf --full-elf-name=design.elf";
    else
        out += " --get-npu-insts --npu-insts-name=insts.bin --get-xclbin --xclbin-name=final.xclbin";
    if (alloc_scheme != iron::AllocScheme::Default)
        out += fmt::format(" --alloc-scheme={}", iron::alloc_scheme_name(alloc_scheme));
    out += fmt::format(" --tmpdir={} --output-dir={}\n", prj, prj);
    return out;
}

namespace {

int run_export(const ExportArgs& r, std::ostream& out) {
    const auto& spec = harness::design_by_name(r.design);
    const auto& dev = model::device_by_name(r.device);
    if (!r.output.empty()) check_output_file("-o", r.output); // before building the design
    if (std::find(spec.devices.begin(), spec.devices.end(), dev.name) == spec.devices.end())
        throw DesignError(fmt::format("design '{}' does not run on {} (devices: {})", spec.name, dev.name,
                                      fmt::join(spec.devices, ", ")));
    const auto params = spec.resolve_params(r.params);
    auto inst = spec.build(dev, params, harness::BuildOptions(r.seed, harness::KernelSet::reference));
    // Resolved as a run resolves the design: with its own allocation scheme.
    auto opts = r.opts;
    opts.resolve.alloc_scheme = spec.alloc_scheme;
    const std::string mlir = iron::export_mlir(inst.program, opts);
    if (!r.output.empty()) {
        std::ofstream f(r.output);
        f << mlir;
        f.close();
        if (!f) throw FileError(fmt::format("cannot write -o '{}': {}", r.output, std::strerror(errno)));
    }
    const std::string commands =
        r.print_commands
            ? build_commands(mlir, r.output.empty() ? r.design + ".mlir" : r.output, dev.name, r.chess, r.full_elf,
                             spec.alloc_scheme)
            : std::string();
    if (r.json) { // the module and the commands as fields of one document (docs/json.md)
        nlohmann::json j{{"design", spec.name},
                         {"device", dev.name},
                         {"params", nlohmann::json::object()},
                         {"generic", r.opts.generic},
                         {"module", mlir},
                         {"output", r.output.empty() ? nlohmann::json() : nlohmann::json(r.output)},
                         {"commands", r.print_commands ? nlohmann::json(commands) : nlohmann::json()}};
        for (const auto& [k, v] : params) { // a named parameter (dtype_in=i8) by its name, others as numbers
            const auto p = std::find_if(spec.params.begin(), spec.params.end(),
                                        [&k = k](const harness::ParamSpec& x) { return x.name == k; });
            j["params"][k] = p != spec.params.end() && p->named() ? nlohmann::json(p->value_str(v)) : nlohmann::json(v);
        }
        out << json_document("export", std::move(j)).dump(2) << "\n";
    } else if (r.print_commands)
        out << commands;
    else if (r.output.empty())
        out << mlir;
    return 0;
}

} // namespace

Command add_export_command(CLI::App& app, std::ostream& out) {
    auto* sub = add_command(app,
        "export", "  npusim export DESIGN [--device D] [--param K=V ...] [--link-with KERNEL=FILE.o ...] [-o FILE]\n"
                  "                                 the AIE-dialect MLIR module IRON would print for the design (stdout\n"
                  "                                 without -o), or the commands that build it (docs/export.md)");
    auto r = std::make_shared<ExportArgs>();
    auto o = std::make_shared<CliOptions>(*sub, "export", "export options");
    o->design(r->design);
    o->value("--device", "NAME", "the device (default npu1_1col), as for run",
             [r](const std::string& v) { r->device = v; });
    o->repeated("--param", "K=V", "override a design parameter (repeatable), as for run",
                [r](const std::string& v) { parse_param(v, r->params); });
    o->repeated("--link-with", "KERNEL=FILE.o",
                "the object file kernel KERNEL's func.func links with (repeatable; a kernel not listed links with KERNEL.o)",
                [r](const std::string& kv) {
                    const auto eq = kv.find('=');
                    if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size())
                        throw UsageError(fmt::format("--link-with expects KERNEL=FILE.o, got '{}'", kv));
                    r->opts.link_with[kv.substr(0, eq)] = kv.substr(eq + 1);
                });
    o->value("-o", "FILE", "write the module to FILE instead of stdout",
             [r](const std::string& v) { r->output = output_name("-o", v); });
    o->flag("--generic",
            "every op in MLIR's generic form: mlir-opt --allow-unregistered-dialect reads it, but its verifier "
            "cannot find the callee of a kernel call (a func.call inside the unregistered aie.core): check "
            "those calls otherwise, as docs/export.md shows",
            r->opts.generic);
    o->flag("--print-commands",
            "print the Peano (or xchesscc) and aiecc commands that build the module instead of the module", 
            r->print_commands);
    o->flag("--chess", "with --print-commands: compile the kernels with xchesscc instead of Peano", r->chess);
    o->flag("--full-elf", "with --print-commands: aiecc builds one full ELF instead of an xclbin and instructions",
            r->full_elf);
    o->flag("--json",
            "print one JSON object holding the module (and with --print-commands the commands) instead of the text",
            r->json);
    return {sub, [r, o, &out] {
                o->apply();
                if (r->design.empty()) throw UsageError("export: which design? (see `npusim list`)");
                if ((r->chess || r->full_elf) && !r->print_commands)
                    throw UsageError(
                        "export: --chess and --full-elf choose what --print-commands prints; give --print-commands");
                return run_export(*r, out);
            }};
}

} // namespace npusim::tools

#include "ExportCommand.hpp"

#include "CliSupport.hpp"

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
};

ExportArgs parse_export(const std::vector<std::string>& a) {
    ExportArgs r;
    OptionReader opts(a, 1);
    while (const auto next = opts.next()) {
        const std::string& s = *next;
        if (s == "--device") {
            r.device = opts.value();
        } else if (s == "--param") {
            parse_param(opts.value(), r.params);
        } else if (s == "--link-with") {
            const std::string kv = opts.value();
            const auto eq = kv.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size())
                throw UsageError(fmt::format("--link-with expects KERNEL=FILE.o, got '{}'", kv));
            r.opts.link_with[kv.substr(0, eq)] = kv.substr(eq + 1);
        } else if (s == "-o") {
            r.output = opts.value();
            if (r.output.empty()) throw UsageError("-o needs a file name");
        } else if (s == "--generic") {
            r.opts.generic = true;
        } else if (s == "--print-commands") {
            r.print_commands = true;
        } else if (s == "--chess") {
            r.chess = true;
        } else if (s == "--full-elf") {
            r.full_elf = true;
        } else if (!s.empty() && s[0] == '-') {
            throw UsageError(fmt::format("export: unknown option '{}'", s));
        } else if (r.design.empty()) {
            r.design = s;
        } else {
            throw UsageError(fmt::format("export: unexpected argument '{}'", s));
        }
    }
    if (r.design.empty()) throw UsageError("export: which design? (see `npusim list`)");
    if ((r.chess || r.full_elf) && !r.print_commands)
        throw UsageError("export: --chess and --full-elf choose what --print-commands prints; give --print-commands");
    return r;
}

} // namespace

std::string build_commands(const std::string& mlir, const std::string& mlir_file, const std::string& device, bool chess,
                           bool full_elf) {
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
    out += fmt::format(" --tmpdir={} --output-dir={}\n", prj, prj);
    return out;
}

int cmd_export(const std::vector<std::string>& args, std::ostream& out) {
    const ExportArgs r = parse_export(args);
    const auto& spec = harness::design_by_name(r.design);
    const auto& dev = model::device_by_name(r.device);
    if (std::find(spec.devices.begin(), spec.devices.end(), dev.name) == spec.devices.end())
        throw DesignError(fmt::format("design '{}' does not run on {} (devices: {})", spec.name, dev.name,
                                      fmt::join(spec.devices, ", ")));
    const auto params = spec.resolve_params(r.params);
    auto inst = spec.build(dev, params, harness::BuildOptions(r.seed, harness::KernelSet::reference));
    const std::string mlir = iron::export_mlir(inst.program, r.opts);
    if (!r.output.empty()) {
        std::ofstream f(r.output);
        f << mlir;
        f.close();
        if (!f) throw std::runtime_error(fmt::format("cannot write -o '{}': {}", r.output, std::strerror(errno)));
    }
    if (r.print_commands)
        out << build_commands(mlir, r.output.empty() ? r.design + ".mlir" : r.output, dev.name, r.chess, r.full_elf);
    else if (r.output.empty())
        out << mlir;
    return 0;
}

} // namespace npusim::tools

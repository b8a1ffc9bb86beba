// check_upstream_kernel SOURCE aie2|aie2p [-I<dir>]... [FLAG]...: builds one kernel source with the
// run-time kernel compiler (harness/KernelCompiler.hpp) for a generation, with the include dirs and
// compile flags given, then drives every entry point KernelDrivers knows that the library exports.
// Prints "compiled yes|no" (before driving, so a kernel that crashes the driver still shows as
// compiled), then one tab-separated line: "result", what driving found, the first missing AIE-API
// piece, the compiler's first error. Used by tools/check-upstream-kernels.sh; exit code 0 unless
// the arguments are wrong (2) or a kernel crashed.
#include "KernelDrivers.hpp"
#include "npusim/harness/KernelCompiler.hpp"

#include <aie_api/aie.hpp>
#include <cstdio>
#include <dlfcn.h>
#include <exception>
#include <filesystem>
#include <fmt/format.h>
#include <string>
#include <vector>

namespace {

using EnterFn = void (*)(unsigned, unsigned, npusim::aie_api::CascadePutHook, npusim::aie_api::CascadeGetHook,
                         npusim::aie_api::StreamPutHook, npusim::aie_api::StreamGetHook, npusim::aie_api::EventHook);
EnterFn g_enter = nullptr;
// The hardware's reset modes (floor, no saturation), no cascade or stream, in the library's host layer.
void reset_modes() { g_enter(0, 0, nullptr, nullptr, nullptr, nullptr, nullptr); }

// The C entry points the library exports (`nm -D --defined-only`: defined text symbols that are not
// C++-mangled, not the run-time compiler's npusim_* hooks and not the loader's _init / _fini), so a
// build nothing drives says what it leaves undriven.
std::vector<std::string> exported_entries(const std::filesystem::path& so) {
    std::vector<std::string> out;
    const std::string cmd = fmt::format("nm -D --defined-only --format=posix '{}' 2>/dev/null", so.string());
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return out;
    char line[1024];
    while (std::fgets(line, sizeof line, p)) {
        char name[512] = {};
        char type = 0;
        if (std::sscanf(line, "%511s %c", name, &type) != 2 || (type != 'T' && type != 'W')) continue;
        const std::string n = name;
        if (n.starts_with("_Z") || n.starts_with("npusim_") || n == "_init" || n == "_fini") continue;
        out.push_back(n);
    }
    ::pclose(p);
    return out;
}

std::string one_line(std::string s) {
    for (auto& c : s)
        if (c == '\t' || c == '\n') c = ' ';
    return s;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3 || (std::string(argv[2]) != "aie2" && std::string(argv[2]) != "aie2p")) {
        std::fprintf(stderr, "usage: check_upstream_kernel SOURCE aie2|aie2p [-I<dir>]... [FLAG]...\n");
        return 2;
    }
    npusim::harness::HostKernelSpec spec;
    spec.source_file = argv[1];
    spec.arch = std::string(argv[2]) == "aie2" ? npusim::model::Arch::AIE2 : npusim::model::Arch::AIE2P;
    npusim::kernel_check::BuildFacts facts;
    facts.aie2p = spec.arch == npusim::model::Arch::AIE2P;
    facts.source = std::filesystem::path(argv[1]).filename().string();
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.starts_with("-I"))
            spec.include_dirs.push_back(a.substr(2));
        else
            spec.compile_flags.push_back(a);
        if (a.starts_with("-DBIT_WIDTH=")) facts.bit_width = std::stoi(a.substr(12));
        if (a.starts_with("-DDIM_M=")) facts.dim_m = std::stoi(a.substr(8));
        if (a.starts_with("-DDIM_K=")) facts.dim_k = std::stoi(a.substr(8));
        if (a.starts_with("-DDIM_N=")) facts.dim_n = std::stoi(a.substr(8));
        if (a == "-DB_COL_MAJ") facts.b_col_maj = true;
        if (a == "-DC_COL_MAJ") facts.c_col_maj = true;
        if (a == "-DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16") facts.bf16_via_bfp16 = true;
    }
    npusim::harness::HostKernelLibrary lib;
    try {
        lib = npusim::harness::build_host_kernel(spec);
    } catch (const std::exception& e) {
        fmt::print("compiled no\nresult\tnot driven\t\t{}\n", one_line(e.what()));
        return 0;
    }
    if (!lib.ok) {
        fmt::print("compiled no\nresult\tnot driven\t{}\t{}\n", one_line(lib.missing_piece), one_line(lib.first_error));
        return 0;
    }
    fmt::print("compiled yes\n");
    std::fflush(stdout);
    g_enter = reinterpret_cast<EnterFn>(::dlsym(lib.handle, "npusim_jit_enter"));
    facts.connect_cascade = [](npusim::aie_api::CascadePutHook put, npusim::aie_api::CascadeGetHook get) {
        g_enter(0, 0, put, get, nullptr, nullptr, nullptr);
    };
    const auto driven = npusim::kernel_check::drive_all(lib.handle, facts, &reset_modes);
    std::string result = driven.empty() ? "not driven" : "exact";
    if (driven.empty()) {
        const auto entries = exported_entries(lib.library);
        std::string list;
        for (const auto& e : entries) list += (list.empty() ? "" : " ") + e;
        result += entries.empty() ? " (exports no entry point with these flags)" : fmt::format(" (exports {})", list);
    }
    std::string names;
    for (const auto& d : driven) {
        names += (names.empty() ? "" : " ") + d.name;
        if (!d.mismatch.empty() && result == "exact") result = fmt::format("MISMATCH {}: {}", d.name, d.mismatch);
    }
    if (result == "exact") result += fmt::format(" ({})", names);
    fmt::print("result\t{}\t\t\n", one_line(result));
    return 0;
}

// The run-time kernel compiler (KernelCompiler.hpp): the cache, the three compiler runs of a build
// (the source's translation unit, the support unit, the link) and the ExternalBuild of a function.
#include "npusim/harness/KernelCompiler.hpp"

#include "HostCompile.hpp"
#include "WorkerLibraries.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/model/CoreServices.hpp"
#include "npusim/model/Error.hpp"

#include <aie_api/aie.hpp>
#include <atomic>
#include <cstdlib>
#include <deque>
#include <dlfcn.h>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <sstream>
#include <unistd.h>

namespace npusim::harness {

namespace fs = std::filesystem;
using detail::ContentHash;

namespace {

constexpr std::string_view kFormat = "npusim-kernel-cache-1";

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep))
        if (!cur.empty()) out.push_back(cur);
    return out;
}

struct State {
    std::mutex mutex; // one build at a time per process (the cache is shared between processes)
    KernelCompilerStats stats;
    std::map<std::string, std::string> compiler_ids; // command -> path and --version
    std::deque<iron::ExternalBuild> builds; // stable pointers
    std::map<std::string, const iron::ExternalBuild*> by_key;
    std::atomic<unsigned> counter{0};
};
State& state() {
    static State s;
    return s;
}

// The compiler's identity for the key: its command and the first line of --version.
std::string compiler_id(const std::vector<std::string>& cxx) {
    auto& s = state();
    const auto cmd = fmt::format("{}", fmt::join(cxx, " "));
    if (auto it = s.compiler_ids.find(cmd); it != s.compiler_ids.end()) return it->second;
    auto argv = cxx;
    argv.push_back("--version");
    std::string out;
    if (detail::run_command(argv, out) != 0)
        throw std::runtime_error(fmt::format("cannot run the C++ compiler '{}' ({}); set CXX to a C++20 compiler",
                                             cmd, first_compiler_error(out)));
    return s.compiler_ids[cmd] = cmd + "\n" + out.substr(0, out.find('\n'));
}

// Every file the build read, with its content hash: "hash path" lines.
std::string manifest_of(const std::vector<fs::path>& deps, const fs::path& skip_dir) {
    std::map<std::string, std::string> lines;
    for (const auto& d : deps) {
        const auto abs = fs::absolute(d).lexically_normal();
        const auto rel = abs.lexically_relative(skip_dir);
        if (!rel.empty() && *rel.begin() != "..") continue; // the generated files: in the key already
        lines[abs.string()] = ContentHash().add(detail::read_text(abs)).hex();
    }
    std::string out;
    for (const auto& [path, hash] : lines) out += hash + " " + path + "\n";
    return out;
}

bool manifest_current(const fs::path& entry) {
    std::error_code ec;
    if (!fs::exists(entry / "manifest", ec)) return false;
    std::istringstream in(detail::read_text(entry / "manifest"));
    std::string line;
    while (std::getline(in, line)) {
        const auto sp = line.find(' ');
        if (sp == std::string::npos) return false;
        const fs::path p = line.substr(sp + 1);
        if (!fs::exists(p, ec)) return false;
        if (ContentHash().add(detail::read_text(p)).hex() != line.substr(0, sp)) return false;
    }
    return fs::exists(entry / "library", ec);
}

// The library file an entry holds (its name is unique per build, so dlopen never returns an
// older build of the same key that this process loaded before).
fs::path entry_library(const fs::path& entry) {
    const auto name = detail::read_text(entry / "library");
    return entry / name.substr(0, name.find('\n'));
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    if (from.empty()) return s;
    for (std::size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
    return s;
}

} // namespace

fs::path kernel_cache_dir() {
    if (auto d = env("NPUSIM_CACHE_DIR"); !d.empty()) return d;
    if (auto d = env("XDG_CACHE_HOME"); !d.empty()) return fs::path(d) / "npusim";
    if (auto d = env("HOME"); !d.empty()) return fs::path(d) / ".cache" / "npusim";
    return fs::temp_directory_path() / "npusim-cache";
}

std::vector<std::string> host_compiler_command() {
    if (auto c = split(env("CXX"), ' '); !c.empty()) return c;
    std::error_code ec;
    if (fs::exists(NPUSIM_JIT_BUILD_CXX, ec)) return {NPUSIM_JIT_BUILD_CXX};
    return {"g++"};
}

std::vector<std::string> host_kernel_flags(model::Arch arch) {
    // mlir-aie python/utils/compile/utils.py:312-330 (Peano's flags) and the generation's
    // __AIE_ARCH__, which Peano's --target=aie2 / aie2p implies and the AIE API reads. Peano's driver
    // force-includes its intrinsics header, whose <stdint.h>, scalar names and chess_* spellings
    // every source may use before its first include; npusim_aie_base.hpp is their counterpart (not
    // the AIE API: a source using aie:: includes aie.hpp, as under Peano).
    return {"-std=c++20", "-O2", "-DNDEBUG", "-D__AIE_API_AIE_ADF_HPP__",
            arch == model::Arch::AIE2 ? "-D__AIE_ARCH__=20" : "-D__AIE_ARCH__=21", "-fPIC", "-include",
            "npusim_aie_base.hpp"};
}

std::vector<fs::path> aie_api_include_dirs() {
    std::vector<fs::path> out;
    if (auto e = env("NPUSIM_AIE_API_INCLUDE"); !e.empty()) {
        for (const auto& d : split(e, ':')) out.emplace_back(d);
        return out;
    }
    std::error_code ec;
    for (const auto* set : {NPUSIM_JIT_BUILD_INCLUDE, NPUSIM_JIT_INSTALL_INCLUDE}) {
        out.clear();
        for (const auto& d : split(set, '|')) out.emplace_back(d);
        if (!out.empty() && fs::exists(out.front() / "aie_api" / "aie.hpp", ec)) return out;
    }
    return out;
}

KernelCompilerStats kernel_compiler_stats() {
    auto& s = state();
    std::lock_guard lock(s.mutex);
    return s.stats;
}

HostKernelLibrary build_host_kernel(const HostKernelSpec& spec) {
    auto& s = state();
    std::lock_guard lock(s.mutex);
    const auto cxx = host_compiler_command();
    const auto host_dirs = aie_api_include_dirs();
    std::vector<std::string> flags = host_kernel_flags(spec.arch);
    for (const auto& d : host_dirs) flags.push_back("-I" + d.string());
    for (const auto& d : spec.include_dirs) flags.push_back("-I" + fs::absolute(d).lexically_normal().string());
    flags.insert(flags.end(), spec.compile_flags.begin(), spec.compile_flags.end());

    ContentHash key;
    key.add(kFormat).add(compiler_id(cxx));
    for (const auto& f : flags) key.add(f);
    for (const auto& n : spec.names) key.add("name").add(n);
    for (const auto& [n, types] : spec.signatures) {
        key.add("signature").add(n);
        for (const auto& t : types) key.add(t);
    }
    std::optional<fs::path> source;
    if (spec.source_file) {
        source = fs::absolute(*spec.source_file).lexically_normal();
        key.add("file").add(source->string()).add(detail::read_text(*source));
    } else {
        key.add("string").add(spec.source_string.value_or(""));
    }
    const auto root = kernel_cache_dir() / "kernels";
    const auto entry = root / key.hex();
    HostKernelLibrary result;

    std::error_code ec;
    if (manifest_current(entry)) {
        result.ok = true;
        result.from_cache = true;
        result.library = entry_library(entry);
        ++s.stats.cache_hits;
    } else {
        fs::create_directories(root, ec);
        if (ec) throw std::runtime_error(fmt::format("cannot create the kernel cache {}: {}", root.string(), ec.message()));
        const auto tmp = root / fmt::format(".tmp-{}-{}-{}", key.hex(), ::getpid(), s.counter++);
        fs::remove_all(tmp, ec);
        fs::create_directories(tmp);
        const auto cleanup = [&] { fs::remove_all(tmp, ec); };
        const fs::path src = source ? *source : tmp / "source_string.cc";
        if (!source) detail::write_text(src, *spec.source_string);
        fs::path unit = src;
        if (!spec.names.empty()) {
            unit = tmp / "npusim_jit_wrapper.cpp";
            detail::write_text(unit, detail::wrapper_source(src, spec.names));
        }
        detail::write_text(tmp / "npusim_jit_support.cpp", detail::support_source());
        const auto lib_name = fmt::format("lib-{}-{}.so", ::getpid(), s.counter++);
        const auto run = [&](std::vector<std::string> args) {
            auto argv = cxx;
            argv.insert(argv.end(), args.begin(), args.end());
            std::string out;
            const int rc = detail::run_command(argv, out);
            result.output += replace_all(out, tmp.string() + "/", "");
            return rc == 0;
        };
        std::vector<std::string> support_flags = host_kernel_flags(spec.arch);
        for (const auto& d : host_dirs) support_flags.push_back("-I" + d.string());
        auto unit_args = flags;
        unit_args.insert(unit_args.end(), {"-c", unit.string(), "-o", (tmp / "unit.o").string(), "-MD", "-MF",
                                           (tmp / "unit.d").string()});
        support_flags.insert(support_flags.end(), {"-c", (tmp / "npusim_jit_support.cpp").string(), "-o",
                                                   (tmp / "support.o").string(), "-MD", "-MF",
                                                   (tmp / "support.d").string()});
        ++s.stats.compiles;
        bool unit_ok = run(unit_args);
        if (!unit_ok && !spec.signatures.empty() && unit != src &&
            result.output.find("overloaded function") != std::string::npos) {
            // &name is an overload set (a template kernel beside its extern "C" entry): take the
            // overload of the declared types instead; the first attempt's messages are dropped
            result.output.clear();
            detail::write_text(unit, detail::wrapper_source(src, spec.names, spec.signatures));
            unit_ok = run(unit_args);
        }
        const bool ok = unit_ok && run(support_flags) &&
                        run({"-shared", (tmp / "unit.o").string(), (tmp / "support.o").string(), "-o",
                             (tmp / lib_name).string()});
        if (!ok) {
            cleanup();
            result.first_error = first_compiler_error(result.output);
            result.missing_piece = missing_aie_piece(result.output);
            return result;
        }
        auto deps = detail::parse_depfile(detail::read_text(tmp / "unit.d"));
        const auto more = detail::parse_depfile(detail::read_text(tmp / "support.d"));
        deps.insert(deps.end(), more.begin(), more.end());
        detail::write_text(tmp / "manifest", manifest_of(deps, tmp));
        detail::write_text(tmp / "library", lib_name + "\n");
        for (const auto* f : {"unit.o", "support.o", "unit.d", "support.d"}) fs::remove(tmp / f, ec);
        // publish: rename the finished folder into place; a stale entry is moved aside first, and
        // an entry another process published meanwhile is used as it is
        fs::rename(tmp, entry, ec);
        if (ec && manifest_current(entry)) {
            cleanup();
            ec.clear();
        } else if (ec) {
            const auto stale = root / fmt::format(".stale-{}-{}-{}", key.hex(), ::getpid(), s.counter++);
            std::error_code ec2;
            fs::rename(entry, stale, ec2);
            fs::rename(tmp, entry, ec);
            fs::remove_all(stale, ec2);
        }
        result.ok = true;
        // the published entry, or (when it could not be published) the build where it was made
        result.library = ec ? tmp / lib_name : entry_library(entry);
    }
    result.handle = ::dlopen(result.library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!result.handle) {
        result.ok = false;
        result.first_error = fmt::format("dlopen {}: {}", result.library.string(), ::dlerror());
    }
    return result;
}

namespace {

using EnterFn = void (*)(unsigned, unsigned, npusim::aie_api::CascadePutHook, npusim::aie_api::CascadeGetHook,
                         npusim::aie_api::StreamPutHook, npusim::aie_api::StreamGetHook, npusim::aie_api::EventHook);
using LeaveFn = void (*)(unsigned*, unsigned*);
using ParamsFn = int (*)(detail::JitParam*, int);
using InvokeFn = void (*)(const detail::JitArg*);

// Calls the library's function with the calling program's core modes and hooks installed in the
// library's copy of the host layer, and brings the modes the kernel left back.
iron::Kernel::Invoker library_invoker(EnterFn enter, LeaveFn leave, InvokeFn invoke) {
    return [enter, leave, invoke](std::span<const iron::KernelArg> args) {
        std::vector<detail::JitArg> a(args.size());
        for (std::size_t i = 0; i < args.size(); ++i)
            a[i] = {args[i].data, args[i].ivalue, args[i].fvalue, args[i].is_float ? 1 : 0};
        const auto modes = npusim::aie_api::get_core_modes();
        namespace d = npusim::aie_api::detail;
        enter(static_cast<unsigned>(modes.rounding), static_cast<unsigned>(modes.saturation),
              d::cascade_put_hook.load(), d::cascade_get_hook.load(), d::stream_put_hook.load(),
              d::stream_get_hook.load(), npusim::aie_api::get_event_hook());
        invoke(a.data());
        unsigned r = 0, sat = 0;
        leave(&r, &sat);
        npusim::aie_api::set_core_modes({static_cast<aie::rounding_mode>(r), static_cast<aie::saturation_mode>(sat)});
    };
}

template <class F>
F symbol(void* handle, const std::string& name) {
    return reinterpret_cast<F>(::dlsym(handle, name.c_str()));
}

// The message of a build that failed: the first error, and what it shows missing.
std::string compile_failure(const std::string& name, const std::string& what, const HostKernelLibrary& lib) {
    if (lib.first_error.find("npusim_jit_wrapper.cpp") != std::string::npos &&
        lib.first_error.find("'" + name + "' was not declared") != std::string::npos)
        return fmt::format("ExternalFunction '{}': {} defines no function '{}'", name, what, name);
    auto msg = fmt::format("ExternalFunction '{}': {} does not compile for the host: {}", name, what, lib.first_error);
    if (lib.first_error.find("'aie' does not name a type") != std::string::npos ||
        lib.first_error.find("'aie' has not been declared") != std::string::npos)
        msg += " (it uses aie:: without including <aie_api/aie.hpp>, which fails under Peano too: a source like "
               "mlir-aie's zero.cc is meant to be included after aie.hpp, as mm.cc includes it)";
    else if (!lib.missing_piece.empty())
        msg += fmt::format(" (it needs {}, which npusim's AIE-API host layer does not provide)", lib.missing_piece);
    return msg;
}

struct EntryPoints {
    EnterFn enter;
    LeaveFn leave;
    ParamsFn params;
    InvokeFn invoke;
};
EntryPoints entry_points(const HostKernelLibrary& lib, const std::string& name, const std::string& what) {
    const EntryPoints e{symbol<EnterFn>(lib.handle, "npusim_jit_enter"), symbol<LeaveFn>(lib.handle, "npusim_jit_leave"),
                        symbol<ParamsFn>(lib.handle, "npusim_jit_params_" + name),
                        symbol<InvokeFn>(lib.handle, "npusim_jit_invoke_" + name)};
    if (!e.enter || !e.leave || !e.params || !e.invoke)
        throw DesignError(fmt::format("ExternalFunction '{}': the library built from {} lacks npusim's entry points "
                                      "({})",
                                      name, what, lib.library.string()));
    return e;
}

// The library's function for the calling worker, in that worker's own load of the library (its
// own statics, as each core has its own copy of the kernel: WorkerLibraries.hpp).
iron::Kernel::Invoker per_worker_invoker(const HostKernelLibrary& lib, const std::string& name,
                                         const std::string& what) {
    struct Loads {
        std::mutex mutex;
        std::map<void*, iron::Kernel::Invoker> by_handle;
    };
    auto loads = std::make_shared<Loads>();
    return [loads, library = lib.library, first = lib.handle, name, what](std::span<const iron::KernelArg> args) {
        const auto* svc = model::CoreServices::current();
        void* handle = detail::worker_library(library, first, svc ? svc->worker() : std::string_view{});
        iron::Kernel::Invoker* inv = nullptr;
        {
            const std::lock_guard lock(loads->mutex);
            auto it = loads->by_handle.find(handle);
            if (it == loads->by_handle.end()) {
                HostKernelLibrary mine;
                mine.library = library;
                mine.handle = handle;
                const auto e = entry_points(mine, name, what);
                it = loads->by_handle.emplace(handle, library_invoker(e.enter, e.leave, e.invoke)).first;
            }
            inv = &it->second; // a map node: stable; one call at a time per worker
        }
        (*inv)(args);
    };
}

} // namespace

const iron::ExternalBuild* compile_external_function(const iron::ExternalCompileRequest& request) {
    HostKernelSpec spec{request.source_file ? std::optional<fs::path>(*request.source_file) : std::nullopt,
                        request.source_string,
                        {request.name},
                        {},
                        request.include_dirs,
                        request.compile_flags,
                        request.arch};
    if (!request.param_types.empty()) spec.signatures[request.name] = request.param_types;
    const std::string what = request.source_file ? *request.source_file : std::string("its source_string");
    std::error_code ec;
    if (request.source_file && !fs::is_regular_file(*request.source_file, ec))
        throw DesignError(fmt::format("ExternalFunction '{}': source_file {} does not exist (relative paths are "
                                      "taken from the working directory, {})",
                                      request.name, *request.source_file, fs::current_path(ec).string()));
    HostKernelLibrary lib;
    try {
        lib = build_host_kernel(spec);
    } catch (const std::runtime_error& e) {
        throw DesignError(fmt::format("ExternalFunction '{}': cannot compile {}: {}", request.name, what, e.what()));
    }
    if (!lib.ok) throw DesignError(compile_failure(request.name, what, lib));
    const auto params_fn = entry_points(lib, request.name, what).params;
    auto& s = state();
    std::lock_guard lock(s.mutex);
    const auto key = lib.library.string() + "\n" + request.name;
    if (auto it = s.by_key.find(key); it != s.by_key.end()) return it->second;
    std::vector<detail::JitParam> raw(64);
    const int n = params_fn(raw.data(), static_cast<int>(raw.size()));
    std::vector<iron::ExternalParam> params;
    for (int i = 0; i < n && i < static_cast<int>(raw.size()); ++i)
        params.push_back({raw[i].is_pointer != 0, raw[i].bytes, raw[i].is_floating != 0});
    std::vector<std::string> dirs;
    for (const auto& d : request.include_dirs) dirs.push_back(fs::absolute(d).lexically_normal().string());
    s.builds.push_back(iron::ExternalBuild{
        request.name, request.source_file ? fs::absolute(*request.source_file).lexically_normal().string()
                                          : std::string("<source_string>"),
        request.compile_flags, dirs, std::move(params), [lib = lib, name = request.name, what] {
            return with_aie_core_modes(per_worker_invoker(lib, name, what), make_aie_core_modes());
        }});
    return s.by_key[key] = &s.builds.back();
}

void install_kernel_compiler() { iron::set_external_compiler(&compile_external_function); }

} // namespace npusim::harness

#include "PythonCommand.hpp"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace npusim::tools {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFooter =
    "FILE runs as `python3 FILE ARGS...` would, with IRON's modules (aie.iron, aie.iron.controlflow, "
    "aie.iron.device, aie.helpers.taplib, aie.utils.verify, ...) served by npusim in that process only. "
    "Options before FILE: --device D (default npu2, the full array), --trace F.json, --vcd F.vcd, "
    "--json F (the last run's report), --max-cycles N, --core-stack BYTES. Exit codes as for `run`. See "
    "docs/python.md.";

bool has_package(const fs::path& dir) {
    std::error_code ec;
    return fs::exists(dir / "npusim" / "__init__.py", ec);
}

std::string self_exe() {
    std::error_code ec;
    const auto p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : p.string();
}

} // namespace

std::string python_package_dir(const std::string& exe) {
    if (const char* env = std::getenv("NPUSIM_PYTHONPATH"); env && *env) return env;
    if (!exe.empty()) {
        const fs::path bin = fs::path(exe).parent_path();
        const fs::path installed = bin / ".." / NPUSIM_PYTHON_INSTALL_DIR;
        if (has_package(installed)) return fs::weakly_canonical(installed).string();
    }
    if (has_package(NPUSIM_PYTHON_BUILD_DIR)) return NPUSIM_PYTHON_BUILD_DIR;
    return {};
}

Command add_python_command(CLI::App& app, std::ostream& out, std::ostream& err) {
    auto* sub = add_command(app, "python",
                            "python [OPTIONS] FILE [ARGS...]  run an IRON Python design file unchanged on the simulator",
                            kFooter);
    sub->allow_extras();
    sub->prefix_command();
    sub->set_help_flag(); // --help goes to the design's own parser (or python -m npusim's)
    return {sub, [sub, &out, &err]() -> int { return run_python(sub->remaining(), out, err); }};
}

int run_python(const std::vector<std::string>& extra, std::ostream& out, std::ostream& err) {
    out.flush();
    const std::string dir = python_package_dir(self_exe());
    if (!NPUSIM_PYTHON_AVAILABLE || dir.empty()) {
        err << "npusim python: this npusim was built without its Python module (it needs pybind11 and "
               "a python3 with numpy: tools/install-deps.sh)\n";
        return 2;
    }
    std::vector<std::string> args{NPUSIM_PYTHON_EXECUTABLE, "-m", "npusim"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const char* old = std::getenv("PYTHONPATH");
    const std::string path = dir + (old && *old ? ":" + std::string(old) : std::string());
    ::setenv("PYTHONPATH", path.c_str(), 1);
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
    if (rc != 0) {
        err << "npusim python: cannot start " << argv[0] << ": " << std::strerror(rc) << "\n";
        return 2;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    err << "npusim python: the interpreter ended with signal " << WTERMSIG(status) << "\n";
    return 5;
}

} // namespace npusim::tools

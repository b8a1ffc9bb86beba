// Per-core loads of run-time compiled kernel libraries (WorkerLibraries.hpp).
#include "WorkerLibraries.hpp"

#include <atomic>
#include <dlfcn.h>
#include <fmt/format.h>
#include <stdexcept>
#include <unistd.h>

namespace npusim::harness::detail {

namespace fs = std::filesystem;

namespace {
struct WorkerLoads {
    std::mutex mutex;
    // library -> (worker -> handle); the first worker's entry is the build's own load
    std::map<std::string, std::map<std::string, void*, std::less<>>, std::less<>> by_library;
    std::atomic<unsigned> counter{0};
};
WorkerLoads& worker_loads() {
    static WorkerLoads w;
    return w;
}
} // namespace

void* worker_library(const fs::path& library, void* first, std::string_view worker) {
    if (worker.empty()) return first;
    auto& w = worker_loads();
    const std::lock_guard lock(w.mutex);
    auto& loads = w.by_library[library.string()];
    if (auto it = loads.find(worker); it != loads.end()) return it->second;
    if (loads.empty()) return loads[std::string(worker)] = first;
    // a private copy next to the library (same file system), loaded, then removed: the mapping stays
    const auto copy = library.parent_path() /
                      fmt::format(".{}.{}-{}.so", library.stem().string(), ::getpid(), w.counter++);
    std::error_code ec;
    fs::copy_file(library, copy, fs::copy_options::overwrite_existing, ec);
    if (ec)
        throw std::runtime_error(fmt::format("cannot copy the kernel library {} for worker '{}': {}", library.string(),
                                             worker, ec.message()));
    void* handle = ::dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
    const std::string why = handle ? std::string() : std::string(::dlerror());
    fs::remove(copy, ec);
    if (!handle)
        throw std::runtime_error(fmt::format("cannot load the kernel library {} for worker '{}': {}", library.string(),
                                             worker, why));
    return loads[std::string(worker)] = handle;
}

} // namespace npusim::harness::detail

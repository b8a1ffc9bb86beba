#include "npusim/harness/HostMemory.hpp"

#include <fstream>
#include <optional>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace npusim::harness {

namespace {

// A "Key:   N kB" line of /proc/meminfo or /proc/self/status, in bytes.
std::optional<std::uint64_t> kib_field(const std::string& path, const std::string& key) {
    std::ifstream f(path);
    std::string line;
    while (std::getline(f, line)) {
        if (line.rfind(key + ":", 0) != 0) continue;
        std::istringstream in(line.substr(key.size() + 1));
        std::uint64_t kib = 0;
        if (in >> kib) return kib * 1024;
    }
    return std::nullopt;
}

// A file holding one number ("max", or v1's near-2^63 "unlimited", give nothing).
std::optional<std::uint64_t> number_file(const std::string& path) {
    std::ifstream f(path);
    std::string word;
    if (!(f >> word) || word == "max") return std::nullopt;
    try {
        std::size_t used = 0;
        const auto v = std::stoull(word, &used);
        if (used != word.size() || v >= (std::uint64_t{1} << 60)) return std::nullopt;
        return v;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

struct Tracker {
    HostMemoryLimit best;
    void offer(std::uint64_t bytes, const std::string& source) {
        if (best.source.empty() || bytes < best.bytes) best = {bytes, source};
    }
};

std::uint64_t room(std::uint64_t limit, std::uint64_t used) { return limit > used ? limit - used : 0; }

// Each level from `dir` (a group's directory under `root`) up to `root`: what `limit_file` less
// `usage_file` leaves, the smallest offered.
void offer_cgroup(Tracker& t, const std::string& root, std::string group, const char* limit_file,
                  const char* usage_file, const std::string& source) {
    for (;;) {
        const std::string dir = root + (group == "/" ? "" : group);
        if (const auto limit = number_file(dir + "/" + limit_file))
            t.offer(room(*limit, number_file(dir + "/" + usage_file).value_or(0)),
                    source + " (" + dir + "/" + limit_file + ")");
        if (group.empty() || group == "/") break;
        const auto slash = group.find_last_of('/');
        group = slash == 0 || slash == std::string::npos ? "/" : group.substr(0, slash);
    }
}

} // namespace

HostMemoryLimit host_memory_limit(const HostMemoryFiles& files) {
    Tracker t;
    if (const auto avail = kib_field(files.meminfo, "MemAvailable")) {
        t.offer(*avail, "MemAvailable");
    } else {
        const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
        if (pages > 0 && page > 0)
            t.offer(static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page), "physical memory");
    }
    if (files.rlimits) {
        rlimit rl{};
        if (::getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
            t.offer(room(rl.rlim_cur, kib_field(files.status, "VmSize").value_or(0)), "RLIMIT_AS, ulimit -v");
        if (::getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
            t.offer(room(rl.rlim_cur, kib_field(files.status, "VmData").value_or(0)), "RLIMIT_DATA, ulimit -d");
    }
    // /proc/self/cgroup: "0::/path" (v2) and "N:...memory...:/path" (v1).
    std::ifstream cg(files.cgroup);
    std::string line;
    while (std::getline(cg, line)) {
        const auto a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
        if (b == std::string::npos) continue;
        const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
        if (line.compare(0, a, "0") == 0 && controllers.empty()) {
            for (const char* mount : {"", "/unified"})
                offer_cgroup(t, files.cgroup_root + mount, path, "memory.max", "memory.current", "cgroup memory.max");
        } else {
            std::istringstream names(controllers);
            std::string name;
            while (std::getline(names, name, ','))
                if (name == "memory")
                    offer_cgroup(t, files.cgroup_root + "/memory", path, "memory.limit_in_bytes",
                                 "memory.usage_in_bytes", "cgroup memory.limit_in_bytes");
        }
    }
    return t.best;
}

} // namespace npusim::harness

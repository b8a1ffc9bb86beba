#pragma once
// How much host memory a run may still allocate: the smallest of what the machine has available
// (MemAvailable), what the process's resource limits leave (RLIMIT_AS, `ulimit -v`, less the
// address space already mapped; RLIMIT_DATA less the data segment) and what its control group
// leaves (cgroup v2 memory.max less memory.current, cgroup v1 memory.limit_in_bytes less
// memory.usage_in_bytes, at every level from the process's group to the root). A run that needs
// more is refused from its estimate (run_design) instead of ending in std::bad_alloc or the OOM
// killer.
#include <cstdint>
#include <string>

namespace npusim::harness {

struct HostMemoryLimit {
    std::uint64_t bytes = 0; ///< 0: unknown (nothing could be read)
    std::string source; ///< what set it: "MemAvailable", "RLIMIT_AS, ulimit -v", "cgroup memory.max (FILE)", ...
};

/// Where the limits are read from: the real files by default; tests point them at a fake tree.
struct HostMemoryFiles {
    std::string meminfo = "/proc/meminfo";
    std::string status = "/proc/self/status"; ///< VmSize and VmData, for the rlimits
    std::string cgroup = "/proc/self/cgroup"; ///< the process's control groups
    std::string cgroup_root = "/sys/fs/cgroup"; ///< v2 at the root or in unified/, v1 in memory/
    bool rlimits = true; ///< consult getrlimit (off in tests of the files alone)
};

/// The smallest of the limits above that apply; {0, ""} when none could be read.
HostMemoryLimit host_memory_limit(const HostMemoryFiles& files = {});

} // namespace npusim::harness

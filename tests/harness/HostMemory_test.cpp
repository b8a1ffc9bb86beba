// The host memory a run may use: the smallest of MemAvailable, RLIMIT_AS / RLIMIT_DATA and the
// cgroup's limit (v2 memory.max, v1 memory.limit_in_bytes, at every level), read from a fake
// /proc and /sys tree here, and from the real rlimits in a child process.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/HostMemory.hpp"
#include "npusim/model/Error.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace npusim;
using namespace npusim::harness;
namespace fs = std::filesystem;

namespace {

struct FakeTree {
    fs::path root = fs::temp_directory_path() / fmt::format("npusim_host_memory_{}", ::getpid());
    FakeTree() {
        fs::remove_all(root);
        fs::create_directories(root);
    }
    ~FakeTree() { fs::remove_all(root); }
    void write(const std::string& rel, const std::string& text) const {
        fs::create_directories((root / rel).parent_path());
        std::ofstream(root / rel) << text;
    }
    HostMemoryFiles files() const {
        HostMemoryFiles f;
        f.meminfo = (root / "meminfo").string();
        f.status = (root / "status").string();
        f.cgroup = (root / "cgroup").string();
        f.cgroup_root = (root / "sys").string();
        f.rlimits = false;
        return f;
    }
};

} // namespace

TEST_CASE("host memory: MemAvailable when nothing else limits", "[memory]") {
    FakeTree t;
    t.write("meminfo", "MemTotal:       32000000 kB\nMemFree:  100 kB\nMemAvailable:   20000000 kB\n");
    t.write("cgroup", "0::/\n");
    t.write("sys/memory.max", "max\n");
    const auto l = host_memory_limit(t.files());
    CHECK(l.bytes == 20000000ull * 1024);
    CHECK(l.source == "MemAvailable");
}

TEST_CASE("host memory: a cgroup v2 memory.max less memory.current, the smallest level", "[memory]") {
    FakeTree t;
    t.write("meminfo", "MemAvailable:   20000000 kB\n");
    t.write("cgroup", "0::/user/job\n");
    t.write("sys/user/job/memory.max", "2147483648\n");
    t.write("sys/user/job/memory.current", "1073741824\n");
    t.write("sys/user/memory.max", "1610612736\n");
    t.write("sys/user/memory.current", "1073741824\n"); // 512 MiB left at the parent
    const auto l = host_memory_limit(t.files());
    CHECK(l.bytes == 536870912);
    CHECK(l.source == "cgroup memory.max (" + t.files().cgroup_root + "/user/memory.max)");
}

TEST_CASE("host memory: a cgroup v1 memory.limit_in_bytes, 'unlimited' ignored", "[memory]") {
    FakeTree t;
    t.write("meminfo", "MemAvailable:   20000000 kB\n");
    t.write("cgroup", "4:memory:/box\n3:cpu,cpuacct:/box\n");
    t.write("sys/memory/box/memory.limit_in_bytes", "1073741824\n");
    t.write("sys/memory/box/memory.usage_in_bytes", "73741824\n");
    t.write("sys/memory/memory.limit_in_bytes", "9223372036854771712\n");
    const auto l = host_memory_limit(t.files());
    CHECK(l.bytes == 1000000000);
    CHECK(l.source == "cgroup memory.limit_in_bytes (" + t.files().cgroup_root + "/memory/box/memory.limit_in_bytes)");
}

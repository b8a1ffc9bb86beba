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

// Not under AddressSanitizer, whose shadow memory needs terabytes of address space.
#if !defined(__SANITIZE_ADDRESS__)
namespace {
// Runs `body` in a child process under RLIMIT_AS = (address space now) + `room`; its exit code.
template <class Fn>
int under_rlimit_as(std::uint64_t room, Fn body) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::ifstream status("/proc/self/status");
        std::string key;
        std::uint64_t vm_kib = 0;
        while (status >> key)
            if (key == "VmSize:" && status >> vm_kib) break;
        rlimit rl{vm_kib * 1024 + room, vm_kib * 1024 + room};
        if (::setrlimit(RLIMIT_AS, &rl) != 0) ::_exit(90);
        ::_exit(body());
    }
    int st = 0;
    ::waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st);
}
} // namespace

TEST_CASE("host memory: RLIMIT_AS (ulimit -v) less the address space in use", "[memory]") {
    CHECK(under_rlimit_as(256 << 20, [] {
              const auto l = host_memory_limit();
              return l.source == "RLIMIT_AS, ulimit -v" && l.bytes <= (256u << 20) && l.bytes > (128u << 20) ? 0 : 1;
          }) == 0);
}

TEST_CASE("a run too large for RLIMIT_AS is refused by the estimate, not by std::bad_alloc", "[memory][golden]") {
    // matmul 8192^3 (i16 -> i32): 512 MiB of arguments, an estimate of 1.5 GiB, under 512 MiB of room.
    CHECK(under_rlimit_as(512 << 20, [] {
              const auto t0 = std::chrono::steady_clock::now();
              try {
                  (void)run_design(design_by_name("matmul_single_core"), "npu1",
                                   {{"M", 8192}, {"K", 8192}, {"N", 8192}}, RunOptions{});
                  return 2;
              } catch (const DesignError& e) {
                  const std::string m = e.what();
                  const bool ok = m.find("its runtime arguments take 512 MiB and a run needs about 3 times that (1.5 "
                                         "GiB), more than the ") != std::string::npos &&
                                  m.find("of host memory available (RLIMIT_AS, ulimit -v)") != std::string::npos;
                  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                  return ok && s < 1.0 ? 0 : 3;
              } catch (...) {
                  return 4;
              }
          }) == 0);
}
#endif

// The host memory a run may use under RLIMIT_AS (ulimit -v), set in a child process. Not in the
// sanitizer build: AddressSanitizer's shadow memory needs terabytes of address space.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/HostMemory.hpp"
#include "npusim/model/Error.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace npusim;
using namespace npusim::harness;

namespace {
// Runs `body` in a child process under RLIMIT_AS = (address space now) + `room`; its exit code.
template <class Fn>
int run_under_rlimit_as(std::uint64_t room, Fn body) {
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
    CHECK(run_under_rlimit_as(256 << 20, [] {
              const auto l = host_memory_limit();
              return l.source == "RLIMIT_AS, ulimit -v" && l.bytes <= (256u << 20) && l.bytes > (128u << 20) ? 0 : 1;
          }) == 0);
}

TEST_CASE("a run too large for RLIMIT_AS is refused by the estimate, not by std::bad_alloc", "[memory][golden]") {
    // matmul 8192^3 (i16 -> i32): 512 MiB of arguments, an estimate of 1.5 GiB, under 512 MiB of room.
    CHECK(run_under_rlimit_as(512 << 20, [] {
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

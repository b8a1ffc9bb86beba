// What protects every simulation of `npusim run` against native design code (tools/RunGuard.hpp):
// the same options and guards for a single run, a --device list and --what-if reruns; the bounded
// --timeout; a kernel that ends the process (exit), aborts, or writes far outside its view.
#undef NDEBUG // the assert kernel below must assert in a Release build too
#include "CliRun.hpp"
#include "support/Passthrough.hpp"
#include "CliSupport.hpp"
#include "Watchdog.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/iron.hpp"

#include <atomic>
#include <cassert>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <thread>

using namespace npusim;
using npusim::test::cli;
using npusim::test::Out;

namespace {

// A 16 MiB local array touched from its top down, as a growing stack is: 0. A function of its own,
// so that only this case has the frame that needs --core-stack.
[[gnu::noinline]] int deep_stack() {
    constexpr std::size_t kBytes = 16u << 20;
    volatile char local[kBytes];
    for (std::size_t i = kBytes; i >= 4096; i -= 4096) local[i - 1] = 1;
    return local[kBytes - 1] - 1;
}

// guard_fault: in -> a worker -> out (i32[16] objects, one object), on npu1_1col and npu2; its
// kernel (param how) misbehaves natively: 0 spins, 1 uses a 16 MiB local array (needs
// --core-stack), 2 calls exit(0), 3 calls abort(), 4 fails an assert, 5 writes 64 KiB past its
// view, 6 returns normally (the run passes).
void register_fault_design() {
    static bool done = false;
    if (done) return;
    done = true;
    harness::DesignSpec s;
    s.name = "guard_fault";
    s.description = "test: a kernel that misbehaves natively";
    s.devices = {"npu1_1col", "npu2", "npu1"};
    s.params = {{"how", 6, "0 spin, 1 big stack, 2 exit(0), 3 abort, 4 assert, 5 wild write, 6 none, 7 spin on npu2"}};
    s.build = [](const model::DeviceSpec& dev, const harness::Params& p, const harness::BuildOptions&) {
        using namespace iron;
        const auto how = p.at("how") == 7 ? (dev.arch == model::Arch::AIE2P ? 0 : 6) : p.at("how");
        Kernel k(
            "faulty",
            [how](std::span<const KernelArg> a) {
                auto* y = reinterpret_cast<std::int32_t*>(a[1].data);
                std::memcpy(y, a[0].data, 64);
                switch (how) {
                case 0: {
                    volatile bool forever = true;
                    while (forever) {}
                    break;
                }
                case 1: y[0] += deep_stack(); break;
                case 2: std::exit(0);
                case 3: std::abort();
                case 4: {
                    volatile int zero = 0;
                    assert(zero == 1 && "the kernel's own check");
                    break;
                }
                case 5:
                    for (std::size_t i = 16; i < 16 + 16384; ++i) y[i] = 7; // 64 KiB past the view
                    break;
                default: break;
                }
            },
            {tensor<std::int32_t>({16}), tensor<std::int32_t>({16})}, cost::fixed(10));
        const auto t = tensor<std::int32_t>({16});
        return harness::DesignInstance(
            test::passthrough({.type = tensor<std::int32_t>({16}), .body = test::kernel_body(k),
                               .host_elements = 16, .spec = &dev, .program = "guard_fault"}), {harness::ArgSpec::input("a", t), harness::ArgSpec::output("b", t)},
            {{"a", harness::Tensor(DType::i32, {16})}},
            [](const harness::Tensors& x) {
                return harness::Tensors{{"b", x.at("a")}};
            },
            "guard_fault");
    };
    harness::register_design(s);
}

// The CLI in a child process (the guards end the process they run in): exit code, and stdout and
// stderr together.
Out child(std::vector<std::string> args) {
    register_fault_design();
    auto r = tools::run_cli_in_child(args);
    return {r.code, "", std::move(r.output)};
}

} // namespace

TEST_CASE("a --device list guards each run as a single run is: a kernel that never returns is named, exit 4",
          "[cli][timeout][guard][slow]") {
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = child({"run", "guard_fault", "--param", "how=0", "--device", "npu1_1col,npu2", "--timeout", "1"});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(r.code == 4);
    CHECK(seconds < 5.0);
    CHECK_THAT(r.err, Catch::Contains("npusim: limit reached: wall-clock limit of 1 s reached (--timeout) on "
                                      "npu1_1col: worker 'w' is running kernel 'faulty' (entered at cycle "));
    CHECK_THAT(r.err, Catch::Contains("it has not returned, so npusim stops here"));
}

TEST_CASE("a --device list with --json keeps the devices already run when the watchdog stops a later one",
          "[cli][timeout][guard][slow]") {
    // npu1_1col runs and passes; npu2's kernel never returns. The document has both rows (it had
    // only the error before), the later devices as not run, and the run_devices schema's fields.
    const auto r = child(
        {"run", "guard_fault", "--param", "how=7", "--device", "npu1_1col,npu2,npu1", "--timeout", "1", "--json"});
    CHECK(r.code == 4);
    const auto doc = nlohmann::json::parse(r.err); // stdout and stderr share the pipe; only JSON is written
    CHECK(doc["document"] == "run_devices");
    CHECK(doc["status"] == "fail");
    REQUIRE(doc["devices"].size() == 3);
    CHECK(doc["devices"][0]["device"] == "npu1_1col");
    CHECK(doc["devices"][0]["status"] == "pass");
    CHECK(doc["devices"][1]["device"] == "npu2");
    CHECK(doc["devices"][1]["status"] == "limit");
    CHECK_THAT(doc["devices"][1]["error"]["message"].get<std::string>(),
               Catch::Contains("wall-clock limit of 1 s reached (--timeout) on npu2: worker 'w' is running kernel "
                               "'faulty'"));
    CHECK(doc["devices"][2]["device"] == "npu1");
    CHECK(doc["devices"][2]["error"]["message"] == "not run: npusim stopped while running on npu2");
}

TEST_CASE("run: --core-stack applies to --what-if reruns and to every device of a list", "[cli][guard]") {
    const auto w = child({"run", "guard_fault", "--param", "how=1", "--core-stack", "67108864", "--what-if",
                          "free-kernels,ideal-locks"});
    INFO(w.err);
    CHECK(w.code == 0);
    CHECK_THAT(w.err, Catch::Contains("  free-kernels   "));
    CHECK_THAT(w.err, Catch::Contains("  ideal-locks   "));
    CHECK_THAT(w.err, !Catch::Contains("kernel error"));
    const auto d = child({"run", "guard_fault", "--param", "how=1", "--core-stack", "67108864", "--device",
                          "npu1_1col,npu2"});
    INFO(d.err);
    CHECK(d.code == 0);
    CHECK_THAT(d.err, Catch::Contains("result: PASS on every device"));
}

TEST_CASE("run: --timeout is bounded: above a week is a usage error, and a watchdog caps an overflowing wait",
          "[cli][timeout][guard]") {
    for (const char* v : {"1e19", "18446744073709551615", "604801"}) {
        const auto r = cli({"run", "passthrough_kernel", "--timeout", v});
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Catch::Contains(std::string("--timeout expects 0 (none) up to 604800 seconds (a week), got ") +
                                          v));
    }
    CHECK(cli({"run", "passthrough_kernel", "--timeout", "604800"}).code == 0);
    // A watchdog told to wait longer than the clock can count waits (its kMaxSeconds), not fires.
    for (double s : {1e19, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
        std::atomic<bool> fired{false};
        {
            tools::Watchdog w(s, [&fired] { fired = true; });
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        CHECK_FALSE(fired);
    }
}

TEST_CASE("a kernel that calls exit(0) during a run fails the run (exit 2) naming it, not a silent pass",
          "[cli][guard]") {
    const auto r = child({"run", "guard_fault", "--param", "how=2"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("npusim: kernel error: worker 'w' is running kernel 'faulty' (entered at "
                                        "cycle "));
    CHECK_THAT(r.err, Catch::Contains("and it ended the process (exit status 0) before the run finished; the run "
                                      "has no result\n"));
    const auto j = child({"run", "guard_fault", "--param", "how=2", "--json", "--device", "npu2,npu1_1col"});
    CHECK(j.code == 2);
    // The only output: the run_devices document (an error document alone before: the other
    // devices' rows were lost), npu2's row with the guard's error, npu1_1col not run.
    const auto doc = nlohmann::json::parse(j.err);
    CHECK(doc["document"] == "run_devices");
    CHECK(doc["status"] == "fail");
    REQUIRE(doc["devices"].size() == 2);
    CHECK(doc["devices"][0]["status"] == "error");
    CHECK_THAT(doc["devices"][0]["error"]["message"].get<std::string>(),
               Catch::EndsWith("ended the process (exit status 0) before the run finished (on npu2); the run has no "
                               "result"));
    CHECK(doc["devices"][1]["error"]["message"] == "not run: npusim stopped while running on npu2");
    // After the run the guard is disarmed: the CLI's own exit is not reported.
    const auto ok = child({"run", "guard_fault"});
    CHECK(ok.code == 0);
    CHECK_THAT(ok.err, !Catch::Contains("ended the process"));
}

#if !defined(__SANITIZE_ADDRESS__) // AddressSanitizer reports these faults itself
TEST_CASE("a kernel that aborts or fails an assert is a kernel error naming its worker and kernel (exit 2)",
          "[cli][guard][crash]") {
    const auto a = child({"run", "guard_fault", "--param", "how=3"});
    CHECK(a.code == 2);
    CHECK_THAT(a.err, Catch::Contains("npusim: kernel error: worker 'w' was running kernel 'faulty' (entered at cycle "));
    CHECK_THAT(a.err, Catch::Contains("and it crashed with SIGABRT (abort: a failed assert, a call to abort(), or "
                                      "the C library stopping on a corrupted heap)"));
    const auto s = child({"run", "guard_fault", "--param", "how=4", "--what-if", "free-kernels"});
    CHECK(s.code == 2);
    CHECK_THAT(s.err, Catch::Contains("the kernel's own check")); // assert's own message comes first
    CHECK_THAT(s.err, Catch::Contains("worker 'w' was running kernel 'faulty'"));
    CHECK_THAT(s.err, Catch::Contains("crashed with SIGABRT"));
}

TEST_CASE("a kernel writing 64 KiB past its view faults in the kernel, which is named, with or without the memory "
          "check",
          "[cli][guard][crash][memory]") {
    for (bool check : {true, false}) {
        std::vector<std::string> args{"run", "guard_fault", "--param", "how=5"};
        if (!check) args.push_back("--no-memory-check");
        const auto r = child(args);
        INFO(r.err);
        CHECK(r.code == 2);
        CHECK_THAT(r.err,
                   Catch::Contains("npusim: kernel error: worker 'w' was running kernel 'faulty' (entered at cycle "));
        CHECK_THAT(r.err, Catch::Contains("crashed with SIGSEGV (invalid memory access) at an address far outside "
                                          "the tile memory it was given (beyond the guard zones the memory check "
                                          "watches)"));
    }
}
#endif

TEST_CASE("run: --core-stack's advertised maximum (1 GiB) runs, and above it is npusim's usage error, not SystemC's",
          "[cli][guard]") {
    const auto ok = cli({"run", "passthrough_kernel", "--core-stack", "1073741824"});
    CHECK(ok.code == 0);
    const auto big = cli({"run", "passthrough_kernel", "--core-stack", "2147483648"});
    CHECK(big.code == 2);
    CHECK_THAT(big.err, Catch::Contains("--core-stack expects 1048576 up to 1073741824 bytes (1 GiB), got 2147483648"));
    CHECK_THAT(big.err, !Catch::Contains("E518"));
}

TEST_CASE("run: --timeout on a slow run that still moves data says limit reached with the progress, not livelock",
          "[cli][timeout][limit]") {
    const auto r = cli({"run", "passthrough_kernel", "--param", "size=16777216", "--param", "tile=4096", "--timeout",
                        "0.002"});
    REQUIRE(r.code == 4);
    CHECK_THAT(r.err, Catch::StartsWith("npusim: limit reached: design 'passthrough_kernel' on npu1_1col: reached "
                                        "the wall-clock limit of 0.002 s at cycle "));
    CHECK_THAT(r.err, Catch::Contains("case: still making progress at the limit [progressing]\n"));
    CHECK_THAT(r.err, Catch::Contains("it is not stuck, only longer than the limit. Raise --timeout (0: none)"));
    CHECK_THAT(r.err, Catch::Contains("progress:\n  process"));
    CHECK_THAT(r.err, !Catch::Contains("livelock"));
    const auto j = cli({"run", "passthrough_kernel", "--param", "size=16777216", "--param", "tile=4096", "--timeout",
                        "0.002", "--json"});
    REQUIRE(j.code == 4);
    const auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["status"] == "limit");
    CHECK(doc["limit"]["case"]["id"] == "progressing");
}

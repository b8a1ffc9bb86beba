// What protects every simulation of `npusim run` against native design code (tools/RunGuard.hpp):
// the same options and guards for a single run, a --device list and --what-if reruns; the bounded
// --timeout; a kernel that ends the process (exit), aborts, or writes far outside its view.
#include "CliRun.hpp"
#include "GuardFault.hpp"
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
using npusim::test::guard_fault_cli;
using npusim::test::Out;

TEST_CASE("a --device list guards each run as a single run is: a kernel that never returns is named, exit 4",
          "[cli][timeout][guard][slow]") {
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = guard_fault_cli({"run", "guard_fault", "--param", "how=0", "--device", "npu1_1col,npu2", "--timeout", "1"});
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
    const auto r = guard_fault_cli({"run", "guard_fault", "--param", "how=7", "--device", "npu1_1col,npu2,npu1",
                                    "--timeout", "1", "--json"});
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
    const auto w = guard_fault_cli({"run", "guard_fault", "--param", "how=1", "--core-stack", "67108864", "--what-if",
                          "free-kernels,ideal-locks"});
    INFO(w.err);
    CHECK(w.code == 0);
    CHECK_THAT(w.err, Catch::Contains("  free-kernels   "));
    CHECK_THAT(w.err, Catch::Contains("  ideal-locks   "));
    CHECK_THAT(w.err, !Catch::Contains("kernel error"));
    const auto d = guard_fault_cli({"run", "guard_fault", "--param", "how=1", "--core-stack", "67108864", "--device",
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
    const auto r = guard_fault_cli({"run", "guard_fault", "--param", "how=2"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("npusim: kernel error: worker 'w' is running kernel 'faulty' (entered at "
                                        "cycle "));
    CHECK_THAT(r.err, Catch::Contains("and it ended the process (exit status 0) before the run finished; the run "
                                      "has no result\n"));
    const auto j = guard_fault_cli({"run", "guard_fault", "--param", "how=2", "--json", "--device", "npu2,npu1_1col"});
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
    const auto ok = guard_fault_cli({"run", "guard_fault"});
    CHECK(ok.code == 0);
    CHECK_THAT(ok.err, !Catch::Contains("ended the process"));
}


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

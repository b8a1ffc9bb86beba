// ForkPool: worker processes that crash or hang become outcomes (Crashed, Timeout), never a hung or
// dead caller; an exception from the caller's callback leaves no worker behind.
#include "npusim/harness/ForkPool.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace npusim::harness;
using Catch::Matchers::Contains;

TEST_CASE("ForkPool: results by index, a crash and a hang as outcomes", "[harness][forkpool]") {
    std::vector<RunOutcome> got(4);
    std::vector<double> secs(4);
    ForkPool(2, 1.0).run(
        4,
        [](std::size_t i) -> RunOutcome {
            if (i == 1) std::raise(SIGSEGV); // the worker dies of its signal (default handler)
            if (i == 2) std::this_thread::sleep_for(std::chrono::seconds(30)); // killed at the time limit
            return {RunOutcome::Status::Ok, 100 + i, ""};
        },
        [&](std::size_t i, const RunOutcome& o, double s) {
            got[i] = o;
            secs[i] = s;
        });
    CHECK(got[0] == RunOutcome{RunOutcome::Status::Ok, 100, ""});
    CHECK(got[3] == RunOutcome{RunOutcome::Status::Ok, 103, ""});
    CHECK(got[1].status == RunOutcome::Status::Crashed);
    // "killed by signal 11 (...)"; under the sanitizers, whose handler reports the fault and exits,
    // "exited with code 1 without a result".
    CHECK_THAT(got[1].message, Catch::Matchers::StartsWith("worker process"));
    CHECK(got[2].status == RunOutcome::Status::Timeout);
    CHECK(got[2].message == "worker process killed after 1 s");
    CHECK(secs[2] >= 1.0);
    CHECK(secs[2] < 10.0);
}

TEST_CASE("ForkPool: an exception from done() kills the other workers and propagates", "[harness][forkpool]") {
    const auto started = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH(ForkPool(3, 600).run(
                          3,
                          [](std::size_t i) -> RunOutcome {
                              if (i > 0) std::this_thread::sleep_for(std::chrono::seconds(60));
                              return {};
                          },
                          [](std::size_t, const RunOutcome&, double) { throw std::runtime_error("stop"); }),
                      "stop");
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(30));
    int status = 0;
    CHECK(::waitpid(-1, &status, WNOHANG) == -1); // no child left (reaped, none running)
}

// sweep and depth: the exit code says whether anything ran and matched (tools/CliSupport.hpp
// batch_exit_code), their --help says how each code arises, and their progress is whole lines
// in a log and one line cut to the width on a terminal (tools/ProgressLine.hpp).
#include "CliRun.hpp"
#include "CliSupport.hpp"
#include "ProgressLine.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace npusim;
using npusim::test::cli;
using S = harness::RunOutcome::Status;

namespace {
std::vector<harness::RunOutcome> of(std::initializer_list<S> statuses) {
    std::vector<harness::RunOutcome> v;
    for (auto s : statuses) v.push_back({s, 0, ""});
    return v;
}
} // namespace

TEST_CASE("batch exit code: 0 when one ran and matched, else by what every one did", "[cli][sweep][depth]") {
    CHECK(tools::batch_exit_code(of({S::Refused, S::Ok, S::Deadlock})) == 0);
    CHECK(tools::batch_exit_code(of({S::Mismatch, S::Mismatch})) == 1);
    CHECK(tools::batch_exit_code(of({S::Deadlock})) == 3);
    CHECK(tools::batch_exit_code(of({S::Limit, S::Timeout})) == 4);
    CHECK(tools::batch_exit_code(of({S::Refused, S::Refused})) == 2);
    CHECK(tools::batch_exit_code(of({S::Deadlock, S::Limit})) == 2);
    CHECK(tools::batch_exit_code(of({S::Crashed})) == 2);
    CHECK(tools::batch_exit_code({}) == 2);
    CHECK(tools::status_counts(of({S::Refused, S::Deadlock, S::Refused})) == "1 deadlock, 2 refused");
}

TEST_CASE("sweep: every point refused or failed is a non-zero exit, the table still printed", "[cli][sweep]") {
    // size 3 is refused by the design (not a multiple of its tile).
    const auto refused = cli({"sweep", "passthrough_kernel", "--param", "size=3,5", "--serial", "--json"});
    CHECK(refused.code == 2);
    const auto doc = nlohmann::json::parse(refused.out);
    CHECK(doc["points"].size() == 2);
    CHECK(doc["points"][0]["status"] == "refused");
    CHECK(refused.err == "npusim sweep: no point ran and matched (2 refused)\n");
    const auto limit = cli({"sweep", "passthrough_dmas", "--param", "size=4096,8192", "--max-cycles", "10", "--serial"});
    CHECK(limit.code == 4);
    CHECK_THAT(limit.out, Catch::Contains("2 limit"));
    const auto hang = cli({"sweep", "deadlock_fill_less", "--serial"});
    CHECK(hang.code == 3);
    CHECK(cli({"sweep", "passthrough_kernel", "--param", "size=3,4096", "--serial"}).code == 0);
}

TEST_CASE("depth: every configuration failed is a non-zero exit", "[cli][depth]") {
    // Every depth reaches the limit, the deepest are refused besides (more BDs than the channel has): a mix.
    const auto r = cli({"depth", "passthrough_dmas", "--max-cycles", "10", "--jobs", "1"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Matches("npusim depth: no configuration ran and matched \\(\\d+ limit, 1 refused\\)\n"));
    CHECK(cli({"depth", "passthrough_dmas", "--jobs", "1"}).code == 0);
}

TEST_CASE("sweep and depth --help say how each exit code arises", "[cli][sweep][depth]") {
    for (const auto& [cmd, unit] : {std::pair{"sweep", "point"}, std::pair{"depth", "configuration"}}) {
        const auto h = cli({cmd, "--help"});
        CHECK(h.code == 0);
        CHECK_THAT(h.out, Catch::Contains(std::string("exit codes of ") + cmd + ": 0 at least one " + unit +
                                          " ran and matched"));
        CHECK_THAT(h.out, Catch::Contains("3 every " + std::string(unit) + " deadlocked"));
    }
}

TEST_CASE("progress: one line cut to the terminal's width, whole lines at most every 5 s in a log", "[cli][progress]") {
    std::ostringstream tty;
    tools::ProgressLine line(tty, true, 40);
    line.show(std::string(100, 'x'), 0, false);
    line.show("short", 1, false);
    line.finish();
    CHECK(tty.str() == "\r" + std::string(39, 'x') + "\x1b[K\rshort\x1b[K\n");
    std::ostringstream log;
    tools::ProgressLine lines(log, false, 40);
    for (int s = 0; s < 12; ++s) lines.show("at " + std::to_string(s), s, false);
    lines.show("done", 12.5, true);
    lines.finish(); // nothing open in a log
    CHECK(log.str() == "at 0\nat 5\nat 10\ndone\n");
    // sweep --progress into a log: lines, no carriage return.
    const auto r = cli({"sweep", "passthrough_dmas", "--param", "size=4096,8192", "--serial", "--progress"});
    CHECK(r.code == 0);
    CHECK(r.err.find('\r') == std::string::npos);
    CHECK_THAT(r.err, Catch::Contains("  sweep: 2/2 points"));
}

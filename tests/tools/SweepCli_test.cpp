// `npusim sweep`: the aligned table, --json, --csv, the serial mode giving the same points, and the
// usage errors (exit code 2). The MPI split is tested through mpirun by tools:sweep-mpi.
#include "CliRun.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

using namespace npusim;
using Catch::Matchers::Contains;

namespace {

using npusim::test::Out;
using npusim::test::cli;

const std::vector<std::string> kGrid = {
    "sweep", "matmul_single_core", "--param", "M=64,128", "--param", "K=64", "--param", "N=64,128"};

std::vector<std::string> with(std::vector<std::string> a, std::initializer_list<std::string> more) {
    a.insert(a.end(), more);
    return a;
}

} // namespace

TEST_CASE("sweep: one aligned row per point, in grid order, with a status count", "[cli][sweep]") {
    const auto r = cli(with(kGrid, {"--jobs", "2"}));
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Contains("npusim sweep: matmul_single_core, 4 points in"));
    CHECK_THAT(r.out, Contains("(1 rank x 2 worker processes)"));
    CHECK_THAT(r.out, Contains("  device      M  K   N status cycles array us wall s"));
    std::istringstream in(r.out);
    std::vector<std::string> rows;
    for (std::string l; std::getline(in, l);)
        if (l.starts_with("  npu1_1col")) rows.push_back(l.substr(0, 22));
    CHECK(rows == std::vector<std::string>{"  npu1_1col  64 64  64", "  npu1_1col  64 64 128", "  npu1_1col 128 64  64",
                                           "  npu1_1col 128 64 128"});
    CHECK_THAT(r.out, Contains("  4 ok\n"));
}

TEST_CASE("sweep --json: every point with its parameters, status and cycles, --serial agrees", "[cli][sweep]") {
    const auto a = cli(with(kGrid, {"--json"}));
    const auto b = cli(with(kGrid, {"--json", "--serial"}));
    REQUIRE(a.code == 0);
    REQUIRE(b.code == 0);
    const auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
    CHECK(ja["schema_version"] == 1);
    CHECK(ja["design"] == "matmul_single_core");
    CHECK(ja["swept"] == nlohmann::json::array({"M", "K", "N"}));
    CHECK(jb["jobs"] == 1);
    REQUIRE(ja["points"].size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
        auto pa = ja["points"][i], pb = jb["points"][i];
        CHECK(pa["status"] == "ok");
        CHECK(pa["cycles"].get<std::uint64_t>() > 0);
        CHECK(pa["array_time_us"].get<double>() == Approx(pa["cycles"].get<double>() / 1000.0));
        pa.erase("seconds");
        pb.erase("seconds");
        CHECK(pa == pb);
    }
    CHECK(ja["points"][3]["params"]["M"] == 128);
    CHECK(ja["points"][3]["params"]["N"] == 128);
    // A named parameter's values by name; a point the design refuses is a status, not a failure.
    const auto n = cli({"sweep", "passthrough_kernel", "--param", "tile=1024,1000", "--device", "npu2", "--json"});
    REQUIRE(n.code == 0);
    const auto jn = nlohmann::json::parse(n.out);
    CHECK(jn["points"][0]["status"] == "ok");
    CHECK(jn["points"][1]["status"] == "refused");
    CHECK_THAT(jn["points"][1]["message"].get<std::string>(), Contains("tile=1000"));
    CHECK_FALSE(jn["points"][1].contains("cycles"));
}

TEST_CASE("sweep --csv: a header and one row per point", "[cli][sweep]") {
    const auto path =
        (std::filesystem::temp_directory_path() / fmt::format("npusim_sweep_{}.csv", ::getpid())).string();
    const auto r = cli({"sweep", "matmul_single_core", "--param", "M=64,128", "--csv", path});
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Contains("table written to " + path));
    std::ifstream f(path);
    std::vector<std::string> lines;
    for (std::string l; std::getline(f, l);) lines.push_back(l);
    std::filesystem::remove(path);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "design,device,M,status,cycles,array_time_us,seconds,message");
    CHECK(lines[1].starts_with("matmul_single_core,npu1_1col,64,ok,"));
    CHECK(lines[2].starts_with("matmul_single_core,npu1_1col,128,ok,"));
}

TEST_CASE("sweep: usage and design errors exit with code 2", "[cli][sweep][errors]") {
    CHECK(cli({"sweep"}).code == 2);
    const auto twice = cli({"sweep", "passthrough_kernel", "--param", "tile=64", "--param", "tile=128"});
    CHECK(twice.code == 2);
    CHECK_THAT(twice.err, Contains("sweep of 'passthrough_kernel': parameter 'tile' is swept twice"));
    const auto bad = cli({"sweep", "passthrough_kernel", "--param", "tile=64,x"});
    CHECK(bad.code == 2);
    CHECK_THAT(bad.err, Contains("--param tile expects an integer, got 'x'"));
    CHECK(cli({"sweep", "passthrough_kernel", "--jobs", "0"}).code == 2);
}

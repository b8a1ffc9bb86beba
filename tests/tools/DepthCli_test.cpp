// `npusim depth`: the table, --json, --csv, and the usage errors (exit code 2).
#include "CliRun.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace npusim;

namespace {

using npusim::test::Out;
using npusim::test::cli;

std::vector<std::string> lines_of(const std::string& path) {
    std::ifstream f(path);
    std::vector<std::string> lines;
    for (std::string l; std::getline(f, l);) lines.push_back(l);
    return lines;
}

const std::vector<std::string> kReduceMax = {"depth", "vector_reduce_max", "--param", "size=128", "--jobs", "2"};

std::vector<std::string> with(std::vector<std::string> a, std::initializer_list<std::string> more) {
    a.insert(a.end(), more);
    return a;
}

} // namespace

TEST_CASE("npusim depth prints a table of cycles against depth for every fifo endpoint", "[depth][cli]") {
    const auto r = cli(kReduceMax);
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("npusim depth: vector_reduce_max on npu1_1col (size=128)"));
    CHECK_THAT(r.out, Catch::Contains("outputs match"));
    CHECK_THAT(r.out, Catch::Contains("depth 1") && Catch::Contains("depth 4"));
    CHECK_THAT(r.out, Catch::Contains("runtime (host memory)"));
    // The worker's input end: declared 2, resolved 2, runs with 1 buffer; the resolved cell marked '*'.
    std::istringstream in(r.out);
    bool found = false;
    for (std::string l; std::getline(in, l);)
        if (l.rfind("in ", 0) == 0 && l.find("consumer 0") != std::string::npos) {
            found = true;
            CHECK_THAT(l, Catch::Contains("own copy"));
            CHECK_THAT(l, Catch::Contains("*"));
            std::istringstream f(l.substr(l.find("own copy") + 8));
            int decl = 0, res = 0, min = 0;
            f >> decl >> res >> min;
            CHECK(decl == 2);
            CHECK(res == 2);
            CHECK(min == 1);
        }
    CHECK(found);
    CHECK(r.err.empty()); // no progress line: stderr is not a terminal and --progress was not given
}

TEST_CASE("npusim depth --json is one object with every endpoint's cycles by depth", "[depth][cli]") {
    const auto r = cli(with(kReduceMax, {"--json", "--max-depth", "3", "--progress"}));
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["design"] == "vector_reduce_max");
    CHECK(j["device"] == "npu1_1col");
    CHECK(j["params"]["size"] == 128);
    CHECK(j["simulations"].get<int>() > 0);
    CHECK(j["seconds"].get<double>() >= 0.0);
    REQUIRE(j["endpoints"].size() == 4);
    bool seen = false;
    for (const auto& e : j["endpoints"]) {
        for (const char* k : {"fifo", "endpoint", "tile", "declared", "resolved", "min_depth", "bytes_per_object",
                              "tile_bytes_used", "tile_capacity", "cycles_by_depth", "status_by_depth",
                              "messages_by_depth"})
            CHECK(e.contains(k));
        if (e["fifo"] == "in" && e["endpoint"] == "consumer 0") {
            seen = true;
            CHECK(e["resolved"] == 2);
            CHECK(e["min_depth"] == 1);
            CHECK(e["bytes_per_object"] == 128 * 4);
            CHECK(e["tile_capacity"] == 65536);
            REQUIRE(e["cycles_by_depth"].size() == 3);
            for (const auto& [d, c] : e["cycles_by_depth"].items()) {
                CHECK(c.is_number_unsigned());
                CHECK(e["status_by_depth"][d] == "ok");
            }
        }
        if (e["holding"] == "runtime (host memory)") {
            CHECK(e["resolved"].is_null());
            CHECK(e["cycles_by_depth"].empty());
        }
    }
    CHECK(seen);
    CHECK_THAT(r.err, Catch::Contains("configurations") && Catch::Contains("ETA")); // --progress
}

TEST_CASE("npusim depth of a hanging design finds the depth that fixes it", "[depth][cli]") {
    const auto r = cli({"depth", "deadlock_shared_pool_overacquire", "--json", "--max-depth", "2", "--jobs", "2"});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["baseline"]["status"] == "deadlock");
    CHECK(j["baseline"]["cycles"].is_null()); // a number or null, never a string in its place
    bool seen = false;
    for (const auto& e : j["endpoints"]) {
        if (e["fifo"] == "mid" && e["endpoint"] == "producer") {
            seen = true;
            CHECK(e["holding"] == "shared pool");
            CHECK(e["resolved"] == 1);
            CHECK(e["min_depth"] == 2);
            CHECK(e["status_by_depth"]["1"] == "deadlock");
            CHECK_FALSE(e["cycles_by_depth"].contains("1"));
            CHECK(e["status_by_depth"]["2"] == "ok");
            CHECK(e["cycles_by_depth"]["2"].is_number_unsigned());
        }
        if (e["fifo"] == "mid" && e["endpoint"] == "consumer 0") {
            CHECK(e["holding"] == "shares the producer's pool");
            CHECK(e["shares"] == "fifo 'mid' producer");
        }
    }
    CHECK(seen);
}

TEST_CASE("npusim depth --csv writes one row per endpoint and depth", "[depth][cli]") {
    npusim::test::TempDir dir("npusim_depth_csv");
    const auto path = dir.file("depth.csv");
    const auto r = cli(with(kReduceMax, {"--csv", path, "--max-depth", "2"}));
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("table written to " + path));
    const auto lines = lines_of(path);
    REQUIRE(lines.size() == 1 + 2 + 2 + 2); // header; in/out at depths 1 and 2; one row per runtime end
    CHECK(lines[0] == "design,device,fifo,endpoint,tile,holding,declared,resolved,min_depth,bytes_per_object,"
                      "tile_bytes_used,tile_capacity,depth,status,cycles,message");
    int ok_rows = 0;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        CHECK(lines[i].rfind("vector_reduce_max,npu1_1col,", 0) == 0);
        if (lines[i].find(",ok,") != std::string::npos) ++ok_rows;
    }
    CHECK(ok_rows == 4);
}

TEST_CASE("npusim depth usage errors exit with code 2", "[depth][cli]") {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"depth"},
             {"depth", "vector_reduce_max", "--jobs", "0"},
             {"depth", "vector_reduce_max", "--max-depth", "x"},
             {"depth", "vector_reduce_max", "--max-depth", "64"},
             {"depth", "vector_reduce_max", "--bogus"},
             {"depth", "vector_reduce_max", "extra"},
             {"depth", "vector_reduce_max", "--csv"},
             {"depth", "vector_reduce_max", "--json=1"},
             {"depth", "vector_reduce_max", "--param", "size"},
         }) {
        const auto r = cli(args);
        INFO(args.size() << " " << args.back() << ": " << r.err);
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Catch::Contains("usage error"));
    }
    const auto j = cli({"depth", "vector_reduce_max", "--jobs", "none", "--json"});
    CHECK(j.code == 2);
    CHECK(nlohmann::json::parse(j.out)["status"] == "usage_error");
    // A design or parameter that does not exist is a design error (also exit 2).
    const auto d = cli({"depth", "no_such_design"});
    CHECK(d.code == 2);
    CHECK_THAT(d.err, Catch::Contains("design error"));
    const auto p = cli({"depth", "vector_reduce_max", "--param", "size=100"});
    CHECK(p.code == 2);
    CHECK_THAT(p.err, Catch::Contains("design error"));
}

TEST_CASE("npusim depth's header and the HTML report name a named parameter's value, not its index",
          "[depth][cli]") {
    const auto r = cli({"depth", "dma_padding", "--param", "api=split", "--param", "count=1", "--jobs", "2"});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("npusim depth: dma_padding on npu1_1col (after=4 api=split before=4 count=1 "
                                      "dtype=i32 pad=0 real=8)"));
    npusim::test::TempDir d("npusim_depth_names");
    const auto h = cli({"run", "dma_padding", "--param", "dtype=i8", "--html", d.file("r.html")});
    INFO(h.out << h.err);
    REQUIRE(h.code == 0);
    std::ifstream in(d.file("r.html"));
    const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK_THAT(page, Catch::Contains("api=forward before=4 count=4 dtype=i8"));
}

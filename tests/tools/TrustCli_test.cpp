// `npusim run`'s trust lines and `--what-if sensitivity` (docs/timing-model.md, "How much to trust a
// number" and "What-if").
#include "CliRun.hpp"

#include "npusim/harness/TrustReport.hpp"
#include "npusim/model/TimingParams.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace npusim;
using npusim::test::cli;

TEST_CASE("run: the summary and --json say how much of the time rests on [est] parameters", "[cli][trust]") {
    const auto r = cli({"run", "passthrough_kernel", "--device", "npu2"});
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("  trust        of ") && Catch::Contains("rest on [est] parameters") &&
                          Catch::Contains("npu time: ") && Catch::Contains("host invocation latency [HW]"));
    const auto j = cli({"run", "passthrough_kernel", "--device", "npu2", "--json"});
    REQUIRE(j.code == 0);
    const auto doc = nlohmann::json::parse(j.out);
    const auto& t = doc.at("trust");
    CHECK(t.at("est_share").get<double>() + t.at("measured_share").get<double>() + t.at("model_share").get<double>() ==
          Approx(1.0));
    REQUIRE_FALSE(t.at("parameters").empty());
    for (const auto& p : t.at("parameters")) CHECK(p.at("share").get<double>() > 0);
}

TEST_CASE("run --what-if sensitivity: every [est] parameter at half and double, and the range", "[cli][trust]") {
    const auto j = cli({"run", "passthrough_kernel", "--device", "npu2", "--what-if", "sensitivity", "--json"});
    REQUIRE(j.code == 0);
    const auto doc = nlohmann::json::parse(j.out);
    CHECK(doc.at("what_if").empty()); // no ablation asked for
    const auto& s = doc.at("sensitivity");
    const auto timing = model::TimingParams::for_arch(model::Arch::AIE2P);
    std::size_t est = 0;
    for (const auto& row : model::timing_param_table())
        if (harness::source_tag(row.source_for(model::Arch::AIE2P)) == "[est]" && row.get(timing) > 0) ++est;
    REQUIRE(s.at("parameters").size() == est);
    const auto lo = s.at("range").at("cycles_min").get<std::uint64_t>();
    const auto hi = s.at("range").at("cycles_max").get<std::uint64_t>();
    const auto base = s.at("baseline").at("cycles").get<std::uint64_t>();
    CHECK(base == doc.at("cycles").get<std::uint64_t>()); // one invocation
    CHECK(lo <= base);
    CHECK(hi >= base);
    for (const auto& p : s.at("parameters")) {
        INFO(p.at("name").get<std::string>());
        const auto* row = model::find_timing_param(p.at("name").get<std::string>());
        REQUIRE(row);
        CHECK(harness::source_tag(row->source_for(model::Arch::AIE2P)) == "[est]");
        const double v = p.at("value").get<double>();
        CHECK(p.at("double").at("value").get<double>() == 2 * v);
        CHECK(p.at("half").at("value").get<double>() <= v / 2);
        for (const char* at : {"half", "double"}) {
            const auto c = p.at(at).at("cycles").get<std::uint64_t>();
            CHECK(c >= lo);
            CHECK(c <= hi);
        }
    }
    // A doubled cold start delays the run; a halved one shortens it (E1 waits for its channels).
    for (const auto& p : s.at("parameters"))
        if (p.at("name") == "shim_cold_task_dispatch_cycles") {
            CHECK(p.at("double").at("cycles").get<std::uint64_t>() > base);
            CHECK(p.at("half").at("cycles").get<std::uint64_t>() < base);
        }
    const auto text = cli({"run", "passthrough_kernel", "--device", "npu2", "--what-if", "sensitivity,ideal-locks"});
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("  what-if: each ablation alone against the baseline") &&
                             Catch::Contains("  sensitivity: each [est] parameter of AIE2P at half and double") &&
                             Catch::Contains("  range: "));
}

// `npusim run --cold`: the first run on a newly created hardware context pays host_cold_start_us
// on top of the warm host latency (docs/timing-model.md, "Array time and host time").
#include "CliRun.hpp"

#include "npusim/model/TimingParams.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace npusim;
using npusim::test::cli;

TEST_CASE("run --cold: the first invocation's npu time adds the context's cold start, array cycles do not change",
          "[cli][timing]") {
    for (const char* device : {"npu1_1col", "npu2"}) {
        INFO(device);
        const auto t = model::TimingParams::for_arch(model::device_by_name(device).arch);
        REQUIRE(t.host_cold_start_us > 0);
        const auto warm = cli({"run", "passthrough_dmas", "--device", device, "--json"});
        const auto cold = cli({"run", "passthrough_dmas", "--device", device, "--cold", "--json"});
        REQUIRE(warm.code == 0);
        REQUIRE(cold.code == 0);
        const auto w = nlohmann::json::parse(warm.out);
        const auto c = nlohmann::json::parse(cold.out);
        CHECK(c["cycles"] == w["cycles"]);
        CHECK(w["cold"] == false);
        CHECK_FALSE(w.contains("host_cold_start_us"));
        CHECK(c["cold"] == true);
        CHECK(c["host_cold_start_us"].get<double>() == t.host_cold_start_us);
        CHECK(c["npu_time_us"].get<double>() == Approx(w["npu_time_us"].get<double>() + t.host_cold_start_us));
        CHECK(c["invocations"][0]["npu_time_us"].get<double>() == Approx(c["npu_time_us"].get<double>()));
    }
}

TEST_CASE("run --cold with a warm-up: only the first invocation is cold, the run's total includes it", "[cli][timing]") {
    const auto t = model::TimingParams::for_arch(model::Arch::AIE2P);
    const auto warm = cli({"run", "passthrough_dmas", "--device", "npu2", "--warmup", "1", "--json"});
    const auto cold = cli({"run", "passthrough_dmas", "--device", "npu2", "--warmup", "1", "--cold", "--json"});
    REQUIRE(warm.code == 0);
    REQUIRE(cold.code == 0);
    const auto w = nlohmann::json::parse(warm.out);
    const auto c = nlohmann::json::parse(cold.out);
    CHECK(c["npu_time_us"].get<double>() == Approx(w["npu_time_us"].get<double>() + t.host_cold_start_us));
    CHECK(c["invocations"][0]["npu_time_us"].get<double>() ==
          Approx(w["invocations"][0]["npu_time_us"].get<double>() + t.host_cold_start_us));
    CHECK(c["invocations"][1]["npu_time_us"].get<double>() ==
          Approx(w["invocations"][1]["npu_time_us"].get<double>()));
    const auto text = cli({"run", "passthrough_dmas", "--device", "npu2", "--cold"});
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("(+52 us invocation latency, +476 us cold start: the first run on a new context)"));
    const auto plain = cli({"run", "passthrough_dmas", "--device", "npu2"});
    CHECK_THAT(plain.out, Catch::Contains("(+52 us invocation latency)\n"));
}

#include "npusim/model/Error.hpp"
#include "npusim/model/TimingParams.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::model;

TEST_CASE("timing defaults carry units and sources", "[model][timing]") {
    const auto p = TimingParams::for_arch(Arch::AIE2);
    CHECK(p.stream_bytes_per_cycle == 4.0);
    CHECK(p.switch_hop_latency_cycles == 4);
    CHECK(p.shim_dma_bytes_per_cycle == 4.0);
    for (const auto& i : p.describe()) {
        CHECK_FALSE(i.unit.empty());
        CHECK(i.source.front() == '[');
    }
}

TEST_CASE("timing overrides from JSON", "[model][timing]") {
    auto p = TimingParams::for_arch(Arch::AIE2P);
    p.apply_json(R"({"stream_bytes_per_cycle": 8, "switch_hop_latency_cycles": 2})", "test");
    CHECK(p.stream_bytes_per_cycle == 8.0);
    CHECK(p.switch_hop_latency_cycles == 2);
}

TEST_CASE("timing override errors name the problem", "[model][timing]") {
    auto p = TimingParams::for_arch(Arch::AIE2);
    CHECK_THROWS_WITH(p.apply_json(R"({"warp_speed": 9})", "'t.json'"),
                      Catch::StartsWith("timing file 't.json': unknown parameter 'warp_speed' (known: clock_mhz,"));
    CHECK_THROWS_WITH(p.apply_json(R"({"clock_mhz": "fast"})", "'t.json'"),
                      "timing file 't.json': parameter 'clock_mhz' must be a non-negative number");
    CHECK_THROWS_WITH(p.apply_json(R"({"stream_bytes_per_cycle": 0})", "'t.json'"),
                      "timing file 't.json': parameter 'stream_bytes_per_cycle' must be positive");
    CHECK_THROWS_WITH(p.apply_json("[1,2]", "'t.json'"), "timing file 't.json': expected a JSON object");
    CHECK_THROWS_WITH(p.apply_json("{", "'t.json'"), Catch::StartsWith("timing file 't.json': not valid JSON"));
    CHECK_THROWS_WITH(p.apply_json_file("/nonexistent/t.json"), "cannot open timing file '/nonexistent/t.json'");
}

TEST_CASE("timing defaults of both generations, every parameter", "[model][timing]") {
    for (Arch arch : {Arch::AIE2, Arch::AIE2P}) {
        INFO(arch_name(arch));
        const auto p = TimingParams::for_arch(arch);
        CHECK(p.clock_mhz == 1000.0);
        CHECK(p.stream_bytes_per_cycle == 4.0);
        CHECK(p.switch_hop_latency_cycles == 4);
        CHECK(p.shim_dma_bytes_per_cycle == 4.0);
        CHECK(p.tile_dma_bytes_per_cycle == 4.0);
        CHECK(p.lock_acquire_cycles == 1);
        CHECK(p.lock_release_cycles == 1);
        CHECK(p.bd_setup_cycles == 4);
        CHECK(p.shim_task_dispatch_cycles == 520);
        CHECK(p.shim_mm2s_task_overhead_cycles == 249);
        CHECK(p.shim_s2mm_task_overhead_cycles == 177);
        CHECK(p.kernel_call_overhead_cycles == 20);
        CHECK(p.runtime_op_cycles == 10);
        CHECK(p.describe().size() == 13);
    }
    const TimingParams plain;   // a default-constructed table is AIE2's
    CHECK(plain.stream_bytes_per_cycle == 4.0);
    CHECK(plain.shim_task_dispatch_cycles == 520);
}

TEST_CASE("timing overrides keep integer cycle parameters as truncated integers", "[model][timing]") {
    auto p = TimingParams::for_arch(Arch::AIE2);
    p.apply_json(R"({"bd_setup_cycles": 2.7, "lock_acquire_cycles": 0, "clock_mhz": 1250.5})", "test");
    CHECK(p.bd_setup_cycles == 2);
    CHECK(p.lock_acquire_cycles == 0);
    CHECK(p.clock_mhz == 1250.5);
    CHECK_THROWS_WITH(p.apply_json(R"({"bd_setup_cycles": -1})", "'t.json'"),
                      "timing file 't.json': parameter 'bd_setup_cycles' must be a non-negative number");
    CHECK_THROWS_WITH(p.apply_json(R"({"clock_mhz": 0})", "'t.json'"),
                      "timing file 't.json': parameter 'clock_mhz' must be positive");
}

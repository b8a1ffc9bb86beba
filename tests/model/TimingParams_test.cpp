// The timing table, the parameters built from it, the --timing override checks, and the docs that list it.
#include "npusim/model/Error.hpp"
#include "npusim/model/TimingParams.hpp"

#include "model/MarkdownTable.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <set>

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
    CHECK_THROWS_WITH(p.apply_json_file("/tmp"), "cannot read timing file '/tmp': it is a directory");
}

TEST_CASE("timing defaults of both generations, every parameter", "[model][timing]") {
    for (Arch arch : {Arch::AIE2, Arch::AIE2P}) {
        INFO(arch_name(arch));
        const auto p = TimingParams::for_arch(arch);
        // NPU2's array clock is the top of its DPM table (xdna-driver npu4_regs.c), and its host
        // figures (DDR in GB/s, invocation latency) were measured per generation.
        const bool npu2 = arch == Arch::AIE2P;
        CHECK(p.clock_mhz == (npu2 ? 1800.0 : 1000.0));
        CHECK(p.stream_bytes_per_cycle == 4.0);
        CHECK(p.switch_hop_latency_cycles == 4);
        CHECK(p.shim_dma_bytes_per_cycle == 4.0);
        CHECK(p.tile_dma_bytes_per_cycle == 4.0);
        CHECK(p.lock_acquire_cycles == 1);
        CHECK(p.lock_release_cycles == 1);
        CHECK(p.bd_setup_cycles == 4);
        CHECK(p.shim_task_dispatch_cycles == 520);
        CHECK(p.shim_cold_task_dispatch_cycles == 3050);
        CHECK(p.ddr_bytes_per_cycle == (npu2 ? 27.78 : 50.0));
        CHECK(p.host_invocation_latency_us == (npu2 ? 52.0 : 250.0));
        CHECK(p.host_cold_start_us == (npu2 ? 476.0 : 200.0));
        CHECK(p.shim_mm2s_task_overhead_cycles == 249);
        CHECK(p.shim_s2mm_task_overhead_cycles == 177);
        CHECK(p.kernel_call_overhead_cycles == 8);
        CHECK(p.runtime_op_cycles == 10);
        CHECK(p.memtile_memory_bytes_per_cycle == 256.0);
        CHECK(p.cascade_word_latency_cycles == 1);
        CHECK(p.core_element_access_cycles == 1);
        CHECK(p.describe().size() == 20);
    }
    const TimingParams plain; // a default-constructed table is AIE2's
    CHECK(plain.stream_bytes_per_cycle == 4.0);
    CHECK(plain.shim_task_dispatch_cycles == 520);
}

TEST_CASE("timing overrides: cycle counts are whole 32-bit numbers, rates any positive number, each key once",
          "[model][timing]") {
    auto p = TimingParams::for_arch(Arch::AIE2);
    p.apply_json(
        R"({"bd_setup_cycles": 3.0, "lock_acquire_cycles": 0, "clock_mhz": 1250.5, "runtime_op_cycles": 4294967295})",
        "test");
    CHECK(p.bd_setup_cycles == 3);
    CHECK(p.lock_acquire_cycles == 0);
    CHECK(p.clock_mhz == 1250.5);
    CHECK(p.runtime_op_cycles == 4294967295u);
    // A fraction of a cycle is refused, not truncated.
    CHECK_THROWS_WITH(p.apply_json(R"({"bd_setup_cycles": 2.7})", "'t.json'"),
                      "timing file 't.json': parameter 'bd_setup_cycles' must be a whole number of cycles, got 2.7");
    // Above 32 bits is refused, not wrapped.
    CHECK_THROWS_WITH(p.apply_json(R"({"shim_task_dispatch_cycles": 4294967296})", "'t.json'"),
                      "timing file 't.json': parameter 'shim_task_dispatch_cycles' must be at most 4294967295 cycles "
                      "(32 bits), got 4294967296");
    CHECK_THROWS_WITH(p.apply_json(R"({"kernel_call_overhead_cycles": 1e30})", "'t.json'"),
                      Catch::StartsWith("timing file 't.json': parameter 'kernel_call_overhead_cycles' must be at most "
                                        "4294967295 cycles"));
    CHECK_THROWS_WITH(p.apply_json(R"({"bd_setup_cycles": -1})", "'t.json'"),
                      "timing file 't.json': parameter 'bd_setup_cycles' must be a non-negative number");
    CHECK_THROWS_WITH(p.apply_json(R"({"clock_mhz": 0})", "'t.json'"),
                      "timing file 't.json': parameter 'clock_mhz' must be positive");
    // A key given twice is refused (JSON parsers keep one of them silently).
    CHECK_THROWS_WITH(p.apply_json(R"({"bd_setup_cycles": 5, "bd_setup_cycles": 6})", "'t.json'"),
                      "timing file 't.json': parameter 'bd_setup_cycles' is given twice");
    // All or nothing: a file refused at its second key leaves the first unapplied.
    CHECK_THROWS(p.apply_json(R"({"lock_release_cycles": 7, "clock_mhz": -1})", "'t.json'"));
    CHECK(p.lock_release_cycles == TimingParams::for_arch(Arch::AIE2).lock_release_cycles);
    CHECK(p.bd_setup_cycles == 3);
}

TEST_CASE("timing_unit_name", "[model][timing]") {
    CHECK(std::string(timing_unit_name(TimingUnit::MHz)) == "MHz");
    CHECK(std::string(timing_unit_name(TimingUnit::BytesPerCycle)) == "B/cycle");
    CHECK(std::string(timing_unit_name(TimingUnit::Cycles)) == "cycles");
}

TEST_CASE("timing_name_carries_unit", "[model][timing]") {
    CHECK(timing_name_carries_unit("clock_mhz", TimingUnit::MHz));
    CHECK(timing_name_carries_unit("stream_bytes_per_cycle", TimingUnit::BytesPerCycle));
    CHECK(timing_name_carries_unit("bd_setup_cycles", TimingUnit::Cycles));
    CHECK_FALSE(timing_name_carries_unit("stream_bytes_per_cycle", TimingUnit::Cycles));
    CHECK_FALSE(timing_name_carries_unit("bd_setup_cycles", TimingUnit::BytesPerCycle));
    CHECK_FALSE(timing_name_carries_unit("clock", TimingUnit::MHz));
    for (const auto& row : timing_param_table()) {
        INFO(row.name);
        CHECK(timing_name_carries_unit(row.name, row.unit));
    }
}

TEST_CASE("timing_unit_must_be_positive: rates and the clock, not cycle counts", "[model][timing]") {
    CHECK(timing_unit_must_be_positive(TimingUnit::MHz));
    CHECK(timing_unit_must_be_positive(TimingUnit::BytesPerCycle));
    CHECK_FALSE(timing_unit_must_be_positive(TimingUnit::Cycles));
    CHECK_FALSE(timing_unit_must_be_positive(TimingUnit::Microseconds)); // a latency may be 0
    CHECK(timing_name_carries_unit("host_invocation_latency_us", TimingUnit::Microseconds));
    CHECK(std::string(timing_unit_name(TimingUnit::Microseconds)) == "us");
}

TEST_CASE("timing_param_table: one row per TimingParams member, complete for both generations", "[model][timing]") {
    TimingParams p;
    // The binding names every member: a member added to TimingParams fails to compile here until the
    // table (and this list) has it.
    auto& [arch, clock_mhz, stream, hop, shim_dma, tile_dma, ddr, memtile, lock_acq, lock_rel, bd_setup, dispatch, cold,
           mm2s, s2mm, kernel_call, cascade_latency, element_access, runtime_op, host_latency, host_cold] = p;
    CHECK(arch == Arch::AIE2);
    const std::set<const void*> members = {
        &clock_mhz, &stream,   &hop,  &shim_dma, &tile_dma, &ddr,         &memtile,         &lock_acq,   &lock_rel,
        &bd_setup,  &dispatch, &cold, &mm2s,     &s2mm,     &kernel_call, &cascade_latency, &element_access,
        &runtime_op, &host_latency, &host_cold};
    std::set<const void*> seen;
    std::set<std::string> names;
    for (const auto& row : timing_param_table()) {
        INFO(row.name);
        const void* addr = std::visit([&](auto m) -> const void* { return &(p.*m); }, row.member);
        CHECK(members.count(addr) == 1);
        CHECK(seen.insert(addr).second); // no member twice
        CHECK(names.insert(row.name).second);
        // cycle counts are integer members, rates and the clock are doubles
        CHECK(std::holds_alternative<std::uint32_t TimingParams::*>(row.member) == (row.unit == TimingUnit::Cycles));
        for (Arch a : {Arch::AIE2, Arch::AIE2P}) {
            const std::string source = row.source_for(a);
            REQUIRE_FALSE(source.empty());
            const std::string tag = source.substr(0, source.find(']') + 1);
            CHECK((tag == "[doc]" || tag == "[code]" || tag == "[HW]" || tag == "[est]"));
            CHECK(source.size() > tag.size() + 1); // a citation follows the tag
            CHECK(timing_value_problem(row, row.default_for(a)).empty());
            if (row.unit == TimingUnit::Cycles)
                CHECK(row.default_for(a) == static_cast<std::uint32_t>(row.default_for(a)));
        }
        // Shared values say why one generation carries the other's value over, or that both
        // generations' documents give the same figure independently.
        if (row.aie2p == row.aie2)
            CHECK((std::string(row.aie2p_source).find("carried over from AIE2") != std::string::npos ||
                   std::string(row.aie2_source).find("carried over from AIE2P") != std::string::npos ||
                   std::string(row.aie2p_source).find("the same figure as AIE2, from its own document") !=
                       std::string::npos));
    }
    CHECK(seen == members);
}

TEST_CASE("find_timing_param", "[model][timing]") {
    const TimingParamRow* row = find_timing_param("bd_setup_cycles");
    REQUIRE(row != nullptr);
    CHECK(std::string(row->name) == "bd_setup_cycles");
    CHECK(row->unit == TimingUnit::Cycles);
    CHECK(find_timing_param("warp_speed") == nullptr);
    CHECK(find_timing_param("BD_SETUP_CYCLES") == nullptr); // names are exact
    for (const auto& r : timing_param_table()) CHECK(find_timing_param(r.name) == &r);
}

TEST_CASE("timing_value_problem", "[model][timing]") {
    const auto& rate = *find_timing_param("stream_bytes_per_cycle");
    const auto& clock = *find_timing_param("clock_mhz");
    const auto& cycles = *find_timing_param("bd_setup_cycles");
    CHECK(timing_value_problem(rate, 8).empty());
    CHECK(timing_value_problem(rate, 0) == "must be positive");
    CHECK(timing_value_problem(rate, -1) == "must be a non-negative number");
    CHECK(timing_value_problem(clock, 0) == "must be positive");
    CHECK(timing_value_problem(cycles, 0).empty());
    CHECK(timing_value_problem(cycles, -0.5) == "must be a non-negative number");
}

TEST_CASE("TimingParamRow get/set/default_for/source_for", "[model][timing]") {
    const auto& row = *find_timing_param("shim_task_dispatch_cycles");
    TimingParams p;
    CHECK(row.get(p) == 520.0);
    row.set(p, 77.9);
    CHECK(p.shim_task_dispatch_cycles == 77);
    CHECK(row.get(p) == 77.0);
    const auto& rate = *find_timing_param("tile_dma_bytes_per_cycle");
    rate.set(p, 2.5);
    CHECK(p.tile_dma_bytes_per_cycle == 2.5);
    CHECK(row.default_for(Arch::AIE2) == row.aie2);
    CHECK(row.default_for(Arch::AIE2P) == row.aie2p);
    CHECK(std::string(row.source_for(Arch::AIE2)) == row.aie2_source);
    CHECK(std::string(row.source_for(Arch::AIE2P)) == row.aie2p_source);
}

TEST_CASE("for_arch builds a generation's parameters from the table, describe() reports its sources",
          "[model][timing]") {
    for (Arch a : {Arch::AIE2, Arch::AIE2P}) {
        INFO(arch_name(a));
        const auto p = TimingParams::for_arch(a);
        CHECK(p.arch == a);
        const auto info = p.describe();
        REQUIRE(info.size() == timing_param_table().size());
        for (std::size_t i = 0; i < info.size(); ++i) {
            const auto& row = timing_param_table()[i];
            CHECK(row.get(p) == row.default_for(a));
            CHECK(info[i].name == row.name);
            CHECK(info[i].value == row.default_for(a));
            CHECK(info[i].unit == timing_unit_name(row.unit));
            CHECK(info[i].source == row.source_for(a));
        }
    }
}

TEST_CASE("docs/timing-model.md lists the timing table: name, unit, both defaults", "[model][timing][docs]") {
    const auto rows =
        test::markdown_table(test::read_doc("timing-model.md"), "| parameter | unit | AIE2 | AIE2P | used for |");
    const auto table = timing_param_table();
    REQUIRE(rows.size() == table.size());
    for (std::size_t i = 0; i < table.size(); ++i) {
        INFO(table[i].name);
        REQUIRE(rows[i].size() == 5);
        CHECK(rows[i][0] == table[i].name);
        CHECK(rows[i][1] == timing_unit_name(table[i].unit));
        CHECK(rows[i][2] == fmt::format("{}", table[i].aie2));
        CHECK(rows[i][3] == fmt::format("{}", table[i].aie2p));
        CHECK_FALSE(rows[i][4].empty());
    }
}

TEST_CASE("docs/hardware-sources.md lists the timing table verbatim, with every source", "[model][timing][docs]") {
    const auto rows = test::markdown_table(test::read_doc("hardware-sources.md"),
                                           "| parameter | unit | AIE2 | AIE2 source | AIE2P | AIE2P source |");
    const auto table = timing_param_table();
    REQUIRE(rows.size() == table.size());
    for (std::size_t i = 0; i < table.size(); ++i) {
        const auto& r = table[i];
        INFO(r.name);
        const std::vector<std::string> want = {r.name,        timing_unit_name(r.unit),   fmt::format("{}", r.aie2),
                                               r.aie2_source, fmt::format("{}", r.aie2p), r.aie2p_source};
        CHECK(rows[i] == want);
    }
}

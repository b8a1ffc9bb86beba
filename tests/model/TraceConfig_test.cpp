// TraceConfig: IRON's default events per unit type, the names npusim knows, and the checks of
// configure_trace (at most eight events, one port per monitor slot), with their messages.
#include "npusim/model/Error.hpp"
#include "npusim/model/TraceConfig.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::model;

TEST_CASE("default trace events are IRON's (setup.py _get_default_events_for_tile)", "[model][trace]") {
    for (auto arch : {Arch::AIE2, Arch::AIE2P}) {
        const auto core = default_trace_events(arch, TraceUnitType::Core);
        REQUIRE(core.size() == 8);
        CHECK(core[0].name == "INSTR_EVENT_0");
        CHECK(core[1].name == "INSTR_EVENT_1");
        CHECK(core[2].name == "INSTR_VECTOR");
        CHECK(core[3].name == "MEMORY_STALL");
        CHECK(core[4].name == "STREAM_STALL");
        CHECK(core[5].name == "LOCK_STALL");
        CHECK(core[6] == TraceEvent::port("PORT_RUNNING_0", 0, true)); // DMA ch0 in
        CHECK(core[7] == TraceEvent::port("PORT_RUNNING_1", 0, false)); // DMA ch0 out
        const auto mem = default_trace_events(arch, TraceUnitType::MemTile);
        REQUIRE(mem.size() == 8);
        CHECK(mem[3] == TraceEvent::port("PORT_RUNNING_3", 3, true));
        CHECK(mem[4] == TraceEvent::port("PORT_RUNNING_4", 0, false));
        const auto shim = default_trace_events(arch, TraceUnitType::ShimTile);
        CHECK(shim.front().name == "DMA_S2MM_0_START_TASK");
        CHECK(shim.back().name == "DMA_S2MM_1_STREAM_STARVATION");
        CHECK(default_trace_events(arch, TraceUnitType::Mem)[2].name == "CONFLICT_DM_BANK_0");
        for (auto type : {TraceUnitType::Core, TraceUnitType::Mem, TraceUnitType::ShimTile, TraceUnitType::MemTile})
            for (const auto& e : default_trace_events(arch, type)) CHECK(trace_event_known(arch, type, e.name));
    }
}

TEST_CASE("trace event names belong to their unit type", "[model][trace]") {
    CHECK(trace_event_known(Arch::AIE2, TraceUnitType::Core, "INSTR_LOCK_ACQUIRE_REQ"));
    CHECK(trace_event_known(Arch::AIE2P, TraceUnitType::Core, "PORT_TLAST_7"));
    CHECK_FALSE(trace_event_known(Arch::AIE2, TraceUnitType::Core, "DMA_S2MM_0_START_TASK"));
    CHECK(trace_event_known(Arch::AIE2, TraceUnitType::Mem, "DMA_S2MM_0_START_TASK"));
    CHECK(trace_event_known(Arch::AIE2, TraceUnitType::MemTile, "DMA_MM2S_SEL1_FINISHED_BD"));
    CHECK_FALSE(trace_event_known(Arch::AIE2, TraceUnitType::MemTile, "DMA_MM2S_1_FINISHED_BD"));
    CHECK(trace_event_known(Arch::AIE2, TraceUnitType::ShimTile, "NONE"));
    CHECK(std::string(trace_unit_type_name(TraceUnitType::ShimTile)) == "shim");
    CHECK(TraceEvent("PORT_RUNNING_5").port_slot() == 5);
    CHECK(TraceEvent("PORT_RUNNING_x").port_slot() == -1);
    CHECK(TraceEvent("LOCK_STALL").port_slot() == -1);
}

TEST_CASE("trace_unit_events pads to eight and checks what IRON's configure_trace checks", "[model][trace]") {
    const auto padded = trace_unit_events(Arch::AIE2, TraceUnitType::Core, std::vector<TraceEvent>{"LOCK_STALL"}, "w");
    REQUIRE(padded.size() == 8);
    CHECK(padded[0].name == "LOCK_STALL");
    CHECK(padded[7].name == "NONE");
    CHECK(trace_unit_events(Arch::AIE2, TraceUnitType::Core, std::nullopt, "w") ==
          default_trace_events(Arch::AIE2, TraceUnitType::Core));
    std::vector<TraceEvent> nine(9, TraceEvent("TRUE"));
    CHECK_THROWS_AS(trace_unit_events(Arch::AIE2, TraceUnitType::Core, nine, "w"), DesignError);
    CHECK_THROWS_WITH(trace_unit_events(Arch::AIE2, TraceUnitType::Core, nine, "enable_trace"),
                      "enable_trace: at most 8 events can be traced at once, have 9");
    CHECK_THROWS_WITH(
        trace_unit_events(Arch::AIE2P, TraceUnitType::ShimTile, std::vector<TraceEvent>{"INSTR_EVENT_0"}, "s"),
        "s: 'INSTR_EVENT_0' is not an event npusim knows for shim trace units on AIE2P (see docs/traces.md for the "
        "names)");
    // Two events of one monitor slot must watch the same port (PORT_RUNNING_0 and PORT_TLAST_0).
    CHECK_NOTHROW(trace_unit_events(
        Arch::AIE2, TraceUnitType::Core,
        std::vector<TraceEvent>{TraceEvent::port("PORT_RUNNING_0", 1, true), TraceEvent::port("PORT_TLAST_0", 1, true)},
        "w"));
    CHECK_THROWS_WITH(trace_unit_events(Arch::AIE2, TraceUnitType::Core,
                                        std::vector<TraceEvent>{TraceEvent::port("PORT_RUNNING_0", 1, true),
                                                                TraceEvent::port("PORT_TLAST_0", 0, false)},
                                        "w"),
                      "w: conflicting port configurations for slot 0: PORT_RUNNING_0 watches DMA S2MM 1, but "
                      "PORT_TLAST_0 watches DMA MM2S 0; events sharing a slot must monitor the same port");
}

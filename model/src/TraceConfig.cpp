#include "npusim/model/TraceConfig.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <utility>

namespace npusim::model {

namespace {

// The event names npusim knows per unit type. They are a subset of aie-rt's event tables,
// xaie_events_aieml.h (AIE2) and xaie_events_aie2p.h (AIE2P), with the module prefix
// (XAIEML_EVENTS_CORE_, XAIE2P_EVENTS_PL_, ...) removed as mlir-aie's generated enums do; every
// name here has the same spelling in both tables, so one list serves both generations.
std::set<std::string, std::less<>> names_for(TraceUnitType type) {
    std::set<std::string, std::less<>> s{"NONE", "TRUE", "EDGE_DETECTION_EVENT_0", "EDGE_DETECTION_EVENT_1"};
    auto ports = [&] {
        for (int i = 0; i < 8; ++i)
            for (const char* k : {"IDLE", "RUNNING", "STALLED", "TLAST"}) s.insert(fmt::format("PORT_{}_{}", k, i));
    };
    auto dma = [&](const char* sel0, const char* sel1) {
        for (const char* ch : {sel0, sel1}) {
            for (const char* dir : {"S2MM", "MM2S"})
                for (const char* what : {"START_TASK", "FINISHED_BD", "FINISHED_TASK", "STALLED_LOCK"})
                    s.insert(fmt::format("DMA_{}_{}_{}", dir, ch, what));
            s.insert(fmt::format("DMA_S2MM_{}_STREAM_STARVATION", ch));
            s.insert(fmt::format("DMA_S2MM_{}_MEMORY_BACKPRESSURE", ch));
            s.insert(fmt::format("DMA_MM2S_{}_STREAM_BACKPRESSURE", ch));
            s.insert(fmt::format("DMA_MM2S_{}_MEMORY_STARVATION", ch));
        }
    };
    switch (type) {
    case TraceUnitType::Core:
        for (const char* n : {"ACTIVE", "DISABLED", "MEMORY_STALL", "STREAM_STALL", "CASCADE_STALL", "LOCK_STALL",
                              "INSTR_EVENT_0", "INSTR_EVENT_1", "INSTR_CALL", "INSTR_RETURN", "INSTR_VECTOR",
                              "INSTR_LOAD", "INSTR_STORE", "INSTR_STREAM_GET", "INSTR_STREAM_PUT", "INSTR_CASCADE_GET",
                              "INSTR_CASCADE_PUT", "INSTR_LOCK_ACQUIRE_REQ", "INSTR_LOCK_RELEASE_REQ"})
            s.insert(n);
        ports();
        break;
    case TraceUnitType::Mem:
        dma("0", "1");
        for (int i = 0; i < 8; ++i) {
            s.insert(fmt::format("CONFLICT_DM_BANK_{}", i));
            s.insert(fmt::format("LOCK_SEL{}_ACQ_EQ", i));
            s.insert(fmt::format("LOCK_SEL{}_ACQ_GE", i));
            s.insert(fmt::format("LOCK_SEL{}_EQUAL_TO_VALUE", i));
            s.insert(fmt::format("LOCK_{}_REL", i));
        }
        break;
    case TraceUnitType::ShimTile:
        dma("0", "1");
        ports();
        break;
    case TraceUnitType::MemTile:
        dma("SEL0", "SEL1");
        ports();
        for (int i = 0; i < 16; ++i) s.insert(fmt::format("CONFLICT_DM_BANK_{}", i));
        break;
    }
    return s;
}

const std::set<std::string, std::less<>>& known(TraceUnitType type) {
    static const std::map<TraceUnitType, std::set<std::string, std::less<>>> tables = [] {
        std::map<TraceUnitType, std::set<std::string, std::less<>>> m;
        for (auto t : {TraceUnitType::Core, TraceUnitType::Mem, TraceUnitType::ShimTile, TraceUnitType::MemTile})
            m[t] = names_for(t);
        return m;
    }();
    return tables.at(type);
}

} // namespace

const char* trace_unit_type_name(TraceUnitType t) {
    switch (t) {
    case TraceUnitType::Core: return "core";
    case TraceUnitType::Mem: return "mem";
    case TraceUnitType::ShimTile: return "shim";
    case TraceUnitType::MemTile: return "memtile";
    }
    return "?";
}

TraceEvent TraceEvent::port(std::string name, int dma_channel, bool master) {
    TraceEvent e(std::move(name));
    e.port_channel = dma_channel;
    e.port_master = master;
    return e;
}

int TraceEvent::port_slot() const {
    if (!name.starts_with("PORT_")) return -1;
    const auto us = name.rfind('_');
    int slot = -1;
    const char* first = name.data() + us + 1;
    const char* last = name.data() + name.size();
    if (auto [p, ec] = std::from_chars(first, last, slot); ec != std::errc() || p != last) return -1;
    return slot;
}

std::vector<TraceEvent> default_trace_events(Arch /*arch: the same names on AIE2 and AIE2P*/, TraceUnitType type) {
    switch (type) {
    case TraceUnitType::Core:
        return {"INSTR_EVENT_0",
                "INSTR_EVENT_1",
                "INSTR_VECTOR",
                "MEMORY_STALL",
                "STREAM_STALL",
                "LOCK_STALL",
                TraceEvent::port("PORT_RUNNING_0", 0, true),
                TraceEvent::port("PORT_RUNNING_1", 0, false)};
    case TraceUnitType::Mem:
        return {"DMA_S2MM_0_START_TASK", "DMA_MM2S_0_START_TASK", "CONFLICT_DM_BANK_0",     "CONFLICT_DM_BANK_1",
                "CONFLICT_DM_BANK_2",    "CONFLICT_DM_BANK_3",    "EDGE_DETECTION_EVENT_0", "EDGE_DETECTION_EVENT_1"};
    case TraceUnitType::MemTile: {
        std::vector<TraceEvent> v;
        for (int i = 0; i < 8; ++i) v.push_back(TraceEvent::port(fmt::format("PORT_RUNNING_{}", i), i % 4, i < 4));
        return v;
    }
    case TraceUnitType::ShimTile:
        return {"DMA_S2MM_0_START_TASK",        "DMA_S2MM_1_START_TASK",       "DMA_MM2S_0_START_TASK",
                "DMA_S2MM_0_FINISHED_TASK",     "DMA_S2MM_1_FINISHED_TASK",    "DMA_MM2S_0_FINISHED_TASK",
                "DMA_S2MM_0_STREAM_STARVATION", "DMA_S2MM_1_STREAM_STARVATION"};
    }
    return {};
}

bool trace_event_known(Arch /*arch*/, TraceUnitType type, std::string_view name) {
    return known(type).count(name) != 0;
}

std::vector<TraceEvent> trace_unit_events(Arch arch, TraceUnitType type,
                                          const std::optional<std::vector<TraceEvent>>& given, const std::string& who) {
    std::vector<TraceEvent> events = given ? *given : default_trace_events(arch, type);
    // IRON (setup.py configure_trace): "At most 8 events can be traced at once, have N."
    if (events.size() > static_cast<std::size_t>(kTraceSlots))
        throw DesignError(
            fmt::format("{}: at most {} events can be traced at once, have {}", who, kTraceSlots, events.size()));
    std::map<int, const TraceEvent*> ports; // slot -> first port event configuring it
    for (const auto& e : events) {
        if (!trace_event_known(arch, type, e.name))
            throw DesignError(fmt::format("{}: '{}' is not an event npusim knows for {} trace units on {} (see "
                                          "docs/traces.md for the names)",
                                          who, e.name, trace_unit_type_name(type), arch_name(arch)));
        const int slot = e.port_slot();
        if (slot < 0 || e.port_channel < 0) continue;
        auto [it, fresh] = ports.emplace(slot, &e);
        const TraceEvent& prev = *it->second;
        if (!fresh && (prev.port_channel != e.port_channel || prev.port_master != e.port_master))
            throw DesignError(fmt::format("{}: conflicting port configurations for slot {}: {} watches DMA {} {}, "
                                          "but {} watches DMA {} {}; events sharing a slot must monitor the same port",
                                          who, slot, prev.name, prev.port_master ? "S2MM" : "MM2S", prev.port_channel,
                                          e.name, e.port_master ? "S2MM" : "MM2S", e.port_channel));
    }
    events.resize(kTraceSlots, TraceEvent("NONE"));
    return events;
}

} // namespace npusim::model

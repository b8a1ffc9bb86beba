#pragma once
// What a design asks the NPU's trace units to record: IRON's Program.enable_trace (mlir-aie
// python/iron/program.py), lowered by the resolver into Netlist::trace. A trace unit belongs to a
// tile and a module of it (mlir-aie's packet types: core, core memory, shim tile, mem tile) and
// records eight event slots; all units write their packets into one trace buffer of
// `buffer_bytes` in host memory (the last runtime-sequence argument on hardware).
//
// Event names are aie-rt's (xaie_events_aieml.h for AIE2, xaie_events_aie2p.h for AIE2P) without
// their prefix, as mlir-aie's parser prints them: "INSTR_EVENT_0", "PORT_RUNNING_1", ... npusim
// knows a subset of them (trace_event_known); for the subset the names are the same in both
// tables. Which of them the simulator makes fire, and how, is docs/traces.md.
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::model {

/// mlir-aie's trace packet types (python/utils/trace/events PacketType), in their numbering: the
/// parser assigns process ids in this order.
enum class TraceUnitType : std::uint8_t { Core = 0, Mem = 1, ShimTile = 2, MemTile = 3 };

/// "core", "mem", "shim", "memtile": the prefix of mlir-aie's process names ("core_trace for ...").
const char* trace_unit_type_name(TraceUnitType t);

/// One event slot. PORT_* events also name the stream-switch port they watch, as IRON's
/// PortEvent(code, WireBundle.DMA, channel, master) does: a DMA channel of the tile and whether the
/// port is the switch's master side (true: the S2MM channel, data into the tile's memory).
struct TraceEvent {
    std::string name; ///< aie-rt name without prefix, e.g. "INSTR_EVENT_0"; "NONE" for an unused slot
    int port_channel = -1; ///< PORT_* events: the DMA channel watched; -1: none configured
    bool port_master = true; ///< PORT_* events: true S2MM (into the tile), false MM2S

    TraceEvent() = default;
    TraceEvent(std::string n) : name(std::move(n)) {} // NOLINT: implicit, like IRON's bare enum values
    TraceEvent(const char* n) : name(n) {} // NOLINT
    /// IRON's PortEvent on a DMA port: `master` true watches S2MM `dma_channel`, false MM2S.
    static TraceEvent port(std::string name, int dma_channel, bool master);
    /// The slot a PORT_* event's monitor uses (its numeric suffix), or -1 for other events.
    int port_slot() const;
    friend bool operator==(const TraceEvent&, const TraceEvent&) = default;
};

/// One trace unit: a tile's module and its eight slots.
struct TraceUnit {
    TraceUnitType type = TraceUnitType::Core;
    TileCoord tile;
    std::string worker; ///< Core / Mem units: the worker on the tile
    std::vector<TraceEvent> events; ///< exactly kTraceSlots, "NONE" in unused slots
};

inline constexpr int kTraceSlots = 8;

/// The trace configuration of a design (Netlist::trace). Without enable_trace it is disabled and a
/// trace in mlir-aie's format records every core with the default events and no buffer limit.
struct TraceConfig {
    bool enabled = false;
    std::uint64_t buffer_bytes = 0; ///< IRON trace_size: the one buffer every unit writes into
    std::vector<TraceUnit> units; ///< in the order IRON's configure_trace emits them
};

/// IRON's default events for a unit type (mlir-aie python/utils/trace/setup.py
/// _get_default_events_for_tile), PortEvent configurations included.
std::vector<TraceEvent> default_trace_events(Arch arch, TraceUnitType type);

/// Whether npusim knows `name` as an event of `type` units on `arch` (the subset of aie-rt's table
/// listed in docs/traces.md).
bool trace_event_known(Arch arch, TraceUnitType type, std::string_view name);

/// The slots of a unit from the events a design gave (nullopt: the defaults), checked as IRON's
/// configure_trace checks them and padded with NONE to kTraceSlots. Throws DesignError naming
/// `who` for more than eight events, an unknown name, or two port events of one slot watching
/// different ports.
std::vector<TraceEvent> trace_unit_events(Arch arch, TraceUnitType type,
                                          const std::optional<std::vector<TraceEvent>>& given, const std::string& who);

} // namespace npusim::model

#pragma once
// Reading the JSON that mlir-aie's trace parser writes from a hardware trace buffer (and that
// MlirAieTraceSink writes from a simulation): the file `python/utils/trace/parse.py` prints at
// mlir-aie 3ca0193 (main, L910: json.dumps of a list of Chrome trace events).
//
// What the reader relies on, from parse.py at 3ca0193:
//   * process_name metadata (L373-386): {"name": "process_name", "ph": "M", "pid": P,
//     "args": {"name": "<core|mem|shim|memtile>_trace for tile<row>,<col>"}}, one per trace unit;
//   * thread_name metadata (L389-405): {"ph": "M", "pid": P, "tid": S, "args": {"name": EVENT}},
//     S the unit's event slot 0..7, EVENT the slot's event name;
//   * "B" (activate_event, L172-190) and "E" (deactivate_events, L141-169) events with "ts" in
//     cycles of that unit's timer, which starts at 0 per tile (convert_commands_to_json, L209): the
//     units of one trace share no time base;
//   * "i" events (event-PC mode, L244-255) carry a capture index, not a time: they are counted and
//     left out.
// A "B" with no "E" (the buffer ended while the event was active) is closed at the unit's last
// timestamp. Anything else (not JSON, a non-list, an event of a pid with no process name, an "E"
// with no "B", a slot outside 0..7, a negative or fractional ts) is a DesignError naming the file
// and the event's index in the list.
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/TraceConfig.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace npusim::traces {

/// One [begin, end) stretch an event slot was active, in its unit's cycles.
struct TraceSpan {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
};

/// One trace unit (a process of the file).
struct TraceUnitRecord {
    model::TraceUnitType type = model::TraceUnitType::Core;
    model::TileCoord tile;
    std::array<std::string, model::kTraceSlots> slot_names; ///< "" for a slot with no thread_name
    std::array<std::vector<TraceSpan>, model::kTraceSlots> spans; ///< per slot, in time order
};

/// A parsed trace file.
struct MlirAieTraceFile {
    std::string origin; ///< the file, for messages
    std::vector<TraceUnitRecord> units; ///< in pid order
    std::uint64_t instant_events = 0; ///< "i" events left out (event-PC mode)
};

/// The largest trace file read (256 MiB: a 1 MiB trace buffer parses to about 30 MB of JSON).
constexpr std::uint64_t kMaxMlirAieTraceBytes = 256ull << 20;

/// Parses `text` (the file's contents); `origin` names it in errors.
MlirAieTraceFile parse_mlir_aie_trace(const std::string& text, const std::string& origin);
/// Reads and parses the file at `path` (at most kMaxMlirAieTraceBytes).
MlirAieTraceFile read_mlir_aie_trace(const std::string& path);

} // namespace npusim::traces

#include "npusim/traces/MlirAieTraceReader.hpp"

#include "npusim/model/BoundedFile.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

namespace npusim::traces {

namespace {

using npusim::DesignError;

/// "core_trace for tile2,0" -> (Core, col 0, row 2); parse.py's process_name_metadata writes the
/// location as "row,col" (the pid_events key).
std::optional<std::pair<model::TraceUnitType, model::TileCoord>> parse_process_name(std::string_view name) {
    const auto sep = name.find("_trace for tile");
    if (sep == std::string_view::npos) return std::nullopt;
    const auto kind = name.substr(0, sep);
    std::optional<model::TraceUnitType> type;
    for (auto t : {model::TraceUnitType::Core, model::TraceUnitType::Mem, model::TraceUnitType::ShimTile,
                   model::TraceUnitType::MemTile})
        if (kind == model::trace_unit_type_name(t)) type = t;
    if (!type) return std::nullopt;
    auto loc = name.substr(sep + std::string_view("_trace for tile").size());
    const auto comma = loc.find(',');
    if (comma == std::string_view::npos) return std::nullopt;
    int row = -1, col = -1;
    auto number = [](std::string_view s, int& v) {
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        return ec == std::errc() && p == s.data() + s.size() && v >= 0;
    };
    if (!number(loc.substr(0, comma), row) || !number(loc.substr(comma + 1), col)) return std::nullopt;
    return std::pair{*type, model::TileCoord{col, row}};
}

} // namespace

MlirAieTraceFile parse_mlir_aie_trace(const std::string& text, const std::string& origin) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw DesignError(fmt::format("trace file {}: not valid JSON: {}", origin, e.what()));
    }
    if (!j.is_array())
        throw DesignError(fmt::format("trace file {}: expected a JSON list of trace events (mlir-aie parse.py's "
                                      "output), got a JSON {}",
                                      origin, j.type_name()));
    MlirAieTraceFile out;
    out.origin = origin;
    std::map<std::int64_t, std::size_t> unit_of_pid;
    auto bad = [&](std::size_t i, const std::string& why) {
        return DesignError(fmt::format("trace file {}: event {} {}", origin, i, why));
    };
    auto int_field = [&](const nlohmann::json& e, std::size_t i, const char* key) -> std::int64_t {
        if (!e.contains(key) || !e[key].is_number()) throw bad(i, fmt::format("has no numeric '{}'", key));
        const double v = e[key].get<double>();
        if (!std::isfinite(v) || v < 0 || v != std::floor(v) || v > 9.0e15)
            throw bad(i, fmt::format("has '{}' {}, expected a whole number of cycles >= 0", key, e[key].dump()));
        return static_cast<std::int64_t>(v);
    };
    // Metadata first: parse.py writes every process and thread name before the events, but a
    // merged or re-sorted file may not; names are taken from wherever they are.
    for (std::size_t i = 0; i < j.size(); ++i) {
        const auto& e = j[i];
        if (!e.is_object()) throw bad(i, fmt::format("is a JSON {}, expected an object", e.type_name()));
        if (e.value("ph", "") != "M" || e.value("name", "") != "process_name") continue;
        const auto pid = int_field(e, i, "pid");
        const std::string name = e.contains("args") && e["args"].is_object() ? e["args"].value("name", "") : "";
        const auto unit = parse_process_name(name);
        if (!unit)
            throw bad(i, fmt::format("names its process '{}', expected '<core|mem|shim|memtile>_trace for "
                                     "tile<row>,<col>'",
                                     name));
        if (unit_of_pid.count(pid)) throw bad(i, fmt::format("names process {} a second time", pid));
        unit_of_pid.emplace(pid, out.units.size());
        TraceUnitRecord u;
        u.type = unit->first;
        u.tile = unit->second;
        out.units.push_back(std::move(u));
    }
    auto unit_for = [&](const nlohmann::json& e, std::size_t i) -> TraceUnitRecord& {
        const auto pid = int_field(e, i, "pid");
        auto it = unit_of_pid.find(pid);
        if (it == unit_of_pid.end()) throw bad(i, fmt::format("belongs to process {}, which has no process_name", pid));
        return out.units[it->second];
    };
    auto slot_of = [&](const nlohmann::json& e, std::size_t i) {
        const auto tid = int_field(e, i, "tid");
        if (tid >= model::kTraceSlots)
            throw bad(i, fmt::format("has tid {}, expected an event slot 0..{}", tid, model::kTraceSlots - 1));
        return static_cast<std::size_t>(tid);
    };
    // Open "B" per (unit, slot); the last timestamp per unit closes what is still open.
    std::map<std::pair<std::size_t, std::size_t>, std::uint64_t> open;
    std::vector<std::uint64_t> last_ts(out.units.size(), 0);
    for (std::size_t i = 0; i < j.size(); ++i) {
        const auto& e = j[i];
        const std::string ph = e.value("ph", "");
        if (ph == "M") {
            if (e.value("name", "") != "thread_name") continue;
            auto& u = unit_for(e, i);
            const std::string name = e.contains("args") && e["args"].is_object() ? e["args"].value("name", "") : "";
            u.slot_names[slot_of(e, i)] = name;
            continue;
        }
        if (ph == "i") {
            ++out.instant_events;
            continue;
        }
        if (ph != "B" && ph != "E") throw bad(i, fmt::format("has phase '{}', expected M, B, E or i", ph));
        auto& u = unit_for(e, i);
        const auto ui = static_cast<std::size_t>(&u - out.units.data());
        const auto slot = slot_of(e, i);
        const auto ts = static_cast<std::uint64_t>(int_field(e, i, "ts"));
        last_ts[ui] = std::max(last_ts[ui], ts);
        const auto key = std::pair{ui, slot};
        if (ph == "B") {
            if (!open.count(key)) open.emplace(key, ts); // parse.py begins an active event once
            continue;
        }
        auto it = open.find(key);
        if (it == open.end())
            throw bad(i, fmt::format("ends slot {} of process '{}_trace for tile{},{}', which never began", slot,
                                     model::trace_unit_type_name(u.type), u.tile.row, u.tile.col));
        if (ts < it->second)
            throw bad(i, fmt::format("ends slot {} at ts {}, before it began at {}", slot, ts, it->second));
        u.spans[slot].push_back({it->second, ts});
        open.erase(it);
    }
    for (const auto& [key, begin] : open)
        out.units[key.first].spans[key.second].push_back({begin, std::max(begin, last_ts[key.first])});
    for (auto& u : out.units)
        for (auto& s : u.spans)
            std::sort(s.begin(), s.end(), [](const TraceSpan& a, const TraceSpan& b) { return a.begin < b.begin; });
    return out;
}

MlirAieTraceFile read_mlir_aie_trace(const std::string& path) {
    std::string text;
    try {
        text = model::read_bounded_file(path, kMaxMlirAieTraceBytes);
    } catch (const model::BoundedFileError& e) {
        switch (e.kind()) {
        case model::BoundedFileError::Kind::Directory:
            throw DesignError(fmt::format("cannot read trace file '{}': it is a directory", path));
        case model::BoundedFileError::Kind::Open: throw DesignError(fmt::format("cannot open trace file '{}'", path));
        case model::BoundedFileError::Kind::Read:
            throw DesignError(fmt::format("cannot read trace file '{}': {}", path, e.what()));
        case model::BoundedFileError::Kind::TooLarge:
            throw DesignError(fmt::format("trace file '{}' is too large: {}", path, e.what()));
        }
        throw;
    }
    return parse_mlir_aie_trace(text, "'" + path + "'");
}

} // namespace npusim::traces

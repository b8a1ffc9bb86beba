#include "npusim/traces/PerfettoTraceSink.hpp"

#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Text.hpp"
#include "npusim/traces/OutputFile.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace npusim::traces {

using model::json_string;
using sim::TrackInfo;

namespace {

/// Sort key of the process a track belongs to: the runtime first, then tiles by (col, row),
/// then core / DMA / locks within a tile.
std::tuple<int, int, int, int> process_key(const TrackInfo& info) {
    switch (info.kind) {
    case TrackInfo::Kind::Runtime: return {0, 0, 0, 0};
    case TrackInfo::Kind::Core: return {1, info.col, info.row, 0};
    case TrackInfo::Kind::Dma: return {1, info.col, info.row, 1};
    case TrackInfo::Kind::Lock: return {1, info.col, info.row, 2};
    }
    return {1, info.col, info.row, 3};
}


const char* category(sim::TraceKind kind) {
    switch (kind) {
    case sim::TraceKind::KernelCall: return "kernel";
    case sim::TraceKind::Transfer: return "transfer";
    case sim::TraceKind::Streaming: return "streaming";
    case sim::TraceKind::LockStall: return "lock_stall";
    case sim::TraceKind::StreamStall: return "stream_stall";
    case sim::TraceKind::CascadeStall: return "cascade_stall";
    case sim::TraceKind::Blocked: return "blocked";
    case sim::TraceKind::LockAcquire: return "lock_acquire";
    case sim::TraceKind::LockRelease: return "lock_release";
    case sim::TraceKind::LockSet: return "lock_set";
    case sim::TraceKind::Other: break;
    }
    return "other";
}

} // namespace

PerfettoTraceSink::PerfettoTraceSink(std::string path) : path_(std::move(path)) {}

std::string PerfettoTraceSink::process_name(const TrackInfo& info) {
    // mlir-aie labels tiles "tile<row>,<col>" (parse.py: str(row) + "," + str(col)).
    switch (info.kind) {
    case TrackInfo::Kind::Runtime: return "runtime";
    case TrackInfo::Kind::Core: return fmt::format("core_trace for tile{},{}", info.row, info.col);
    case TrackInfo::Kind::Dma: {
        const auto kind = npusim::model::tile_kind_of_row(info.row);
        const char* type = kind == npusim::model::TileKind::Shim  ? "shim"
                           : kind == npusim::model::TileKind::Mem ? "memtile"
                                                                  : "mem";
        return fmt::format("{}_trace for tile{},{}", type, info.row, info.col);
    }
    case TrackInfo::Kind::Lock: return fmt::format("locks tile{},{}", info.row, info.col);
    }
    return fmt::format("tile{},{}", info.row, info.col);
}

void PerfettoTraceSink::begin_run(const sim::RunInfo& info) {
    run_ = info;
    run_.trace_config = nullptr; // not kept past the run
}

void PerfettoTraceSink::add_track(int track, const TrackInfo& info) {
    if (index_.count(track))
        throw std::invalid_argument(fmt::format("PerfettoTraceSink: track {} added twice ('{}')", track, info.name));
    index_.emplace(track, static_cast<std::uint32_t>(tracks_.size()));
    ids_.push_back(track);
    tracks_.push_back(info);
}

std::uint32_t PerfettoTraceSink::index_of(int track, const char* call) const {
    auto it = index_.find(track);
    if (it == index_.end())
        throw std::out_of_range(
            fmt::format("PerfettoTraceSink: {} on track {}, which was never added with add_track", call, track));
    return it->second;
}

std::uint32_t PerfettoTraceSink::intern(std::string_view name) {
    if (auto it = name_ids_.find(name); it != name_ids_.end()) return it->second;
    auto id = static_cast<std::uint32_t>(names_.size());
    names_.emplace_back(name);
    name_ids_.emplace(names_.back(), id);
    return id;
}

std::uint32_t PerfettoTraceSink::add_args(sim::TraceArgs args) {
    if (args.empty()) return 0;
    std::string out = "{";
    for (const auto& a : args) {
        if (out.size() > 1) out += ", ";
        out += json_string(a.key);
        out += ": ";
        out += a.is_number ? std::to_string(a.number) : json_string(a.text);
    }
    out += "}";
    args_.push_back(std::move(out));
    return static_cast<std::uint32_t>(args_.size() - 1);
}

void PerfettoTraceSink::add_span(int track, sim::TraceKind kind, std::string_view name, std::uint64_t begin,
                                 std::uint64_t end, sim::TraceArgs args) {
    Event e;
    e.ts = begin;
    e.dur = end > begin ? end - begin : 0;
    e.track = index_of(track, "span");
    e.name = intern(name);
    e.args = add_args(args);
    e.kind = kind;
    events_.push_back(e);
}

void PerfettoTraceSink::span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) {
    add_span(track, sim::TraceKind::Other, name, begin, end, {});
}

void PerfettoTraceSink::detailed_span(int track, sim::TraceKind kind, std::string_view name, std::uint64_t begin,
                                      std::uint64_t end, sim::TraceArgs args) {
    add_span(track, kind, name, begin, end, args);
}

void PerfettoTraceSink::instant(int track, sim::TraceKind kind, std::string_view name, std::uint64_t cycle,
                                sim::TraceArgs args) {
    Event e;
    e.ts = cycle;
    e.track = index_of(track, "instant");
    e.name = intern(name);
    e.args = add_args(args);
    e.kind = kind;
    e.ph = Ph::Instant;
    events_.push_back(e);
}

void PerfettoTraceSink::counter(int track, std::uint64_t cycle, std::int64_t value) {
    Event e;
    e.ts = cycle;
    e.value = value;
    e.track = index_of(track, "counter");
    e.ph = Ph::Counter;
    events_.push_back(e);
}

void PerfettoTraceSink::finish(std::uint64_t /*end_cycle*/) {
    const std::size_t n = tracks_.size();

    // Processes in key order; tracks within a process in track-id order.
    std::map<std::tuple<int, int, int, int>, std::vector<std::uint32_t>> processes;
    for (std::uint32_t i = 0; i < n; ++i) processes[process_key(tracks_[i])].push_back(i);

    std::vector<bool> has_spans(n, false); // spans or instants: the track needs a thread
    for (const Event& e : events_)
        if (e.ph != Ph::Counter) has_spans[e.track] = true;

    std::vector<int> pid(n), tid(n);
    std::vector<std::string> counter_name(n); // JSON-escaped, unique within a process
    std::vector<std::string> process_names;
    int next_pid = 0;
    for (auto& [key, members] : processes) {
        std::sort(members.begin(), members.end(), [&](auto a, auto b) { return ids_[a] < ids_[b]; });
        process_names.push_back(process_name(tracks_[members.front()]));
        std::set<std::string> used;
        int next_tid = 0;
        for (std::uint32_t i : members) {
            pid[i] = next_pid;
            tid[i] = next_tid++;
            std::string name = tracks_[i].name;
            if (!used.insert(name).second) {
                name = fmt::format("{} #{}", tracks_[i].name, ids_[i]);
                used.insert(name);
            }
            counter_name[i] = json_string(name);
        }
        ++next_pid;
    }

    std::stable_sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) { return a.ts < b.ts; });

    std::vector<std::string> span_names;
    span_names.reserve(names_.size());
    for (const std::string& s : names_) span_names.push_back(json_string(s));

    OutputFile out(path_, "Perfetto trace");
    fmt::memory_buffer buf;
    const double cycle_ns = run_.clock_mhz > 0 ? 1000.0 / run_.clock_mhz : 0.0;
    const std::string clock_args = fmt::format(
        R"({{"ts_unit": "cycles", "clock_mhz": {}, "cycle_ns": {}, "design": {}, "device": {}, "arch": {}}})",
        run_.clock_mhz, cycle_ns, json_string(run_.design), json_string(run_.device),
        json_string(npusim::model::arch_name(run_.arch)));
    fmt::format_to(std::back_inserter(buf), "{{\"displayTimeUnit\": \"ns\",\n\"otherData\": {},\n\"traceEvents\": [",
                   clock_args);
    bool first = true;
    auto line = [&]() -> fmt::memory_buffer& {
        buf.append(std::string_view(first ? "\n" : ",\n"));
        first = false;
        return buf;
    };
    auto flush = [&](bool force) {
        if (force || buf.size() >= OutputFile::kChunkBytes) {
            out.write(std::string_view(buf.data(), buf.size()));
            buf.clear();
        }
    };

    int p = 0;
    for (const auto& [key, members] : processes) {
        fmt::format_to(std::back_inserter(line()),
                       R"({{"name": "process_name", "ph": "M", "pid": {}, "args": {{"name": {}}}}})", p,
                       json_string(process_names[static_cast<std::size_t>(p)]));
        for (std::uint32_t i : members) {
            if (tracks_[i].kind == TrackInfo::Kind::Lock && !has_spans[i]) continue;
            fmt::format_to(std::back_inserter(line()),
                           R"({{"name": "thread_name", "ph": "M", "pid": {}, "tid": {}, "args": {{"name": {}}}}})",
                           pid[i], tid[i], json_string(tracks_[i].name));
        }
        ++p;
    }
    if (!processes.empty())
        fmt::format_to(std::back_inserter(line()), R"({{"name": "clock", "ph": "M", "pid": 0, "args": {}}})",
                       clock_args);
    for (const Event& e : events_) {
        switch (e.ph) {
        case Ph::Counter:
            fmt::format_to(std::back_inserter(line()),
                           R"({{"name": {}, "ph": "C", "ts": {}, "pid": {}, "tid": {}, "args": {{"value": {}}}}})",
                           counter_name[e.track], e.ts, pid[e.track], tid[e.track], e.value);
            break;
        case Ph::Span:
            fmt::format_to(
                std::back_inserter(line()),
                R"({{"name": {}, "cat": "{}", "ph": "X", "ts": {}, "dur": {}, "pid": {}, "tid": {}, "args": {}}})",
                span_names[e.name], category(e.kind), e.ts, e.dur, pid[e.track], tid[e.track], args_[e.args]);
            break;
        case Ph::Instant:
            fmt::format_to(
                std::back_inserter(line()),
                R"({{"name": {}, "cat": "{}", "ph": "i", "s": "t", "ts": {}, "pid": {}, "tid": {}, "args": {}}})",
                span_names[e.name], category(e.kind), e.ts, pid[e.track], tid[e.track], args_[e.args]);
            break;
        }
        flush(false);
    }
    buf.append(std::string_view(first ? "]}\n" : "\n]}\n"));
    flush(true);
    out.close();
}

} // namespace npusim::traces

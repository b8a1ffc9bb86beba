#include "npusim/traces/MlirAieTraceSink.hpp"

#include "npusim/model/Text.hpp"
#include "npusim/traces/OutputFile.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace npusim::traces {

using model::json_string;
using model::TraceUnitType;
using sim::TraceKind;
using sim::TrackInfo;

namespace {

// Trace packets (mlir-aie python/utils/trace/utils.py trace_pkts_de_interleave): 8 words, the
// first a header, so 28 payload bytes per 32-byte packet.
constexpr std::uint64_t kPacketBytes = 32;
constexpr std::uint64_t kPayloadBytes = 28;
constexpr std::uint64_t kStartFrameBytes = 8; // convert_to_commands: Start = 0xF0 + 7-byte timer
constexpr std::uint64_t kSyncCycles = 0x3FFFF; // Event_Sync: a gap of 0x3FFFF cycles

/// One stretch [begin, end) a slot is active. `seq`/`sub` order equal timestamps by cause: the
/// record that produced it, then begin-derived (0) before end-derived (1) events of that record.
struct Interval {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::uint64_t seq = 0;
    int sub = 0;
};
using Slot = std::vector<Interval>;

/// Sorted, zero-length stretches dropped, overlapping ones merged (a pulse that fires twice in one
/// cycle is one pulse on hardware). Adjacent ones stay apart: an end and a begin at one ts.
void normalize(Slot& s) {
    s.erase(std::remove_if(s.begin(), s.end(), [](const Interval& i) { return i.end <= i.begin; }), s.end());
    std::sort(s.begin(), s.end(), [](const Interval& a, const Interval& b) {
        return std::tie(a.begin, a.seq, a.sub) < std::tie(b.begin, b.seq, b.sub);
    });
    Slot out;
    for (const auto& i : s) {
        if (!out.empty() && i.begin < out.back().end)
            out.back().end = std::max(out.back().end, i.end);
        else
            out.push_back(i);
    }
    s = std::move(out);
}

/// "DMA_S2MM_0_START_TASK" -> (S2MM, 0, "START_TASK"); mem tiles' "DMA_MM2S_SEL1_..." -> channel -1.
struct DmaEvent {
    model::Direction dir = model::Direction::S2MM;
    int channel = -1;
    std::string what;
};
std::optional<DmaEvent> parse_dma_event(std::string_view name) {
    DmaEvent e;
    if (name.starts_with("DMA_S2MM_"))
        e.dir = model::Direction::S2MM;
    else if (name.starts_with("DMA_MM2S_"))
        e.dir = model::Direction::MM2S;
    else
        return std::nullopt;
    name.remove_prefix(9);
    const auto us = name.find('_');
    if (us == std::string_view::npos) return std::nullopt;
    const auto ch = name.substr(0, us);
    int n = -1;
    if (auto [p, ec] = std::from_chars(ch.data(), ch.data() + ch.size(), n);
        ec != std::errc() || p != ch.data() + ch.size())
        n = -1;
    e.channel = n;
    e.what = std::string(name.substr(us + 1));
    return e;
}

/// Bytes of one event-time frame (convert_to_commands): Single0/1/2 for one slot changing,
/// Multiple0/1/2 for several, by the cycles since the previous frame, plus Event_Sync bytes for
/// gaps beyond 18 bits.
std::uint64_t frame_bytes(std::uint64_t delta, int changed) {
    std::uint64_t sync = delta / kSyncCycles;
    delta %= kSyncCycles;
    const std::uint64_t width = delta < 16 ? 1 : delta < 1024 ? 2 : 3;
    return sync + (changed == 1 ? width : width + 1);
}

} // namespace

MlirAieTraceSink::MlirAieTraceSink(std::string path) : path_(std::move(path)) {}

std::string MlirAieTraceSink::process_name(TraceUnitType type, model::TileCoord tile) {
    // parse.py process_name_metadata: f"{name}_trace for tile{loc}", loc = "row,col".
    return fmt::format("{}_trace for tile{},{}", model::trace_unit_type_name(type), tile.row, tile.col);
}

void MlirAieTraceSink::begin_run(const sim::RunInfo& info) {
    arch_ = info.arch;
    config_.reset();
    if (info.trace_config && info.trace_config->enabled) config_ = *info.trace_config;
}

void MlirAieTraceSink::add_track(int track, const TrackInfo& info) {
    if (index_.count(track))
        throw std::invalid_argument(fmt::format("MlirAieTraceSink: track {} added twice ('{}')", track, info.name));
    index_.emplace(track, static_cast<std::uint32_t>(tracks_.size()));
    tracks_.push_back(info);
    records_.emplace_back();
}

std::uint32_t MlirAieTraceSink::index_of(int track, const char* call) const {
    auto it = index_.find(track);
    if (it == index_.end())
        throw std::out_of_range(
            fmt::format("MlirAieTraceSink: {} on track {}, which was never added with add_track", call, track));
    return it->second;
}

void MlirAieTraceSink::record(int track, const char* call, TraceKind kind, std::uint64_t begin, std::uint64_t end) {
    records_[index_of(track, call)].push_back({kind, begin, end, seq_++});
}

void MlirAieTraceSink::span(int track, std::string_view /*name*/, std::uint64_t begin, std::uint64_t end) {
    const auto i = index_of(track, "span");
    if (tracks_[i].kind == TrackInfo::Kind::Dma) record(track, "span", TraceKind::Transfer, begin, end);
}

void MlirAieTraceSink::detailed_span(int track, TraceKind kind, std::string_view /*name*/, std::uint64_t begin,
                                     std::uint64_t end, sim::TraceArgs /*args*/) {
    record(track, "detailed_span", kind, begin, end);
}

void MlirAieTraceSink::instant(int track, TraceKind kind, std::string_view /*name*/, std::uint64_t cycle,
                               sim::TraceArgs /*args*/) {
    record(track, "instant", kind, cycle, cycle);
}

void MlirAieTraceSink::counter(int track, std::uint64_t /*cycle*/, std::int64_t /*value*/) {
    (void)index_of(track, "counter");
}

std::vector<std::string> MlirAieTraceSink::warnings() const { return warnings_; }

void MlirAieTraceSink::finish(std::uint64_t end_cycle) {
    totals_ = {};
    warnings_.clear();
    static const std::vector<Record> kNone;

    // Tracks by what they are.
    std::map<model::TileCoord, std::uint32_t> core_track;
    std::map<std::tuple<model::TileCoord, model::Direction, int>, std::uint32_t> dma_track;
    for (std::uint32_t i = 0; i < tracks_.size(); ++i) {
        const auto& t = tracks_[i];
        const model::TileCoord tile{t.col, t.row};
        if (t.kind == TrackInfo::Kind::Core) core_track.emplace(tile, i);
        if (t.kind == TrackInfo::Kind::Dma && t.channel >= 0) dma_track.emplace(std::tuple(tile, t.dir, t.channel), i);
    }
    auto core_records = [&](model::TileCoord tile) -> const std::vector<Record>& {
        auto it = core_track.find(tile);
        return it == core_track.end() ? kNone : records_[it->second];
    };
    auto dma_records = [&](model::TileCoord tile, model::Direction dir, int ch) -> const std::vector<Record>& {
        auto it = dma_track.find(std::tuple(tile, dir, ch));
        return it == dma_track.end() ? kNone : records_[it->second];
    };

    // The units: the design's configuration, or every core with the default events.
    std::vector<model::TraceUnit> units;
    if (config_) {
        units = config_->units;
    } else {
        for (const auto& t : tracks_) {
            if (t.kind != TrackInfo::Kind::Core) continue;
            model::TraceUnit u;
            u.type = TraceUnitType::Core;
            u.tile = {t.col, t.row};
            u.worker = t.name;
            u.events = model::trace_unit_events(arch_, TraceUnitType::Core, std::nullopt, "default core trace");
            units.push_back(std::move(u));
        }
    }
    {
        std::set<std::pair<TraceUnitType, model::TileCoord>> seen; // one process per (type, tile)
        std::vector<model::TraceUnit> unique;
        for (auto& u : units)
            if (seen.emplace(u.type, u.tile).second) unique.push_back(std::move(u));
        units = std::move(unique);
    }
    // pids as parse.py's setup_trace_metadata assigns them: by packet type, then configuration order.
    std::vector<std::size_t> order;
    for (auto type : {TraceUnitType::Core, TraceUnitType::Mem, TraceUnitType::ShimTile, TraceUnitType::MemTile})
        for (std::size_t u = 0; u < units.size(); ++u)
            if (units[u].type == type) order.push_back(u);

    // The slots' activity per unit.
    std::vector<std::array<Slot, model::kTraceSlots>> slots(units.size());
    for (std::size_t ui = 0; ui < units.size(); ++ui) {
        const auto& u = units[ui];
        auto port_records = [&](int monitor) -> const std::vector<Record>& {
            for (const auto& e : u.events)
                if (e.port_slot() == monitor && e.port_channel >= 0)
                    return dma_records(u.tile, e.port_master ? model::Direction::S2MM : model::Direction::MM2S,
                                       e.port_channel);
            return kNone;
        };
        for (int s = 0; s < model::kTraceSlots && s < static_cast<int>(u.events.size()); ++s) {
            const auto& name = u.events[static_cast<std::size_t>(s)].name;
            Slot& out = slots[ui][static_cast<std::size_t>(s)];
            auto pulses = [&](const std::vector<Record>& recs, TraceKind kind, bool at_end) {
                for (const auto& r : recs)
                    if (r.kind == kind) {
                        const auto t = at_end ? r.end : r.begin;
                        out.push_back({t, t + 1, r.seq, at_end ? 1 : 0});
                    }
            };
            auto spans = [&](const std::vector<Record>& recs, TraceKind kind) {
                for (const auto& r : recs)
                    if (r.kind == kind) out.push_back({r.begin, r.end, r.seq, 0});
            };
            if (name.starts_with("PORT_RUNNING_")) {
                // Tile DMAs report when their data moves (Streaming); shim DMAs only whole tasks.
                const auto& recs = port_records(u.events[static_cast<std::size_t>(s)].port_slot());
                const bool streams = std::any_of(recs.begin(), recs.end(),
                                                 [](const Record& r) { return r.kind == TraceKind::Streaming; });
                spans(recs, streams ? TraceKind::Streaming : TraceKind::Transfer);
                continue;
            }
            switch (u.type) {
            case TraceUnitType::Core: {
                const auto& recs = core_records(u.tile);
                if (name == "INSTR_EVENT_0" || name == "INSTR_CALL") pulses(recs, TraceKind::KernelCall, false);
                if (name == "INSTR_EVENT_1" || name == "INSTR_RETURN") pulses(recs, TraceKind::KernelCall, true);
                if (name == "INSTR_VECTOR") spans(recs, TraceKind::KernelCall);
                if (name == "LOCK_STALL") spans(recs, TraceKind::LockStall);
                if (name == "CASCADE_STALL") spans(recs, TraceKind::CascadeStall);
                if (name == "INSTR_LOCK_ACQUIRE_REQ") pulses(recs, TraceKind::LockAcquire, false);
                if (name == "INSTR_LOCK_RELEASE_REQ") pulses(recs, TraceKind::LockRelease, false);
                break;
            }
            case TraceUnitType::Mem:
            case TraceUnitType::ShimTile: {
                const auto dma = parse_dma_event(name);
                if (!dma || dma->channel < 0) break;
                const auto& recs = dma_records(u.tile, dma->dir, dma->channel);
                const bool shim = u.type == TraceUnitType::ShimTile;
                if (dma->what == "START_TASK") {
                    if (shim) {
                        pulses(recs, TraceKind::Transfer, false); // each task
                    } else {
                        for (const auto& r : recs) // the channel's BD chain starts once
                            if (r.kind == TraceKind::Transfer) {
                                out.push_back({r.begin, r.begin + 1, r.seq, 0});
                                break;
                            }
                    }
                }
                if (dma->what == "FINISHED_BD" || (shim && dma->what == "FINISHED_TASK"))
                    pulses(recs, TraceKind::Transfer, true);
                if (dma->what == "STALLED_LOCK") spans(recs, TraceKind::LockStall);
                // The channel waits on its stream: an S2MM for data, an MM2S for its receivers.
                if ((dma->what == "STREAM_STARVATION" && dma->dir == model::Direction::S2MM) ||
                    (dma->what == "STREAM_BACKPRESSURE" && dma->dir == model::Direction::MM2S))
                    spans(recs, TraceKind::StreamStall);
                break;
            }
            case TraceUnitType::MemTile: break;
            }
        }
        for (auto& s : slots[ui]) normalize(s);
    }

    // The trace buffer: each unit's frames, packed into packets that fill the buffer in time order.
    std::vector<std::uint64_t> kept_packets(units.size(), UINT64_MAX);
    std::vector<std::map<std::uint64_t, std::uint64_t>> frame_packet(units.size()); // change cycle -> packet
    if (config_) {
        struct Packet {
            std::uint64_t time;
            std::size_t rank; // the unit's place in pid order
            std::size_t unit;
        };
        std::vector<Packet> packets;
        for (std::size_t rank = 0; rank < order.size(); ++rank) {
            const std::size_t ui = order[rank];
            std::map<std::uint64_t, int> changes; // cycle -> slots changing then
            for (const auto& s : slots[ui])
                for (const auto& i : s) {
                    ++changes[i.begin];
                    ++changes[i.end];
                }
            if (changes.empty()) continue;
            std::uint64_t cursor = kStartFrameBytes;
            std::uint64_t prev = changes.begin()->first;
            std::uint64_t next_packet = 0;
            for (const auto& [t, n] : changes) {
                cursor += frame_bytes(t - prev, n);
                prev = t;
                frame_packet[ui][t] = (cursor - 1) / kPayloadBytes;
                for (; cursor >= (next_packet + 1) * kPayloadBytes; ++next_packet) packets.push_back({t, rank, ui});
            }
            if (cursor > next_packet * kPayloadBytes) packets.push_back({end_cycle, rank, ui}); // flushed at the end
        }
        std::stable_sort(packets.begin(), packets.end(), [](const Packet& a, const Packet& b) {
            return std::tie(a.time, a.rank) < std::tie(b.time, b.rank);
        });
        totals_.packets = packets.size();
        totals_.buffer_packets = config_->buffer_bytes / kPacketBytes;
        std::fill(kept_packets.begin(), kept_packets.end(), 0);
        for (std::size_t p = 0; p < packets.size() && p < totals_.buffer_packets; ++p) ++kept_packets[packets[p].unit];
    }

    // Events: B and E per kept stretch, per pid in time order.
    struct Ev {
        std::uint64_t ts;
        bool begin;
        std::uint64_t seq;
        int sub;
        int slot;
    };
    std::vector<std::vector<Ev>> events(order.size());
    std::uint64_t first_dropped = UINT64_MAX;
    for (std::size_t pid = 0; pid < order.size(); ++pid) {
        const std::size_t ui = order[pid];
        for (int s = 0; s < model::kTraceSlots; ++s)
            for (const auto& i : slots[ui][static_cast<std::size_t>(s)]) {
                if (config_ && frame_packet[ui].at(i.begin) >= kept_packets[ui]) {
                    ++totals_.dropped;
                    first_dropped = std::min(first_dropped, i.begin);
                    continue;
                }
                ++totals_.events;
                events[pid].push_back({i.begin, true, i.seq, i.sub, s});
                events[pid].push_back({i.end, false, i.seq, i.sub, s});
            }
        std::sort(events[pid].begin(), events[pid].end(), [](const Ev& a, const Ev& b) {
            return std::tuple(a.ts, a.begin, a.seq, a.sub, a.slot) < std::tuple(b.ts, b.begin, b.seq, b.sub, b.slot);
        });
    }
    if (totals_.dropped > 0)
        warnings_.push_back(fmt::format(
            "trace buffer full: enable_trace's trace_size of {} B holds {} packets of {} B, the run produced {}; {} of "
            "{} trace events were dropped (from cycle {} on), as on the NPU when its trace buffer fills; raise "
            "trace_size",
            config_->buffer_bytes, totals_.buffer_packets, kPacketBytes, totals_.packets, totals_.dropped,
            totals_.dropped + totals_.events, first_dropped));

    // The file, as parse.py prints it: json.dumps of the list, one object per line.
    OutputFile out(path_, "mlir-aie trace");
    fmt::memory_buffer buf;
    bool first = true;
    auto line = [&]() -> fmt::memory_buffer& {
        buf.append(std::string_view(first ? "[" : ",\n"));
        first = false;
        return buf;
    };
    auto flush = [&](bool force) {
        if (force || buf.size() >= OutputFile::kChunkBytes) {
            out.write(std::string_view(buf.data(), buf.size()));
            buf.clear();
        }
    };
    std::vector<std::array<std::string, model::kTraceSlots>> names(order.size());
    for (std::size_t pid = 0; pid < order.size(); ++pid) {
        const auto& u = units[order[pid]];
        fmt::format_to(std::back_inserter(line()),
                       R"({{"name": "process_name", "ph": "M", "pid": {}, "args": {{"name": {}}}}})", pid,
                       json_string(process_name(u.type, u.tile)));
        for (int s = 0; s < model::kTraceSlots; ++s) {
            const auto idx = static_cast<std::size_t>(s);
            names[pid][idx] = json_string(idx < u.events.size() ? u.events[idx].name : std::string("NONE"));
            fmt::format_to(std::back_inserter(line()),
                           R"({{"name": "thread_name", "ph": "M", "pid": {}, "tid": {}, "args": {{"name": {}}}}})", pid,
                           s, names[pid][idx]);
        }
    }
    for (std::size_t pid = 0; pid < order.size(); ++pid) {
        for (const auto& e : events[pid]) {
            fmt::format_to(std::back_inserter(line()),
                           R"({{"name": {}, "ts": {}, "ph": "{}", "pid": {}, "tid": {}, "args": {{}}}})",
                           names[pid][static_cast<std::size_t>(e.slot)], e.ts, e.begin ? "B" : "E", pid, e.slot);
            flush(false);
        }
    }
    buf.append(std::string_view(first ? "[]\n" : "]\n"));
    flush(true);
    out.close();
}

} // namespace npusim::traces

#include "SpanCollector.hpp"

#include "HtmlText.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace npusim::traces::html {

using sim::TraceKind;
using sim::TrackInfo;

void SpanCollector::begin_run(const sim::RunInfo& info) {
    run_.run = info;
    run_.run.trace_config = nullptr; // not kept past the run
    run_.run.netlist = nullptr;
    run_.run.timing = nullptr;
    if (info.timing) {
        run_.tile_dma_peak = info.timing->tile_dma_bytes_per_cycle;
        run_.shim_dma_peak = info.timing->shim_dma_bytes_per_cycle;
    }
    run_.locks.clear();
    run_.tiles.clear();
    run_.flows.clear();
    shim_task_bytes_.clear();
    const model::Netlist* net = info.netlist;
    if (!net) return;
    if (net->device) {
        run_.cols = net->device->cols;
        run_.rows = net->device->rows;
    }
    auto& tiles = run_.tiles;
    std::map<std::pair<int, int>, std::size_t> tile_index;
    auto tile = [&](model::TileCoord t) -> TileInfo& {
        auto [it, added] = tile_index.try_emplace({t.col, t.row}, tiles.size());
        if (added) {
            tiles.emplace_back();
            tiles.back().tile = t;
        }
        return tiles[it->second];
    };
    for (const auto& c : net->cores) tile(c.tile).workers.push_back(c.worker);
    for (const auto& b : net->buffers) {
        auto& t = tile(b.tile);
        t.buffers.push_back(fmt::format("{} ({}, @0x{:05x})", b.name, bytes_str(b.bytes), b.address));
        t.buffer_bytes += b.bytes;
    }
    for (const auto& l : net->locks) {
        tile(l.tile).locks.push_back(fmt::format("{} (id {}, init {})", l.name, l.id, l.init));
        run_.locks.push_back({l.name, l.prov.object, l.prov.role, l.tile, l.init});
    }
    for (const auto& f : net->fifo_ends) {
        std::string text = f.describe() + ": " + model::fifo_end_holding_name(f.holding);
        if (f.depth > 0) text += fmt::format(", depth {} x {}", f.depth, bytes_str(f.object_bytes));
        tile(f.tile).fifo_ends.push_back(std::move(text));
    }
    for (const auto& f : net->flows) {
        tile(f.source.tile);
        for (const auto& d : f.dests) tile(d.tile);
        run_.flows.push_back({f.prov.describe(), f.source, f.dests, f.paths});
    }
    std::sort(tiles.begin(), tiles.end(), [](const TileInfo& a, const TileInfo& b) {
        return std::make_pair(a.tile.col, a.tile.row) < std::make_pair(b.tile.col, b.tile.row);
    });
    for (const auto& op : net->sequence) {
        if (op.kind != model::RuntimeOp::Kind::StartTask || op.task < 0) continue;
        const auto& task = net->tasks.at(static_cast<std::size_t>(op.task));
        shim_task_bytes_[model::to_string(model::StreamEndpoint{task.tile, task.dir, task.channel})].push_back(
            task.bytes());
    }
}

void SpanCollector::add_track(int track, const TrackInfo& info) {
    if (index_.count(track)) throw std::invalid_argument(fmt::format("HTML report: track {} added twice", track));
    index_.emplace(track, run_.tracks.size());
    run_.tracks.emplace_back();
    run_.tracks.back().id = track;
    run_.tracks.back().info = info;
}

Track& SpanCollector::track_of(int track, const char* call) {
    const auto it = index_.find(track);
    if (it == index_.end())
        throw std::out_of_range(fmt::format("HTML report: {}() on track {}, which was never added", call, track));
    return run_.tracks[it->second];
}

std::uint32_t SpanCollector::intern(std::string_view name) {
    if (const auto it = name_ids_.find(name); it != name_ids_.end()) return it->second;
    const auto id = static_cast<std::uint32_t>(run_.names.size());
    run_.names.emplace_back(name);
    name_ids_.emplace(run_.names.back(), id);
    return id;
}

void SpanCollector::add_span(int track, TraceKind kind, std::string_view name, std::uint64_t begin, std::uint64_t end,
                             sim::TraceArgs args) {
    Track& t = track_of(track, "span");
    if (end < begin) end = begin;
    // A shim DMA reports each task as a plain span: it is that channel's transfer.
    if (kind == TraceKind::Other && t.info.kind == TrackInfo::Kind::Dma) kind = TraceKind::Transfer;
    const std::uint64_t dur = end - begin;
    switch (kind) {
    case TraceKind::KernelCall:
        t.kernel_cycles += dur;
        ++t.calls;
        break;
    case TraceKind::Transfer: {
        t.transfer_cycles += dur;
        bool has_bytes = false;
        for (const auto& a : args)
            if (a.key == "bytes" && a.is_number) {
                t.bytes += static_cast<std::uint64_t>(std::max<std::int64_t>(0, a.number));
                has_bytes = true;
            }
        if (!has_bytes && t.info.kind == TrackInfo::Kind::Dma && t.info.row == 0) {
            // A shim task: its bytes from the sequence, in the order tasks run on the channel.
            const auto it = shim_task_bytes_.find(model::to_string(
                model::StreamEndpoint{{t.info.col, t.info.row}, t.info.dir, std::max(0, t.info.channel)}));
            if (it != shim_task_bytes_.end() && !it->second.empty())
                t.bytes += it->second[t.transfers % it->second.size()];
            t.streaming_cycles += dur;
        }
        ++t.transfers;
        break;
    }
    case TraceKind::Streaming: t.streaming_cycles += dur; break;
    case TraceKind::LockStall:
    case TraceKind::CascadeStall: t.stall_cycles += dur; break;
    case TraceKind::Blocked: t.blocked_cycles += dur; break;
    default: break;
    }
    Span s;
    s.begin = begin;
    s.end = end;
    s.kind = kind;
    s.name = intern(name);
    // A streaming span's arguments are its transfer's, shown with the transfer. Equal argument
    // sets (a BD's fifo, element, bytes) are stored once.
    if (!args.empty() && kind != TraceKind::Streaming) {
        std::string a = "{";
        for (const auto& arg : args) {
            if (a.size() > 1) a += ",";
            a += script_json_string(arg.key) + ":" + (arg.is_number ? std::to_string(arg.number) : script_json_string(arg.text));
        }
        a += "}";
        const auto [it, added] = arg_ids_.try_emplace(std::move(a), static_cast<std::uint32_t>(run_.args.size()));
        if (added) run_.args.push_back(it->first);
        s.args = it->second;
    }
    t.spans.push_back(s);
    ++run_.span_count;
}

void SpanCollector::counter(int track, std::uint64_t cycle, std::int64_t value) {
    auto& v = track_of(track, "counter").values;
    if (!v.empty() && v.back().first == cycle)
        v.back().second = value; // the value from this cycle on is the last one reported
    else if (v.empty() || v.back().second != value)
        v.emplace_back(cycle, value);
}

void SpanCollector::finish(std::uint64_t end_cycle) {
    run_.end_cycle = end_cycle;
    run_.finished = true;
}

} // namespace npusim::traces::html

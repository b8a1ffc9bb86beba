#include "Reduction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace npusim::traces::html {

using sim::TraceKind;
using sim::TrackInfo;

int kind_index(TraceKind k) {
    switch (k) {
    case TraceKind::KernelCall: return 1;
    case TraceKind::Transfer: return 2;
    case TraceKind::Streaming: return 3;
    case TraceKind::LockStall: return 4;
    case TraceKind::Blocked: return 5;
    case TraceKind::StreamStall: return 6;
    case TraceKind::CascadeStall: return 7;
    default: return 0;
    }
}

namespace {

// Drawing order of the kinds on a row: long spans first, so shorter ones show on top.
int draw_order(int kind) {
    // other, kernel, transfer, streaming, lock stall, blocked, stream stall, cascade stall
    static constexpr int order[] = {1, 2, 0, 4, 5, 6, 5, 5};
    return order[kind];
}

struct RawSeries {
    int kind = 0;
    std::vector<const Span*> spans;
};

// The spans a gap of `q` cycles leaves (spans of one series at most q apart merge).
std::size_t count_with(const std::vector<std::vector<RawSeries>>& rows, std::uint64_t q) {
    std::size_t c = 0;
    for (const auto& row : rows)
        for (const auto& s : row) {
            std::uint64_t end = 0;
            bool open = false;
            for (const auto* sp : s.spans) {
                if (open && sp->begin <= end + q) {
                    end = std::max(end, sp->end);
                    continue;
                }
                ++c;
                open = true;
                end = sp->end;
            }
        }
    return c;
}

} // namespace

std::tuple<int, int, int, int, int, int> timeline_key(const TrackInfo& t) {
    if (t.kind == TrackInfo::Kind::Runtime) return {0, 0, 0, 0, 0, 0};
    return {1,        t.col, -t.row, t.kind == TrackInfo::Kind::Core ? 0 : 1, t.dir == model::Direction::S2MM ? 0 : 1,
            t.channel};
}

ReducedTimeline reduce_timeline(const CollectedRun& run, std::size_t max_spans) {
    const auto& tracks = run.tracks;
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < tracks.size(); ++i)
        if (tracks[i].info.kind != TrackInfo::Kind::Lock) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return timeline_key(tracks[a].info) < timeline_key(tracks[b].info);
    });
    // Per track, per kind, the spans in time order.
    std::vector<std::vector<RawSeries>> raw;
    for (auto i : order) {
        std::map<int, std::vector<const Span*>> by_kind;
        for (const auto& sp : tracks[i].spans) by_kind[kind_index(sp.kind)].push_back(&sp);
        auto& series = raw.emplace_back();
        for (auto& [k, v] : by_kind) {
            std::stable_sort(v.begin(), v.end(), [](const Span* a, const Span* b) { return a->begin < b->begin; });
            series.push_back({k, std::move(v)});
        }
        std::sort(series.begin(), series.end(),
                  [](const RawSeries& a, const RawSeries& b) { return draw_order(a.kind) < draw_order(b.kind); });
    }
    ReducedTimeline out;
    std::uint64_t q = 0;
    if (max_spans > 0 && run.span_count > max_spans) {
        q = 1;
        while (count_with(raw, q) > max_spans && q < (std::uint64_t{1} << 62)) q *= 2;
    }
    out.quantum = q;
    for (std::size_t r = 0; r < order.size(); ++r) {
        auto& row = out.rows.emplace_back();
        row.track = &tracks[order[r]];
        for (const auto& s : raw[r]) {
            auto& series = row.series.emplace_back();
            series.kind = s.kind;
            std::size_t k = 0;
            while (k < s.spans.size()) {
                const Span* first = s.spans[k];
                MergedSpan m{first->begin,  first->end,  first->end - first->begin,
                             first->merged, first->name, first->args};
                std::size_t next = k + 1;
                if (q > 0)
                    while (next < s.spans.size() && s.spans[next]->begin <= m.end + q) {
                        m.end = std::max(m.end, s.spans[next]->end);
                        m.busy += s.spans[next]->end - s.spans[next]->begin;
                        m.count += s.spans[next]->merged;
                        ++next;
                    }
                series.spans.push_back(m);
                ++out.embedded;
                k = next;
            }
        }
    }
    return out;
}

namespace {

// The lock of a lock track, from the netlist (null if it has none).
const LockInfo* lock_of(const CollectedRun& run, const Track& t) {
    const LockInfo* lock = nullptr;
    for (const auto& l : run.locks)
        if (l.name == t.info.name && l.tile.col == t.info.col && l.tile.row == t.info.row) lock = &l;
    return lock;
}

// The minimum and maximum the value takes in each interval (the value carried into an interval
// counts); about max_points / 2 intervals over the run.
void reduce_to_envelope(ReducedCounter& c, const std::vector<std::pair<std::uint64_t, std::int64_t>>& vals,
                        std::uint64_t end_cycle, std::size_t max_points) {
    const std::uint64_t buckets = std::max<std::size_t>(1, max_points / 2);
    const std::uint64_t width =
        std::max<std::uint64_t>(1, (std::max(end_cycle, vals.back().first) + buckets) / buckets);
    c.envelope = true;
    c.width = width;
    std::size_t k = 0;
    std::int64_t carry = vals.front().second;
    for (std::uint64_t bkt = vals.front().first / width; k < vals.size(); ++bkt) {
        const std::uint64_t b0 = bkt * width, b1 = b0 + width;
        std::int64_t mn = carry, mx = carry;
        bool any = false;
        while (k < vals.size() && vals[k].first < b1) {
            if (!any && vals[k].first == b0) mn = mx = vals[k].second;
            mn = std::min(mn, vals[k].second);
            mx = std::max(mx, vals[k].second);
            carry = vals[k].second;
            any = true;
            ++k;
        }
        if (!any) { // jump to the next interval with a value
            if (k < vals.size()) bkt = vals[k].first / width - 1;
            continue;
        }
        c.t.push_back(b0);
        c.lo.push_back(mn);
        c.hi.push_back(mx);
        if (k < vals.size() && vals[k].first >= b1 + width) { // the value holds until the next change
            c.t.push_back(b1);
            c.lo.push_back(carry);
            c.hi.push_back(carry);
        }
    }
}

} // namespace

std::vector<ReducedCounter> reduce_counters(const CollectedRun& run, std::size_t max_points) {
    // Each fifo end's full-slot lock, then the other locks that are neither half of a fifo's lock
    // pair (barriers, runtime-set locks).
    struct Keyed {
        ReducedCounter c;
        const Track* track = nullptr;
        std::tuple<int, int, int, std::string> key;
    };
    std::vector<Keyed> counters;
    for (const auto& t : run.tracks) {
        if (t.info.kind != TrackInfo::Kind::Lock || t.values.empty()) continue;
        const LockInfo* lock = lock_of(run, t);
        std::int64_t max_value = 0;
        for (const auto& v : t.values) max_value = std::max(max_value, v.second);
        Keyed k;
        auto& c = k.c;
        k.track = &t;
        const bool full_slots = lock && lock->role.find("cons_lock") != std::string::npos;
        const bool free_slots = lock && lock->role.find("prod_lock") != std::string::npos;
        if (free_slots) continue; // the complement of its full-slot lock
        if (full_slots) {
            std::string end = lock->role;
            if (const auto at = end.find(" cons_lock"); at != std::string::npos) end.erase(at);
            c.label = fmt::format("'{}' {}", lock->object, end);
            c.kind = "fifo";
            std::int64_t depth = lock->init;
            std::string prod = lock->name;
            if (const auto at = prod.rfind("_cons_lock_"); at != std::string::npos) {
                prod.replace(at, 11, "_prod_lock_");
                for (const auto& l : run.locks)
                    if (l.name == prod && l.tile.col == lock->tile.col && l.tile.row == lock->tile.row) depth += l.init;
            }
            c.cap = std::max<std::int64_t>({1, depth, max_value});
            c.sub = fmt::format("{} on ({},{}): objects full", lock->name, lock->tile.col, lock->tile.row);
            k.key = {0, t.info.col, -t.info.row, c.label};
        } else {
            c.label = lock ? fmt::format("lock {}", lock->name) : "lock " + t.info.name;
            c.kind = "lock";
            c.cap = std::max<std::int64_t>(1, max_value);
            c.sub = fmt::format("on ({},{}){}", t.info.col, t.info.row,
                                lock && !lock->object.empty() ? fmt::format(", '{}' {}", lock->object, lock->role)
                                                              : std::string());
            k.key = {1, t.info.col, -t.info.row, c.label};
        }
        counters.push_back(std::move(k));
    }
    std::stable_sort(counters.begin(), counters.end(), [](const Keyed& a, const Keyed& b) { return a.key < b.key; });
    std::vector<ReducedCounter> out;
    for (auto& k : counters) {
        const auto& vals = k.track->values;
        if (max_points == 0 || vals.size() <= max_points) {
            for (const auto& [t, v] : vals) {
                k.c.t.push_back(t);
                k.c.v.push_back(v);
            }
        } else {
            reduce_to_envelope(k.c, vals, run.end_cycle, max_points);
        }
        out.push_back(std::move(k.c));
    }
    return out;
}

Utilisation utilisation(const CollectedRun& run, const sim::SimResult* result) {
    const double total = static_cast<double>(std::max<std::uint64_t>(1, run.end_cycle));
    std::vector<const Track*> cores, dmas;
    for (const auto& t : run.tracks) {
        if (t.info.kind == TrackInfo::Kind::Core) cores.push_back(&t);
        if (t.info.kind == TrackInfo::Kind::Dma) dmas.push_back(&t);
    }
    auto by_key = [](const Track* a, const Track* b) { return timeline_key(a->info) < timeline_key(b->info); };
    std::sort(cores.begin(), cores.end(), by_key);
    std::sort(dmas.begin(), dmas.end(), by_key);
    Utilisation u;
    for (const auto* t : cores)
        u.cores.push_back({t, 100.0 * static_cast<double>(t->kernel_cycles) / total,
                           100.0 * static_cast<double>(t->stall_cycles) / total});
    for (const auto* t : dmas) {
        DmaFigures f;
        f.track = t;
        f.bytes = t->bytes;
        f.active = t->streaming_cycles;
        f.transfers = t->transfers;
        // Shim channels: a finished run's figures (the trace has one span per task, without its
        // streaming part). Tile DMA channels: the trace's transfers and streaming spans.
        if (result && t->info.row == 0) {
            const model::StreamEndpoint ep{{t->info.col, t->info.row}, t->info.dir, t->info.channel};
            for (const auto& c : result->channels)
                if (c.channel == ep) {
                    f.bytes = c.bytes;
                    if (c.active_cycles) f.active = c.active_cycles; // else the tasks' spans
                    f.transfers = c.bds;
                }
        }
        f.peak = t->info.row == 0 ? run.shim_dma_peak : run.tile_dma_peak;
        f.rate = static_cast<double>(f.bytes) / total;
        f.while_active = f.active ? static_cast<double>(f.bytes) / static_cast<double>(f.active) : 0.0;
        f.of_peak = f.peak > 0 ? 100.0 * f.rate / f.peak : 0.0;
        f.streaming = 100.0 * static_cast<double>(f.active) / total;
        u.dmas.push_back(f);
    }
    return u;
}

} // namespace npusim::traces::html

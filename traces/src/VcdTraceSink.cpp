#include "npusim/traces/VcdTraceSink.hpp"

#include "npusim/traces/OutputFile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace npusim::traces {

using sim::TrackInfo;

namespace {

constexpr int kLockBits = 6; // AIE2 lock values are 0..63

bool is_reg(const TrackInfo& info) { return info.kind == TrackInfo::Kind::Lock; }

const char* kind_prefix(TrackInfo::Kind kind) {
    switch (kind) {
    case TrackInfo::Kind::Core: return "core";
    case TrackInfo::Kind::Dma: return "dma";
    case TrackInfo::Kind::Lock: return "lock";
    case TrackInfo::Kind::Runtime: return "runtime";
    }
    return "track";
}

/// Scope order: the runtime first, then tiles by (col, row).
std::tuple<int, int, int> scope_key(const TrackInfo& info) {
    if (info.kind == TrackInfo::Kind::Runtime) return {0, 0, 0};
    return {1, info.col, info.row};
}

/// `v` as VCD binary digits without leading zeros, two's complement in 64 bits if negative.
std::string binary(std::int64_t v) {
    auto u = static_cast<std::uint64_t>(v);
    if (u == 0) return "0";
    std::string s;
    for (; u != 0; u >>= 1) s.push_back((u & 1u) ? '1' : '0');
    std::reverse(s.begin(), s.end());
    return s;
}

} // namespace

VcdTraceSink::VcdTraceSink(std::string path) : path_(std::move(path)) {}

std::string VcdTraceSink::identifier(std::size_t n) {
    // Bijective base 94 over '!'..'~': every string is used, the shortest ones first.
    std::string id;
    while (true) {
        id.push_back(static_cast<char>('!' + n % 94));
        n /= 94;
        if (n == 0) break;
        --n;
    }
    return id;
}

std::string VcdTraceSink::sanitize(std::string_view name) {
    std::string out;
    bool pending = false; // a run of illegal characters waits to become one '_'
    for (char c : name) {
        bool legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (!legal) {
            pending = true;
            continue;
        }
        if (pending && !out.empty() && out.back() != '_' && c != '_') out.push_back('_');
        pending = false;
        out.push_back(c);
    }
    while (!out.empty() && out.back() == '_') out.pop_back();
    std::size_t lead = out.find_first_not_of('_');
    out.erase(0, lead == std::string::npos ? out.size() : lead);
    return out;
}

std::string VcdTraceSink::scope_name(const TrackInfo& info) {
    if (info.kind == TrackInfo::Kind::Runtime) return "runtime";
    return fmt::format("tile_{}_{}", info.col, info.row);
}

void VcdTraceSink::add_track(int track, const TrackInfo& info) {
    if (index_.count(track))
        throw std::invalid_argument(fmt::format("VcdTraceSink: track {} added twice ('{}')", track, info.name));
    index_.emplace(track, static_cast<std::uint32_t>(tracks_.size()));
    ids_.push_back(track);
    tracks_.push_back(info);
}

std::uint32_t VcdTraceSink::index_of(int track, const char* call) const {
    auto it = index_.find(track);
    if (it == index_.end())
        throw std::out_of_range(
            fmt::format("VcdTraceSink: {} on track {}, which was never added with add_track", call, track));
    return it->second;
}

void VcdTraceSink::span(int track, std::string_view /*name*/, std::uint64_t begin, std::uint64_t end) {
    std::uint32_t i = index_of(track, "span");
    if (is_reg(tracks_[i])) return;
    changes_.push_back({begin, +1, i});
    changes_.push_back({std::max(begin, end), -1, i});
}

void VcdTraceSink::counter(int track, std::uint64_t cycle, std::int64_t value) {
    std::uint32_t i = index_of(track, "counter");
    if (!is_reg(tracks_[i])) return;
    changes_.push_back({cycle, value, i});
}

void VcdTraceSink::instant(int track, sim::TraceKind kind, std::string_view /*name*/, std::uint64_t cycle,
                           sim::TraceArgs /*args*/) {
    std::uint32_t i = index_of(track, "instant");
    if (!is_reg(tracks_[i])) return;
    int strobe = -1;
    switch (kind) {
    case sim::TraceKind::LockAcquire: strobe = kAcquire; break;
    case sim::TraceKind::LockRelease: strobe = kRelease; break;
    case sim::TraceKind::LockSet: strobe = kSet; break;
    default: return;
    }
    strobes_.push_back({cycle, i, static_cast<std::uint8_t>(strobe)});
}

void VcdTraceSink::finish(std::uint64_t end_cycle) {
    const std::size_t n = tracks_.size();

    // Widths of the lock registers.
    std::vector<int> width(n, 1);
    for (std::size_t i = 0; i < n; ++i)
        if (is_reg(tracks_[i])) width[i] = kLockBits;
    auto widen = [&](std::uint32_t i, std::int64_t v) {
        int& w = width[i];
        if (v < 0) w = 64;
        while (w < 64 && static_cast<std::uint64_t>(v) >> w != 0) ++w;
    };
    for (std::uint32_t i = 0; i < n; ++i)
        if (is_reg(tracks_[i]) && tracks_[i].initial) widen(i, *tracks_[i].initial);
    for (const Change& c : changes_)
        if (is_reg(tracks_[c.track])) widen(c.track, c.value);

    // Scopes, declaration order, identifiers and unique names.
    std::map<std::tuple<int, int, int>, std::vector<std::uint32_t>> scopes;
    for (std::uint32_t i = 0; i < n; ++i) scopes[scope_key(tracks_[i])].push_back(i);
    std::vector<std::string> id(n);
    std::vector<std::uint32_t> declared; // track indices in declaration order
    std::size_t next_id = 0;

    // Strobes: sorted by time, then track id; call order (the order things happened) kept.
    std::stable_sort(strobes_.begin(), strobes_.end(), [&](const Strobe& a, const Strobe& b) {
        return a.time != b.time ? a.time < b.time : ids_[a.track] < ids_[b.track];
    });
    std::vector<std::array<bool, kStrobeKinds>> has_strobe(n, std::array<bool, kStrobeKinds>{});
    for (const Strobe& st : strobes_) has_strobe[st.track][st.kind] = true;
    std::vector<std::array<std::string, kStrobeKinds>> strobe_id(n);

    OutputFile out(path_, "VCD trace");
    fmt::memory_buffer buf;
    auto flush = [&](bool force) {
        if (force || buf.size() >= OutputFile::kChunkBytes) {
            out.write(std::string_view(buf.data(), buf.size()));
            buf.clear();
        }
    };
    auto put = [&](std::string_view s) { buf.append(s); };

    put("$version npusim VcdTraceSink $end\n");
    put("$comment 1 ns = 1 cycle $end\n");
    put("$timescale 1ns $end\n");
    put("$scope module npusim $end\n");
    for (auto& [key, members] : scopes) {
        std::sort(members.begin(), members.end(), [&](auto a, auto b) { return ids_[a] < ids_[b]; });
        fmt::format_to(std::back_inserter(buf), "$scope module {} $end\n", scope_name(tracks_[members.front()]));
        std::set<std::string> used;
        for (std::uint32_t i : members) {
            std::string base = sanitize(tracks_[i].name);
            if (base.empty())
                base = fmt::format("{}_{}", kind_prefix(tracks_[i].kind), ids_[i]);
            else if (base.front() >= '0' && base.front() <= '9')
                base = fmt::format("{}_{}", kind_prefix(tracks_[i].kind), base);
            std::string name = base;
            for (int k = 2; !used.insert(name).second; ++k) name = fmt::format("{}_{}", base, k);
            id[i] = identifier(next_id++);
            declared.push_back(i);
            fmt::format_to(std::back_inserter(buf), "$var {} {} {} {} $end\n", is_reg(tracks_[i]) ? "reg" : "wire",
                           width[i], id[i], name);
            static constexpr const char* kSuffix[kStrobeKinds] = {"acquire", "release", "set"};
            for (int kd = 0; kd < kStrobeKinds; ++kd) {
                if (!has_strobe[i][static_cast<std::size_t>(kd)]) continue;
                std::string ev = fmt::format("{}_{}", base, kSuffix[kd]);
                for (int k = 2; !used.insert(ev).second; ++k) ev = fmt::format("{}_{}_{}", base, kSuffix[kd], k);
                auto& sid = strobe_id[i][static_cast<std::size_t>(kd)];
                sid = identifier(next_id++);
                fmt::format_to(std::back_inserter(buf), "$var event 1 {} {} $end\n", sid, ev);
            }
        }
        put("$upscope $end\n");
    }
    put("$upscope $end\n");
    put("$enddefinitions $end\n");

    // Value changes: sorted by time, then track id; call order kept for equal keys.
    std::stable_sort(changes_.begin(), changes_.end(), [&](const Change& a, const Change& b) {
        return a.time != b.time ? a.time < b.time : ids_[a.track] < ids_[b.track];
    });
    std::vector<std::int64_t> active(n, 0); // wires: spans active now
    std::vector<bool> known(n, false); // regs: a value was reported
    std::vector<std::int64_t> value(n, 0); // regs: the value
    std::vector<std::string> shown(n); // the value last written, "" before $dumpvars
    auto current = [&](std::uint32_t i) -> std::string {
        if (!is_reg(tracks_[i])) return fmt::format("{}{}", active[i] > 0 ? '1' : '0', id[i]);
        if (!known[i]) return fmt::format("bx {}", id[i]);
        return fmt::format("b{} {}", binary(value[i]), id[i]);
    };
    // Applies the changes of the step at changes_[k].time; returns the index after them.
    // `emit` gets the tracks whose value changed, in track-id order.
    auto apply_step = [&](std::size_t k, auto&& emit) {
        const std::uint64_t t = changes_[k].time;
        while (k < changes_.size() && changes_[k].time == t) {
            const std::uint32_t i = changes_[k].track;
            for (; k < changes_.size() && changes_[k].time == t && changes_[k].track == i; ++k) {
                if (is_reg(tracks_[i])) {
                    value[i] = changes_[k].value;
                    known[i] = true;
                } else {
                    active[i] += changes_[k].value;
                }
            }
            emit(i);
        }
        return k;
    };

    // $dumpvars holds the values as cycle 0 begins: a lock's initial value (TrackInfo::initial),
    // the wires whose spans begin at 0. A lock's samples at cycle 0 are its value at the end of
    // that cycle (after the acquires there): they follow $dumpvars at the same time, #0. A lock
    // track without an initial value takes its cycle-0 sample as the initial value (x without one).
    for (std::uint32_t i = 0; i < n; ++i)
        if (is_reg(tracks_[i]) && tracks_[i].initial) {
            value[i] = *tracks_[i].initial;
            known[i] = true;
        }
    const auto zero_end = std::partition_point(changes_.begin(), changes_.end(),
                                               [](const Change& c) { return c.time == 0; });
    const auto after_dumpvars = std::stable_partition(changes_.begin(), zero_end, [&](const Change& c) {
        return !(is_reg(tracks_[c.track]) && tracks_[c.track].initial);
    });
    std::size_t k = 0;
    for (; changes_.begin() + static_cast<std::ptrdiff_t>(k) != after_dumpvars; ++k) {
        const Change& c = changes_[k];
        if (is_reg(tracks_[c.track])) {
            value[c.track] = c.value;
            known[c.track] = true;
        } else {
            active[c.track] += c.value;
        }
    }
    put("#0\n$dumpvars\n");
    for (std::uint32_t i : declared) {
        shown[i] = current(i);
        put(shown[i]);
        put("\n");
    }
    put("$end\n");
    std::uint64_t last_time = 0;
    std::size_t m = 0; // next strobe
    while (k < changes_.size() || m < strobes_.size()) {
        const std::uint64_t t = std::min(k < changes_.size() ? changes_[k].time : UINT64_MAX,
                                         m < strobes_.size() ? strobes_[m].time : UINT64_MAX);
        bool stamped = t == 0; // still at #0, right after $dumpvars
        auto stamp = [&] {
            if (!stamped) fmt::format_to(std::back_inserter(buf), "#{}\n", t);
            stamped = true;
        };
        if (k < changes_.size() && changes_[k].time == t)
            k = apply_step(k, [&](std::uint32_t i) {
                std::string now = current(i);
                if (now == shown[i]) return;
                stamp();
                put(now);
                put("\n");
                shown[i] = std::move(now);
            });
        // Strobes after the values of their step: a release and an acquire in one cycle are two
        // triggers at the same time, even when the lock's value ends where it started.
        std::vector<const Strobe*> fired; // once per (track, kind) and step
        for (; m < strobes_.size() && strobes_[m].time == t; ++m) {
            const Strobe& st = strobes_[m];
            if (std::any_of(fired.begin(), fired.end(),
                            [&](const Strobe* f) { return f->track == st.track && f->kind == st.kind; }))
                continue;
            fired.push_back(&st);
            stamp();
            fmt::format_to(std::back_inserter(buf), "1{}\n", strobe_id[st.track][st.kind]);
        }
        if (stamped) last_time = t;
        flush(false);
    }
    if (end_cycle > last_time) fmt::format_to(std::back_inserter(buf), "#{}\n", end_cycle);
    flush(true);
    out.close();
}

} // namespace npusim::traces

#include "MemoryGuard.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

namespace npusim::sim {

MemoryGuard::MemoryGuard(TileMemory& memory, std::vector<model::TileCoord> tiles)
    : memory_(memory), tiles_(std::move(tiles)) {
    std::sort(tiles_.begin(), tiles_.end());
    tiles_.erase(std::unique(tiles_.begin(), tiles_.end()), tiles_.end());
    for (const auto& t : tiles_) {
        spans_.push_back(memory_.with_guards(t));
        constexpr std::uintptr_t kLine = 64;
        auto& storage = copy_storage_.emplace_back(spans_.back().bytes + kLine);
        const auto raw = reinterpret_cast<std::uintptr_t>(storage.data());
        const auto phase = reinterpret_cast<std::uintptr_t>(spans_.back().base) % kLine;
        copies_.push_back(storage.data() + (phase + kLine - raw % kLine) % kLine);
        memory_.watch(t, this);
    }
}

void MemoryGuard::snapshot() {
    for (std::size_t i = 0; i < spans_.size(); ++i) std::memcpy(copies_[i], spans_[i].base, spans_[i].bytes);
    seen_ = memory_.log_end();
}

void MemoryGuard::catch_up() {
    if (seen_ < memory_.log_begin()) return snapshot(); // entries it had not applied were dropped
    const auto end = memory_.log_end();
    for (auto i = seen_; i < end; ++i) {
        const auto& w = memory_.logged(i);
        if (w.by == this) continue;
        const Range r{w.begin, w.end, {}};
        refresh({&r, 1});
    }
    seen_ = end;
}

bool MemoryGuard::shares_tiles() {
    if (shares_ < 0)
        shares_ =
            std::any_of(tiles_.begin(), tiles_.end(), [&](const auto& t) { return memory_.watched_by_other(t, this); });
    return shares_ != 0;
}

void MemoryGuard::publish(std::span<const Range> ranges) {
    for (const auto& r : ranges)
        for (std::size_t i = 0; i < spans_.size(); ++i) {
            const auto* base = spans_[i].base;
            if (r.begin >= base && r.begin < base + spans_[i].bytes) {
                memory_.note_write(tiles_[i], r.begin, r.end, this);
                break;
            }
        }
}

void MemoryGuard::refresh(std::span<const Range> ranges) {
    for (const auto& r : ranges)
        for (std::size_t i = 0; i < spans_.size(); ++i) {
            const auto* base = spans_[i].base;
            const auto* end = base + spans_[i].bytes;
            const auto* b = std::max(r.begin, base);
            const auto* e = std::min(r.end, end);
            if (b < e) std::memcpy(copies_[i] + (b - base), b, static_cast<std::size_t>(e - b));
        }
}

std::string MemoryGuard::compare(std::size_t i, const std::uint8_t* from, const std::uint8_t* to,
                                 std::span<const Range> allowed, std::span<const Range> context) const {
    if (from >= to) return {};
    const auto* base = spans_[i].base;
    const auto* copy = copies_[i];
    const auto off = static_cast<std::size_t>(from - base);
    if (std::memcmp(from, copy + off, static_cast<std::size_t>(to - from)) == 0) return {};
    const std::uint8_t* first = nullptr;
    const std::uint8_t* last = nullptr;
    std::size_t changed = 0;
    for (const auto* q = from; q < to; ++q)
        if (*q != copy[q - base]) {
            if (!first) first = q;
            last = q;
            ++changed;
        }
    return describe(i, first, last, changed, allowed, context);
}

std::string MemoryGuard::check(std::span<const Range> allowed, std::span<const Range> context) const {
    ++full_checks_;
    for (std::size_t i = 0; i < spans_.size(); ++i) {
        const auto* base = spans_[i].base;
        const auto* end = base + spans_[i].bytes;
        // The allowed ranges inside this tile, in address order (a buffer kept between calls).
        auto& inside = inside_;
        inside.clear();
        for (const auto& r : allowed)
            if (r.begin < end && r.end > base)
                inside.push_back({std::max(r.begin, base), std::min(r.end, end), r.name});
        std::sort(inside.begin(), inside.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
        const std::uint8_t* p = base;
        for (const auto& r : inside) {
            if (auto s = compare(i, p, r.begin, allowed, context); !s.empty()) return s;
            p = std::max(p, r.end);
        }
        if (auto s = compare(i, p, end, allowed, context); !s.empty()) return s;
    }
    return {};
}

std::string MemoryGuard::check_within(std::span<const Range> within, std::span<const Range> allowed,
                                      std::span<const Range> context) const {
    ++partial_checks_;
    for (const auto& r : within)
        for (std::size_t i = 0; i < spans_.size(); ++i) {
            const auto* base = spans_[i].base;
            const auto* end = base + spans_[i].bytes;
            if (auto s = compare(i, std::max(r.begin, base), std::min(r.end, end), allowed, context); !s.empty())
                return s;
        }
    return {};
}

std::string MemoryGuard::describe(std::size_t tile, const std::uint8_t* first, const std::uint8_t* last,
                                  std::size_t changed, std::span<const Range> allowed,
                                  std::span<const Range> context) const {
    const auto t = tiles_[tile];
    const auto* mem = spans_[tile].base + TileMemory::kGuardBytes;
    const std::int64_t off = first - mem;
    const std::int64_t extent = static_cast<std::int64_t>(spans_[tile].bytes) - 2 * TileMemory::kGuardBytes;
    std::string where;
    if (off < 0) {
        where = fmt::format("in the guard zone {} B before the start of tile {}'s memory", -off, model::to_string(t));
    } else if (off >= extent) {
        where = fmt::format("in the guard zone {} B past the end of tile {}'s memory (its buffers end at 0x{:x})",
                            off - extent, model::to_string(t), extent);
    } else {
        where = fmt::format("in unallocated memory of tile {}", model::to_string(t));
        for (const auto& b : memory_.buffers())
            if (b.tile == t && off >= b.address && off < static_cast<std::int64_t>(b.address) + b.bytes) {
                where = fmt::format("inside buffer '{}' ({}) at byte {} of its {}", b.name, b.prov.describe(),
                                    off - b.address, b.bytes);
                break;
            }
    }
    // The allowed range the write is nearest to, as the likely culprit: written past its end or
    // before its start.
    std::string near;
    std::int64_t best = -1;
    std::vector<Range> candidates(allowed.begin(), allowed.end());
    candidates.insert(candidates.end(), context.begin(), context.end());
    for (const auto& r : candidates) {
        std::int64_t d = -1;
        std::string rel;
        if (first >= r.end) {
            d = first - r.end;
            rel = d == 0 ? fmt::format("right after the end of {} ({} B)", r.name, r.end - r.begin)
                         : fmt::format("{} B past the end of {} ({} B)", d, r.name, r.end - r.begin);
        } else if (first < r.begin) {
            d = r.begin - first;
            rel = fmt::format("{} B before the start of {} ({} B)", d, r.name, r.end - r.begin);
        }
        // Only a near range is a likely culprit (an overrun or underrun of it).
        if (d >= 0 && d < 1024 && (best < 0 || d < best)) {
            best = d;
            near = rel;
        }
    }
    std::string s = fmt::format("{} byte(s) changed from tile {} offset {}0x{:x}", changed, model::to_string(t),
                                off < 0 ? "-" : "", off < 0 ? -off : off);
    if (last != first) s += fmt::format(" to offset 0x{:x}", last - mem);
    s += ", " + where;
    if (!near.empty()) s += "; that is " + near;
    return s;
}

} // namespace npusim::sim

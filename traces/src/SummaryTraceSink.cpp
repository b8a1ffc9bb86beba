#include "npusim/traces/SummaryTraceSink.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>

namespace npusim::traces {

using sim::TrackInfo;

void SummaryTraceSink::add_track(int track, const TrackInfo& info) {
    if (index_.count(track))
        throw std::invalid_argument(fmt::format("SummaryTraceSink: track {} added twice ('{}')", track, info.name));
    index_.emplace(track, tracks_.size());
    TrackTotals t;
    t.track = track;
    t.info = info;
    tracks_.push_back(std::move(t));
}

SummaryTraceSink::TrackTotals& SummaryTraceSink::at(int track, const char* call) {
    auto it = index_.find(track);
    if (it == index_.end())
        throw std::out_of_range(
            fmt::format("SummaryTraceSink: {} on track {}, which was never added with add_track", call, track));
    return tracks_[it->second];
}

const SummaryTraceSink::TrackTotals* SummaryTraceSink::find(int track) const {
    auto it = index_.find(track);
    return it == index_.end() ? nullptr : &tracks_[it->second];
}

void SummaryTraceSink::span(int track, std::string_view /*name*/, std::uint64_t begin, std::uint64_t end) {
    TrackTotals& t = at(track, "span");
    ++t.spans;
    if (end > begin) t.busy_cycles += end - begin;
}

void SummaryTraceSink::counter(int track, std::uint64_t /*cycle*/, std::int64_t value) {
    TrackTotals& t = at(track, "counter");
    ++t.counter_updates;
    t.min_value = t.min_value ? std::min(*t.min_value, value) : value;
    t.max_value = t.max_value ? std::max(*t.max_value, value) : value;
}

void SummaryTraceSink::finish(std::uint64_t end_cycle) { end_cycle_ = end_cycle; }

std::optional<double> SummaryTraceSink::busy_percent(const TrackTotals& t) const {
    if (!end_cycle_ || *end_cycle_ == 0) return std::nullopt;
    return 100.0 * static_cast<double>(t.busy_cycles) / static_cast<double>(*end_cycle_);
}

std::string SummaryTraceSink::table() const {
    constexpr std::size_t kColumns = 6;
    constexpr std::array<bool, kColumns> right = {false, false, true, true, true, false};
    using Row = std::array<std::string, kColumns>;
    std::vector<Row> rows;
    rows.push_back({"track", "tile", "spans", "busy cycles", "busy %", "values"});
    for (const TrackTotals& t : tracks_) {
        auto pct = busy_percent(t);
        rows.push_back({t.info.name,
                        t.info.kind == TrackInfo::Kind::Runtime ? "-" : fmt::format("({},{})", t.info.col, t.info.row),
                        fmt::format("{}", t.spans), fmt::format("{}", t.busy_cycles),
                        pct ? fmt::format("{:.1f}", *pct) : "-",
                        t.min_value ? fmt::format("{}..{}", *t.min_value, *t.max_value) : ""});
    }

    std::array<std::size_t, kColumns> width{};
    for (const Row& r : rows)
        for (std::size_t c = 0; c < kColumns; ++c) width[c] = std::max(width[c], r[c].size());

    std::string out;
    for (const Row& r : rows) {
        std::string line;
        for (std::size_t c = 0; c < kColumns; ++c) {
            if (c) line += "  ";
            line += right[c] ? fmt::format("{:>{}}", r[c], width[c]) : fmt::format("{:<{}}", r[c], width[c]);
        }
        line.erase(line.find_last_not_of(' ') + 1);
        out += line;
        out += '\n';
    }
    out += end_cycle_ ? fmt::format("end cycle: {}\n", *end_cycle_) : std::string("end cycle: (run not finished)\n");
    return out;
}

} // namespace npusim::traces

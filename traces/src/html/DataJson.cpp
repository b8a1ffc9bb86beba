#include "DataJson.hpp"

#include "HtmlText.hpp"

#include <fmt/format.h>

namespace npusim::traces::html {

namespace {

template <typename T>
std::string joined(const std::vector<T>& v) {
    std::string s;
    for (std::size_t k = 0; k < v.size(); ++k) s += fmt::format("{}{}", k ? "," : "", v[k]);
    return s;
}

} // namespace

std::string render_data(const CollectedRun& run, const ReducedTimeline& timeline,
                        const std::vector<ReducedCounter>& counters) {
    std::string j = "{";
    j += fmt::format("\"end\":{},\"clock_mhz\":{},\"quantum\":{},\"kinds\":[", run.end_cycle, run.run.clock_mhz,
                     timeline.quantum);
    for (std::size_t k = 0; k < std::size(kKinds); ++k) j += (k ? "," : "") + script_json_string(kKinds[k]);
    j += "],\"colors\":[";
    for (std::size_t k = 0; k < std::size(kColors); ++k) j += (k ? "," : "") + script_json_string(kColors[k]);
    j += "],\"names\":[";
    for (std::size_t k = 0; k < run.names.size(); ++k) j += (k ? "," : "") + script_json_string(run.names[k]);
    j += "],\n\"args\":[null";
    // A merged span keeps the arguments of its first span only; the arguments of spans that are
    // not embedded are not written. Indices in order of first use (0: none).
    std::vector<std::uint32_t> args_used(run.args.size(), 0);
    std::string args_json;
    std::uint32_t next_arg = 1;
    auto arg_id = [&](std::uint32_t a) -> std::uint32_t {
        if (a == 0) return 0;
        if (!args_used[a]) {
            args_used[a] = next_arg++;
            args_json += ",";
            args_json += run.args[a];
        }
        return args_used[a];
    };
    std::string groups = "\"groups\":[";
    std::string current_group;
    bool first_group = true, first_track = true;
    for (const auto& row : timeline.rows) {
        const auto& info = row.track->info;
        const std::string label =
            info.kind == sim::TrackInfo::Kind::Runtime
                ? std::string("runtime (host)")
                : fmt::format("{} tile ({},{})", model::tile_kind_name(model::tile_kind_of_row(info.row)), info.col,
                              info.row);
        if (label != current_group || first_group) {
            if (!first_group) groups += "]},\n";
            groups += "{\"label\":" + script_json_string(label) + ",\"tracks\":[";
            current_group = label;
            first_group = false;
            first_track = true;
        }
        groups += first_track ? "" : ",\n";
        first_track = false;
        groups += "{\"name\":" + script_json_string(info.name) + ",\"series\":[";
        bool first_series = true;
        for (const auto& s : row.series) {
            std::string b, d, n, a, m, u;
            bool any_merged = false, any_args = false;
            std::uint64_t prev = 0;
            for (const auto& sp : s.spans) {
                const char* sep = b.empty() ? "" : ",";
                b += fmt::format("{}{}", sep, sp.begin - prev);
                d += fmt::format("{}{}", sep, sp.end - sp.begin);
                n += fmt::format("{}{}", sep, sp.name);
                a += fmt::format("{}{}", sep, arg_id(sp.args));
                any_args |= sp.args != 0;
                m += fmt::format("{}{}", sep, sp.count);
                u += fmt::format("{}{}", sep, sp.busy);
                any_merged |= sp.count > 1;
                prev = sp.begin;
            }
            groups +=
                fmt::format("{}{{\"k\":{},\"b\":[{}],\"d\":[{}],\"n\":[{}]", first_series ? "" : ",", s.kind, b, d, n);
            if (any_args) groups += ",\"a\":[" + a + "]";
            if (any_merged) groups += ",\"m\":[" + m + "],\"u\":[" + u + "]";
            groups += "}";
            first_series = false;
        }
        groups += "]}";
    }
    if (!first_group) groups += "]}";
    groups += "]";
    j += args_json + "],\n" + groups + ",\n\"counters\":[";

    bool first_counter = true;
    for (const auto& c : counters) {
        j += first_counter ? "" : ",\n";
        first_counter = false;
        j += fmt::format("{{\"label\":{},\"sub\":{},\"kind\":{},\"cap\":{}", script_json_string(c.label), script_json_string(c.sub),
                         script_json_string(c.kind), c.cap);
        if (!c.envelope)
            j += ",\"t\":[" + joined(c.t) + "],\"v\":[" + joined(c.v) + "]}";
        else
            j += fmt::format(",\"env\":1,\"w\":{},\"t\":[{}],\"lo\":[{}],\"hi\":[{}]}}", c.width, joined(c.t),
                             joined(c.lo), joined(c.hi));
    }
    j += "]}";
    return j;
}

} // namespace npusim::traces::html

#include "ProgressLine.hpp"

#include "CliSupport.hpp"

#include <fmt/format.h>

namespace npusim::tools {

ProgressLine::ProgressLine(std::ostream& out, bool terminal) : out_(out), terminal_(terminal) {}

std::string ProgressLine::format(const sim::SimProgress& p) {
    std::string done = p.ops_total
                           ? fmt::format("{}/{} sequence ops ({:.0f}%)", grouped(p.ops_done), grouped(p.ops_total),
                                         100.0 * static_cast<double>(p.ops_done) / static_cast<double>(p.ops_total))
                           : std::string("no runtime sequence");
    return fmt::format("  progress: {}, {} cycles simulated, {:.2f} M cycles/s, {:.1f} MiB moved, {:.1f} s elapsed{}",
                       done, grouped(p.cycles), p.cycles_per_second() / 1e6,
                       static_cast<double>(p.bytes_moved) / (1u << 20), p.wall_seconds, p.final ? " (end)" : "");
}

void ProgressLine::operator()(const sim::SimProgress& p) {
    if (!p.final && p.wall_seconds - last_ < interval_seconds()) return;
    last_ = p.final ? -1e9 : p.wall_seconds; // the next run (a --device list, --what-if) starts afresh
    const auto text = format(p);
    if (terminal_) {
        // Pad over a longer previous line; end the line with the last report.
        out_ << '\r' << fmt::format("{:<110}", text);
        if (p.final) out_ << '\n';
    } else {
        out_ << text << '\n';
    }
    out_.flush();
}

} // namespace npusim::tools

#include "ProgressLine.hpp"

#include "CliSupport.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace npusim::tools {

ProgressLine::ProgressLine(std::ostream& out, bool terminal, unsigned columns)
    : out_(out), terminal_(terminal), columns_(columns) {
    if (columns_ == 0) columns_ = terminal_columns(STDERR_FILENO);
    if (columns_ == 0) columns_ = 80;
}

unsigned ProgressLine::terminal_columns(int fd) {
    winsize ws{};
    if (::ioctl(fd, TIOCGWINSZ, &ws) != 0) return 0;
    return ws.ws_col;
}

std::string ProgressLine::format(const sim::SimProgress& p) {
    std::string done = p.ops_total
                           ? fmt::format("{}/{} sequence ops ({:.0f}%)", grouped(p.ops_done), grouped(p.ops_total),
                                         100.0 * static_cast<double>(p.ops_done) / static_cast<double>(p.ops_total))
                           : std::string("no runtime sequence");
    return fmt::format("  progress: {}, {} cycles simulated, {:.2f} M cycles/s, {:.1f} MiB moved, {:.1f} s elapsed{}",
                       done, grouped(p.cycles), p.cycles_per_second() / 1e6,
                       static_cast<double>(p.bytes_moved) / (1u << 20), p.wall_seconds, p.final ? " (end)" : "");
}

void ProgressLine::operator()(const sim::SimProgress& p) { show(format(p), p.wall_seconds, p.final); }

void ProgressLine::show(const std::string& text, double wall_seconds, bool final) {
    if (!final && wall_seconds - last_ < interval_seconds()) return;
    last_ = final ? -1e9 : wall_seconds; // the next run (a --device list, --what-if) starts afresh
    if (terminal_) {
        // One line: cut to the width (a wrapped line would leave its first part behind at every
        // update), then clear what a longer previous report left; the last report ends the line.
        out_ << '\r' << text.substr(0, columns_ > 1 ? columns_ - 1 : 1) << "\x1b[K";
        if (final) out_ << '\n';
        open_ = !final;
    } else {
        out_ << text << '\n';
    }
    out_.flush();
}

void ProgressLine::finish() {
    if (!open_) return;
    out_ << '\n';
    out_.flush();
    open_ = false;
}

} // namespace npusim::tools

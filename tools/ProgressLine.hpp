#pragma once
// `npusim run --progress` (and the progress of sweep and depth): how far the work has come, on
// stderr. On a terminal one line updated in place (carriage return, then clear to the end of the
// line) about ten times a second, cut to the terminal's width (TIOCGWINSZ) so it never wraps onto a
// second line; otherwise (a log, a pipe) whole lines, at most one every five seconds, so logs stay
// readable. The last report (the work ended, however) is always printed as a full line.
#include "npusim/sim/Simulator.hpp"

#include <ostream>
#include <string>

namespace npusim::tools {

class ProgressLine {
public:
    /// `terminal`: `out` is a terminal (update in place) rather than a file or pipe; `columns`: its
    /// width (0: that of the terminal on stderr, else 80).
    ProgressLine(std::ostream& out, bool terminal, unsigned columns = 0);
    void operator()(const sim::SimProgress& p);
    /// One report's text, `wall_seconds` into the work: printed unless one was printed less than
    /// interval_seconds() ago; `final` always, ending the line.
    void show(const std::string& text, double wall_seconds, bool final);
    /// Ends an updating line left open (a terminal's line whose last report was not final).
    void finish();
    /// The text of one report of a run (without line ending).
    static std::string format(const sim::SimProgress& p);
    /// Seconds between reports (the final one is always printed).
    double interval_seconds() const { return terminal_ ? 0.1 : 5.0; }
    /// The columns of the terminal on file descriptor `fd` (TIOCGWINSZ), 0 when it is none.
    static unsigned terminal_columns(int fd);

private:
    std::ostream& out_;
    bool terminal_;
    unsigned columns_;
    double last_ = -1e9; ///< wall seconds of the last printed report
    bool open_ = false; ///< a terminal line is being updated (no final report yet)
};

} // namespace npusim::tools

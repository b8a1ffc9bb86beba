#pragma once
// `npusim run --progress`: how far the simulation has come on stderr. On a terminal one line
// updated in place (carriage return) about ten times a second; otherwise (a log, a pipe) whole
// lines, at most one every two seconds, so logs stay readable. The last report (the run ended,
// however) is always printed as a full line.
#include "npusim/sim/Simulator.hpp"

#include <ostream>

namespace npusim::tools {

class ProgressLine {
public:
    /// `terminal`: `out` is a terminal (update in place) rather than a file or pipe.
    ProgressLine(std::ostream& out, bool terminal);
    void operator()(const sim::SimProgress& p);
    /// The text of one report (without line ending).
    static std::string format(const sim::SimProgress& p);
    /// Seconds between reports (the final one is always printed).
    double interval_seconds() const { return terminal_ ? 0.1 : 2.0; }

private:
    std::ostream& out_;
    bool terminal_;
    double last_ = -1e9; ///< wall seconds of the last printed report
};

} // namespace npusim::tools

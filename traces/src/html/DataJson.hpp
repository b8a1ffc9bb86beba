#pragma once
// The HTML report's embedded data (<script type="application/json" id="npusim-data">), which the
// page's script draws the timeline and the fifo charts from:
//   {"end", "clock_mhz", "quantum", "kinds", "colors", "names", "args",
//    "groups": [{"label", "tracks": [{"name", "series": [{"k", "b", "d", "n", "a"?, "m"?, "u"?}]}]}],
//    "counters": [{"label", "sub", "kind", "cap", "t", "v"} or {..., "env": 1, "w", "t", "lo", "hi"}]}
// A series' begins "b" are delta-coded; "d" durations, "n" name indices, "a" argument indices
// (only the arguments of embedded spans are written), "m" and "u" the spans a merged span stands
// for and their busy cycles. Every string goes through json_string (safe inside <script>).
#include "Reduction.hpp"

#include <string>
#include <vector>

namespace npusim::traces::html {

std::string render_data(const CollectedRun& run, const ReducedTimeline& timeline,
                        const std::vector<ReducedCounter>& counters);

} // namespace npusim::traces::html

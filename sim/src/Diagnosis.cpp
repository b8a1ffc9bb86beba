#include "npusim/sim/Diagnosis.hpp"

#include "WaitForGraph.hpp"

#include <fmt/format.h>

namespace npusim::sim {

std::string Diagnosis::to_dot() const {
    const std::string title =
        fmt::format("{} in design '{}' on {} at cycle {}: {}",
                    trigger == Trigger::Deadlock ? "deadlock" : "cycle limit", design, device, cycle, case_title);
    return WaitForGraph(nodes, edges).dot(title);
}

} // namespace npusim::sim

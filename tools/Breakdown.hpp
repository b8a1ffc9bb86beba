#pragma once
// The run summary's breakdown (harness::RunBreakdown) as text and as JSON: per-tile time by cause,
// achieved MACs per cycle against the matrix units' peak, and the unit that bounds throughput.
#include "npusim/harness/RunBreakdown.hpp"

#include <nlohmann/json.hpp>
#include <ostream>

namespace npusim::tools {

/// The table and the two lines `npusim run` prints after its worker table.
void print_breakdown(std::ostream& out, const harness::RunBreakdown& b);
/// The `breakdown` object of `npusim run --json`.
nlohmann::json breakdown_json(const harness::RunBreakdown& b);

} // namespace npusim::tools

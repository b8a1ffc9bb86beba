#pragma once
// The run summary's "trust" lines and the run document's "trust" object: how much of the run's
// predicted time rests on [est] parameters against [HW] / [doc] / [code] ones and kernel cost
// models (harness::TrustReport).
#include "npusim/harness/TrustReport.hpp"

#include <nlohmann/json.hpp>
#include <ostream>

namespace npusim::tools {

void print_trust(std::ostream& out, const harness::TrustReport& t);
nlohmann::json trust_json(const harness::TrustReport& t);

} // namespace npusim::tools

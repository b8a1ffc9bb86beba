#pragma once
// `npusim run --what-if sensitivity`: how far the run's predicted time can move on the parameters
// nobody measured. Every timing parameter whose source for the run's generation is tagged [est]
// (model::timing_param_table) is set to half and to double its value, one at a time, the run
// repeated with the same inputs and checks, and the cycles and npu time of each reported beside
// the baseline, with the range all of them span.
#include "RunArgs.hpp"

#include "npusim/harness/DesignRunner.hpp"

#include <nlohmann/json.hpp>
#include <ostream>

namespace npusim::tools {

/// The sensitivity reruns of `baseline` (options `base`): into `*json` ("sensitivity") when given,
/// else as a table on `out`. A rerun that fails is a row with its error.
void run_sensitivity(const RunArgs& r, const harness::DesignSpec& spec, const harness::RunOptions& base,
                     const harness::RunReport& baseline, std::ostream& out, std::ostream& err, nlohmann::json* json);

} // namespace npusim::tools
